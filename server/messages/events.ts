import type { AppContext, Tx } from '../core/context.js';
import type { MessageRow } from '../db/queries/messages.js';
import { subscriptionOf } from '../db/queries/streams.js';
import { memoisePayload, type NewMessageFacts } from '../events/hub.js';
import type { EventQueue } from '../events/queue.js';
import { flagNames } from '../shared/flags.js';
import type { EventBody, Message } from '../shared/zulip-api/index.js';
import { userAccessRestricted, userIdsWithoutAccessTo } from '../user-access/index.js';
import { hideSender, MessageFormatter, type NewMessageRecord } from './format.js';

/**
 * Recipients of a new message who may not see its sender (Zulip's
 * user_ids_without_access_to_sender in do_send_messages): only possible for
 * a channel message whose sender is not subscribed, when user access is
 * limited; anyone sharing a DM with the sender may see them.
 */
function recipientsNotSeeingSender(
  ctx: AppContext,
  message: MessageRow,
  recipients: readonly number[],
): ReadonlySet<number> {
  if (message.stream_id === null || !userAccessRestricted(ctx)) return new Set();
  if (subscriptionOf(ctx.db, message.stream_id, message.sender_id)?.active) return new Set();
  return userIdsWithoutAccessTo(ctx, message.sender_id, recipients);
}

/**
 * Emits the `message` event for a newly stored message, formatted from the
 * row as the send stored it (as Zulip's event carries the message as sent;
 * later changes follow as their own events). The dict is built once per
 * combination of client options (apply_markdown, empty_topic_name), not once
 * per queue; flags come per recipient.
 */
export function emitMessageEvent(
  ctx: AppContext,
  tx: Tx,
  message: NewMessageRecord,
  recipients: Iterable<number>,
  /** Recipients missing here have no flags. */
  flagsByUser: ReadonlyMap<number, number>,
  local?: { queueId: string; localId: string },
  facts?: NewMessageFacts,
): void {
  const audience = [...recipients];
  const hiddenFrom = recipientsNotSeeingSender(ctx, message.row, audience);
  const variants = new Map<number, Message>();
  let formatter: MessageFormatter | undefined;
  const dictFor = (queue: EventQueue): Message => {
    const o = queue.options;
    const key = (o.applyMarkdown ? 2 : 0) | (o.capabilities.empty_topic_name ? 1 : 0);
    let dict = variants.get(key);
    if (!dict) {
      formatter ??= new MessageFormatter(ctx);
      dict = formatter.formatNew(message, {
        applyMarkdown: o.applyMarkdown,
        allowEmptyTopicName: o.capabilities.empty_topic_name,
      });
      variants.set(key, dict);
    }
    return dict;
  };
  tx.emit({
    type: 'message',
    users: audience,
    ...(facts ? { newMessage: facts } : {}),
    // Recipients with the same options and flags share one event (and its JSON).
    payload: memoisePayload(
      (queue) => {
        const o = queue.options;
        // Flags in the high bits; a number key costs no string per queue.
        return (
          (flagsByUser.get(queue.userId) ?? 0) * 16 +
          (o.applyMarkdown ? 8 : 0) +
          (o.capabilities.empty_topic_name ? 4 : 0) +
          (local !== undefined && queue.id === local.queueId ? 2 : 0) +
          (hiddenFrom.has(queue.userId) ? 1 : 0)
        );
      },
      (queue) => {
        let message = dictFor(queue);
        if (hiddenFrom.has(queue.userId)) {
          message = { ...message };
          hideSender(ctx, message);
        }
        const event: EventBody<'message', string, 'local_message_id'> = {
          type: 'message',
          message,
          flags: flagNames(flagsByUser.get(queue.userId) ?? 0),
        };
        if (local && queue.id === local.queueId) event.local_message_id = local.localId;
        return event;
      },
    ),
  });
}

/** delete_message's fields present only for a channel's messages. */
type ChannelOnly = 'stream_id' | 'topic';

/** The conversation a delete_message names: a channel's topic, or direct messages. */
export type DeletedFrom =
  | { message_type: 'stream'; stream_id: number; topic: string }
  | { message_type: 'private' };

/**
 * delete_message for messages of one conversation: one bulk event for clients
 * with the bulk_message_deletion capability, one event per message for the
 * rest. `conversation` may read only the queue's empty_topic_name capability,
 * so queues alike in both share one payload (and its JSON).
 */
export function emitDeleteMessageEvents(
  tx: Tx,
  users: Iterable<number>,
  sortedIds: number[],
  conversation: (queue: EventQueue) => DeletedFrom,
): void {
  const audience = [...users];
  const capabilitiesKey = (queue: EventQueue) => {
    const c = queue.options.capabilities;
    return `${c.bulk_message_deletion}|${c.empty_topic_name}`;
  };
  tx.emit({
    type: 'delete_message',
    users: audience,
    payload: memoisePayload(capabilitiesKey, (queue) =>
      queue.options.capabilities.bulk_message_deletion
        ? ({
            type: 'delete_message',
            message_ids: sortedIds,
            ...conversation(queue),
          } satisfies EventBody<'delete_message', string, 'message_id' | ChannelOnly>)
        : null,
    ),
  });
  for (const id of sortedIds) {
    tx.emit({
      type: 'delete_message',
      users: audience,
      payload: memoisePayload(capabilitiesKey, (queue) =>
        queue.options.capabilities.bulk_message_deletion
          ? null
          : ({
              type: 'delete_message',
              message_id: id,
              ...conversation(queue),
            } satisfies EventBody<'delete_message', string, 'message_ids' | ChannelOnly>),
      ),
    });
  }
}
