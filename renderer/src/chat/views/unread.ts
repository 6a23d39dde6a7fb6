import type { ChatState, Narrow } from '../data/model.js';
import { canonicalOperatorOf, dmKey, isTopicMuted } from '../data/narrow.js';
import { sortChannels } from './channel-order.js';

/** A topic's unread count from the store's counts (topic names compare without case, as the server's do). */
export function topicUnread(topics: Map<string, number> | undefined, topic: string): number {
  if (!topics) return 0;
  const exact = topics.get(topic);
  if (exact !== undefined) return exact;
  const lower = topic.toLowerCase();
  for (const [name, count] of topics) if (name.toLowerCase() === lower) return count;
  return 0;
}

export interface TopicRef {
  channelId: number;
  topic: string;
}

/**
 * The `n` key: the next topic with unread messages after the current one,
 * in sidebar order (channels as listed, topics newest first), wrapping round;
 * muted channels and topics are skipped as Zulip skips them.
 */
export function nextUnreadTopic(state: ChatState, current: TopicRef | null): TopicRef | null {
  const order: TopicRef[] = [];
  for (const subscription of sortChannels(state.subscriptions.values())) {
    if (subscription.is_muted) continue;
    const counts = state.unread.topics.get(subscription.stream_id);
    if (!counts) continue;
    const known = state.topics.get(subscription.stream_id)?.map((t) => t.name) ?? [];
    const names = [...counts.keys()].sort((a, b) => {
      const ia = known.indexOf(a);
      const ib = known.indexOf(b);
      if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib);
      return a.localeCompare(b);
    });
    for (const name of names) {
      if ((counts.get(name) ?? 0) === 0) continue;
      if (isTopicMuted(state, subscription.stream_id, name)) continue;
      order.push({ channelId: subscription.stream_id, topic: name });
    }
  }
  return nextAfter(
    order,
    current,
    (a, b) => a.channelId === b.channelId && a.topic.toLowerCase() === b.topic.toLowerCase(),
  );
}

/** The `p` key: the next DM conversation with unread messages (by `dmKey`). */
export function nextUnreadDirect(state: ChatState, currentKey: string | null): string | null {
  const keys = [...state.unread.directs].filter(([, count]) => count > 0).map(([key]) => key);
  return nextAfter(keys, currentKey, (a, b) => a === b);
}

function nextAfter<T>(order: T[], current: T | null, same: (a: T, b: T) => boolean): T | null {
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.findIndex((item) => same(item, current));
  if (at === -1) return order[0]!;
  return order.length === 1 ? null : order[(at + 1) % order.length]!;
}

/**
 * The unread count of a narrow the counts know exactly (the combined feed,
 * a channel, a topic, a DM, mentions); null for any other narrow.
 */
export function narrowUnreadCount(narrow: Narrow, state: ChatState): number | null {
  const { unread } = state;
  if (narrow.length === 0) return unread.total;
  if (narrow.some((t) => t.negated)) return null;
  const ops = narrow.map((t) => canonicalOperatorOf(t.operator));
  const channelId = (operand: Narrow[number]['operand']) => {
    if (typeof operand === 'number') return operand;
    const name = String(operand).toLowerCase();
    for (const sub of state.subscriptions.values()) {
      if (sub.name.toLowerCase() === name) return sub.stream_id;
    }
    return null;
  };
  const [first, second] = narrow;
  if (ops.length === 1 && ops[0] === 'is' && first!.operand === 'mentioned') return unread.mentions;
  if (ops.length === 1 && ops[0] === 'dm' && Array.isArray(first!.operand)) {
    return unread.directs.get(dmKey(first!.operand, state.ownUserId)) ?? 0;
  }
  if (ops[0] !== 'channel') return null;
  const id = channelId(first!.operand);
  if (id === null) return null;
  if (ops.length === 1) return unread.channels.get(id) ?? 0;
  if (ops.length === 2 && ops[1] === 'topic') {
    return topicUnread(unread.topics.get(id), String(second!.operand));
  }
  return null;
}
