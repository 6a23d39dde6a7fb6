import type { ZulipApi } from '../data/api.js';
import type { ChatState } from '../data/model.js';
import { topicKey } from '../data/narrow.js';
import { isResolved, toggleResolvedParams } from '../data/resolved-topic.js';

/** Zulip's words for the toggle, by the topic's current state. */
export const resolveLabel = (topic: string): string =>
  isResolved(topic) ? 'Mark as unresolved' : 'Mark as resolved';

/**
 * The newest message the tab knows in a topic (the toggle moves the whole
 * topic through any one of its messages), or null.
 */
export function knownMessageInTopic(
  state: ChatState,
  channelId: number,
  topic: string,
): number | null {
  const lower = topic.toLowerCase();
  let newest = -1;
  for (const entry of state.topics.get(channelId) ?? []) {
    if (entry.name.toLowerCase() === lower) newest = Math.max(newest, entry.maxId);
  }
  const key = topicKey(channelId, topic);
  for (const entry of state.recent) {
    if (entry.key === key) newest = Math.max(newest, entry.maxId);
  }
  return newest > 0 ? newest : null;
}

async function newestMessageInTopic(
  api: ZulipApi,
  channelId: number,
  topic: string,
): Promise<number | null> {
  const answer = await api.call<{ messages: { id: number }[] }>('GET', '/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    allow_empty_topic_name: true,
    narrow: [
      { operator: 'channel', operand: channelId },
      { operator: 'topic', operand: topic },
    ],
  });
  return answer.messages.at(-1)?.id ?? null;
}

/**
 * Marks a topic resolved, or unresolved if it is: renames the whole topic
 * through one of its messages (`messageId`, else the newest the tab knows,
 * else the newest the server has).
 */
export async function toggleTopicResolved(
  api: ZulipApi,
  state: ChatState,
  channelId: number,
  topic: string,
  messageId: number | null = null,
): Promise<void> {
  const id =
    messageId ??
    knownMessageInTopic(state, channelId, topic) ??
    (await newestMessageInTopic(api, channelId, topic));
  if (id === null) throw new Error('This topic has no messages.');
  await api.call('PATCH', `/messages/${id}`, toggleResolvedParams(topic));
}
