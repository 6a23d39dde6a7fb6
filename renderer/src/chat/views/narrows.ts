import type { Narrow } from '../data/model.js';

/** The narrows the views link to, in the operators Zulip's API takes. */
export const channelNarrow = (channelId: number): Narrow => [
  { operator: 'channel', operand: channelId },
];

export const topicNarrow = (channelId: number, topic: string): Narrow => [
  { operator: 'channel', operand: channelId },
  { operator: 'topic', operand: topic },
];

/** A DM conversation: its participants other than you (yourself alone for notes to self). */
export const dmNarrow = (userIds: number[], ownUserId: number): Narrow => [
  {
    operator: 'dm',
    operand: userIds.length > 0 ? [...userIds].sort((a, b) => a - b) : [ownUserId],
  },
];

export const mentionsNarrow: Narrow = [{ operator: 'is', operand: 'mentioned' }];
export const starredNarrow: Narrow = [{ operator: 'is', operand: 'starred' }];

/** The channel and topic a narrow is about, when it is one channel (and maybe one topic). */
export function channelAndTopicOf(narrow: Narrow): {
  channelId: number | null;
  topic: string | null;
} {
  let channelId: number | null = null;
  let topic: string | null = null;
  for (const term of narrow) {
    if (term.negated) continue;
    if (
      (term.operator === 'channel' || term.operator === 'stream') &&
      typeof term.operand === 'number'
    ) {
      channelId = term.operand;
    }
    if (term.operator === 'topic' && typeof term.operand === 'string') topic = term.operand;
  }
  return { channelId, topic };
}
