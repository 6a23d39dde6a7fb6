import { hasChannelPermission } from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  deleteMessageRow,
  firstChannelMessageId,
  type MessageRow,
} from '../db/queries/messages.js';
import { type StreamRow, setStreamFirstMessageId, streamById } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { forgetMessageFlags } from '../flags/index.js';
import { accessMessage, usersWithMessageAccess, usersWithMetadataAccess } from '../narrow/index.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { loadRealm } from '../shared/realm.js';
import { topicForQueue } from '../shared/topics.js';
import type { StreamUpdateEvent } from '../shared/zulip-api/index.js';
import { type DeletedFrom, emitDeleteMessageEvents } from './events.js';

const cannotDelete = () => badRequest("You don't have permission to delete this message");

/** Zulip's validate_can_delete_message. */
function checkCanDelete(
  ctx: AppContext,
  user: UserRow,
  message: MessageRow,
  stream: StreamRow | undefined,
): void {
  const realm = loadRealm(ctx);
  const setting = (name: 'can_delete_any_message_group' | 'can_delete_own_message_group') =>
    realm.settings[name] as StoredGroupSetting;
  if (userHasGroupSetting(ctx, user, setting('can_delete_any_message_group'))) return;
  if (stream && hasChannelPermission(ctx, user, stream, 'can_delete_any_message_group')) return;
  // Own messages include those of one's bots.
  if (
    message.sender_id !== user.id &&
    userById(ctx.db, message.sender_id)?.bot_owner_id !== user.id
  )
    throw cannotDelete();
  if (!userHasGroupSetting(ctx, user, setting('can_delete_own_message_group'))) {
    if (!stream || !hasChannelPermission(ctx, user, stream, 'can_delete_own_message_group'))
      throw cannotDelete();
  }
  const limit = realm.settings.message_content_delete_limit_seconds;
  if (limit !== null && Math.floor(ctx.now() / 1000) - message.date_sent > limit) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}

/**
 * Deletes messages with their search rows, flag rows, reactions and edit
 * history, and tells everyone who could see them (delete_message: one event
 * with all ids for bulk_message_deletion clients, one per message otherwise).
 */
export function removeMessages(ctx: AppContext, tx: Tx, messages: MessageRow[]): void {
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  // Grouped by conversation, as Zulip sends one event per channel topic or DM conversation.
  const groups = new Map<string, { sample: MessageRow; ids: number[]; users: Set<number> }>();
  const touchedStreams = new Set<number>();
  for (const message of messages) {
    const audience = usersWithMessageAccess(ctx, message);
    const key =
      message.stream_id !== null
        ? `s${message.stream_id}:${message.topic_key}`
        : `d${message.dm_group_id}`;
    let group = groups.get(key);
    if (!group) {
      group = { sample: message, ids: [], users: new Set() };
      groups.set(key, group);
    }
    group.ids.push(message.id);
    for (const id of audience) group.users.add(id);
    forgetMessageFlags(ctx.db, message.id);
    deleteMessageRow(ctx.db, message.id);
    if (message.stream_id !== null) touchedStreams.add(message.stream_id);
  }
  for (const { sample, ids, users } of groups.values()) {
    const sorted = ids.sort((a, b) => a - b);
    const base = (queue: Parameters<typeof topicForQueue>[0]): DeletedFrom =>
      sample.stream_id !== null
        ? {
            message_type: 'stream',
            stream_id: sample.stream_id,
            topic: topicForQueue(queue, sample.topic, emptyName),
          }
        : { message_type: 'private' };
    emitDeleteMessageEvents(tx, users, sorted, base);
  }
  for (const streamId of touchedStreams) {
    const stream = streamById(ctx.db, streamId);
    if (!stream) continue;
    const first = firstChannelMessageId(ctx.db, streamId);
    if (first === stream.first_message_id) continue;
    setStreamFirstMessageId(ctx.db, streamId, first);
    tx.emit({
      type: 'stream',
      users: usersWithMetadataAccess(ctx, stream),
      payload: {
        type: 'stream',
        op: 'update',
        property: 'first_message_id',
        value: first,
        stream_id: streamId,
        name: stream.name,
      } satisfies StreamUpdateEvent,
    });
  }
}

/** DELETE /messages/{message_id} */
export function deleteMessage(
  ctx: AppContext,
  user: UserRow,
  messageId: number,
): Record<string, never> {
  const { message, stream } = accessMessage(ctx, user, messageId, { modifying: true });
  checkCanDelete(ctx, user, message, stream);
  ctx.transaction((tx) => removeMessages(ctx, tx, [message]));
  return {};
}
