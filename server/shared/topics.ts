import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { EventQueue } from '../events/queue.js';
import { MAX_TOPIC_LENGTH } from './limits.js';
import { firstUnprintablePosition } from './printable.js';
import { loadRealm } from './realm.js';

/**
 * The one home of topic names as clients send and see them. Every operation
 * that takes a topic (sending, editing, typing, narrows, marking read, topic
 * preferences, scheduled messages) goes through these.
 */

/** Zulip's fixed name for the empty topic where a display name cannot be chosen. */
export const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';

/**
 * Stripped, with `(no topic)` and the organization's empty-topic display name
 * meaning the empty topic, as Zulip treats them everywhere a topic is given.
 */
export function canonicalTopic(raw: string, emptyTopicDisplayName: string): string {
  const topic = raw.trim();
  return topic === '(no topic)' || topic === emptyTopicDisplayName ? '' : topic;
}

/** Unprintable characters are refused with Zulip's message and 1-based position. */
export function checkTopicCharacters(topic: string): void {
  const position = firstUnprintablePosition(topic);
  if (position !== undefined) {
    throw badRequest(`Invalid character in topic, at position ${position}!`);
  }
}

/** Over-long topics are cut to 57 characters plus "...", not refused. */
export function truncateTopic(topic: string): string {
  const chars = [...topic];
  return chars.length > MAX_TOPIC_LENGTH
    ? `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join('')}...`
    : topic;
}

/** A topic as given by a client, ready to store or compare. */
export function normalizeTopic(raw: string, emptyTopicDisplayName: string): string {
  const topic = canonicalTopic(raw, emptyTopicDisplayName);
  checkTopicCharacters(topic);
  return truncateTopic(topic);
}

/**
 * The empty topic as a client sees it: clients without the `empty_topic_name`
 * capability (or without `allow_empty_topic_name`) get the display name.
 */
export function topicForClient(
  topic: string,
  emptyTopicDisplayName: string,
  clientSupportsEmptyTopic: boolean,
): string {
  return topic === '' && !clientSupportsEmptyTopic ? emptyTopicDisplayName : topic;
}

/** A stored topic with the empty topic replaced (see emptyTopicReplacement). */
export const topicShownAs = (topic: string, replacement: string | null): string =>
  topic === '' && replacement !== null ? replacement : topic;

export function topicForQueue(queue: EventQueue, topic: string, emptyTopicDisplayName: string) {
  return topicForClient(topic, emptyTopicDisplayName, queue.options.capabilities.empty_topic_name);
}

/**
 * What the empty topic is replaced with for a client: nothing (null) for
 * clients with the `empty_topic_name` capability, else the display name.
 */
export function emptyTopicReplacement(
  ctx: AppContext,
  clientSupportsEmptyTopic: boolean,
): string | null {
  return clientSupportsEmptyTopic ? null : loadRealm(ctx).settings.empty_topic_display_name;
}
