import { accessChannelById } from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  type Conversation,
  conversationOf,
  conversationsWithUnreadRows,
  dmWatermarks,
  userHasMessageInTopic,
} from '../db/queries/flags.js';
import { messagesByIds, topicKey } from '../db/queries/messages.js';
import { subscriptionsOfUser } from '../db/queries/streams.js';
import { unreadMessageIdsFrom } from '../db/queries/unread.js';
import type { UserRow } from '../db/queries/users.js';
import { Flag } from '../shared/flags.js';
import { loadRealm } from '../shared/realm.js';
import { canonicalTopic } from '../shared/topics.js';
import { applyFlagChanges, markConversationRead, planFlagChange } from './read-state.js';
import { emitFlagsEvent } from './update.js';

const markRead = { op: 'add', flag: 'read' };

/**
 * POST /mark_all_as_read. Zulip works in batches under a 50-second budget and
 * may answer complete=false; here one transaction always finishes.
 */
export function markAllAsRead(ctx: AppContext, user: UserRow): { complete: boolean } {
  ctx.transaction((tx) => {
    const conversations = new Map<string, Conversation>();
    const add = (c: Conversation) => conversations.set(`${c.kind}:${c.id}`, c);
    for (const sub of subscriptionsOfUser(ctx.db, user.id)) {
      if (sub.active) add({ kind: 'channel', id: sub.stream_id });
    }
    for (const dmGroupId of dmWatermarks(ctx.db, user.id).keys())
      add({ kind: 'dm', id: dmGroupId });
    for (const m of conversationsWithUnreadRows(ctx.db, user.id)) add(conversationOf(m));
    const ids: number[] = [];
    for (const conversation of conversations.values()) {
      ids.push(...markConversationRead(ctx.db, user.id, conversation));
    }
    if (ids.length > 0) {
      emitFlagsEvent(
        ctx,
        tx,
        user.id,
        markRead,
        ids.sort((a, b) => a - b),
      );
    }
  });
  return { complete: true };
}

/** POST /mark_stream_as_read */
export function markStreamAsRead(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
): Record<string, never> {
  const stream = accessChannelById(ctx, user, streamId);
  ctx.transaction((tx) => {
    const ids = markConversationRead(ctx.db, user.id, { kind: 'channel', id: stream.id });
    if (ids.length > 0) emitFlagsEvent(ctx, tx, user.id, markRead, ids);
  });
  return {};
}

/**
 * POST /mark_topic_as_read. `""`, `(no topic)` and the empty-topic display
 * name all mean the empty topic, never the whole channel.
 */
export function markTopicAsRead(
  ctx: AppContext,
  user: UserRow,
  input: { streamId: number; topicName: string },
): Record<string, never> {
  const stream = accessChannelById(ctx, user, input.streamId);
  const topic = canonicalTopic(input.topicName, loadRealm(ctx).settings.empty_topic_display_name);
  const key = topicKey(topic);
  if (!userHasMessageInTopic(ctx.db, user.id, stream.id, key)) {
    throw badRequest(`No such topic '${input.topicName}'`);
  }
  ctx.transaction((tx) => {
    const ids = markConversationRead(ctx.db, user.id, { kind: 'channel', id: stream.id }, key);
    if (ids.length > 0) emitFlagsEvent(ctx, tx, user.id, markRead, ids);
  });
  return {};
}

/**
 * Marks every unread message from `senderId` read for the user, inside the
 * caller's transaction (Zulip's do_mark_muted_user_messages_as_read, when
 * a user mutes someone), with one update_message_flags event if any changed.
 */
export function markMessagesFromSenderRead(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  senderId: number,
): void {
  const ids = unreadMessageIdsFrom(ctx.db, userId, senderId);
  if (ids.length === 0) return;
  const changes = planFlagChange(ctx.db, userId, messagesByIds(ctx.db, ids), Flag.read, true);
  applyFlagChanges(ctx.db, userId, changes);
  const changed = changes.map((c) => c.message.id).sort((a, b) => a - b);
  if (changed.length > 0) emitFlagsEvent(ctx, tx, userId, markRead, changed);
}
