/** Scheduled messages in the chat: the request that schedules one and the conversation one is for. */
import type { ComposeTarget, ScheduledMessage } from '../data/model.js';

/** `POST /scheduled_messages`'s parameters for the compose box's message. */
export function scheduleParams(
  target: ComposeTarget,
  content: string,
  timestamp: number,
): Record<string, unknown> {
  return target.kind === 'channel'
    ? {
        type: 'stream',
        to: target.channelId,
        topic: target.topic,
        content,
        scheduled_delivery_timestamp: timestamp,
      }
    : {
        type: 'direct',
        to: [...target.userIds].sort((a, b) => a - b),
        content,
        scheduled_delivery_timestamp: timestamp,
      };
}

/** The conversation a scheduled message goes to (a DM's `to` may list the sender too). */
export function scheduledTarget(message: ScheduledMessage, ownUserId: number): ComposeTarget {
  if (message.type === 'stream') {
    return { kind: 'channel', channelId: Number(message.to), topic: message.topic ?? '' };
  }
  const ids = Array.isArray(message.to) ? message.to : [message.to];
  const others = ids.filter((id) => id !== ownUserId);
  return { kind: 'direct', userIds: others.length > 0 ? others : [ownUserId] };
}

/** Soonest first, as Zulip's Scheduled messages view lists them. */
export const soonestFirst = (messages: Iterable<ScheduledMessage>): ScheduledMessage[] =>
  [...messages].sort(
    (a, b) =>
      a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp ||
      a.scheduled_message_id - b.scheduled_message_id,
  );
