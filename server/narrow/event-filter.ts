/** Whether a new message event matches the narrow a queue registered with. */
import type { EventQueue, NarrowTerm } from '../events/queue.js';
import { NARROW_OPERATORS } from '../shared/narrow-operators.js';
import { isResolvedTopic } from '../shared/resolved-topics.js';

export type { NarrowTerm };

export const mentionFlags = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

export function termMatchesEvent(
  term: NarrowTerm,
  message: Record<string, unknown>,
  flags: readonly string[],
  userId: number,
): boolean {
  const isStream = message.type === 'stream';
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  const operand = term.operand;
  switch (NARROW_OPERATORS[term.operator] ?? term.operator) {
    case 'channel':
      if (!isStream) return false;
      return typeof operand === 'number'
        ? message.stream_id === operand
        : lower(message.display_recipient) === lower(operand).trim();
    case 'topic':
      return isStream && lower(message.subject) === lower(operand).trim();
    case 'sender':
      if (typeof operand === 'number') return message.sender_id === operand;
      if (String(operand).trim() === 'me') return message.sender_id === userId;
      return lower(message.sender_email) === lower(operand).trim();
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'mentioned':
          return flags.some((f) => mentionFlags.includes(f));
        case 'alerted':
          return flags.includes('has_alert_word');
        case 'resolved':
          return isStream && isResolvedTopic(String(message.subject ?? ''));
        default:
          return true;
      }
    default:
      return true;
  }
}

/**
 * Does a `message` event (its message dict and the recipient's flags) match
 * a register narrow? Covers the operators POST /register accepts; other
 * `is` operands let every message through.
 */
export function messageEventMatchesNarrow(
  narrow: readonly NarrowTerm[],
  message: Record<string, unknown>,
  flags: readonly string[],
  userId: number,
): boolean {
  return narrow.every((term) => termMatchesEvent(term, message, flags, userId) !== term.negated);
}

/** EventHub.queueFilter: queues registered with a narrow get only the message events in it. */
export function narrowQueueFilter(
  queue: EventQueue,
  type: string,
  payload: Record<string, unknown>,
): boolean {
  if (type !== 'message' || queue.options.narrow.length === 0) return true;
  const message = payload.message as Record<string, unknown> | undefined;
  if (!message) return true;
  const flags = Array.isArray(payload.flags) ? (payload.flags as string[]) : [];
  return messageEventMatchesNarrow(queue.options.narrow, message, flags, queue.userId);
}
