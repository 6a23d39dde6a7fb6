import type { AppContext, Tx } from '../core/context.js';
import { mutedTopicsList, setUserTopicPolicy } from '../db/queries/user-topics.js';
import type { EventQueue } from '../events/queue.js';
import { loadRealm } from '../shared/realm.js';
import { topicForQueue } from '../shared/topics.js';
import type { EventBody } from '../shared/zulip-api/index.js';

/**
 * Stores a user's visibility policy for a topic and tells the user's clients,
 * whatever changed it (POST /user_topics, the legacy muted_topics endpoint,
 * following a topic automatically on sending, moving a topic): a user_topic
 * event, and before it the whole deprecated muted_topics list to every queue
 * that takes that type, except those that asked for user_topic by name
 * (Zulip's accepts_event suppresses it there; a queue of every type gets it).
 */
export function setVisibilityPolicy(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  streamId: number,
  topic: string,
  policy: number,
): void {
  const now = Math.floor(ctx.now() / 1000);
  setUserTopicPolicy(ctx.db, { userId, streamId, topic, policy, now });
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  // The deprecated list goes first, as in Zulip, so an old client has it
  // before the user_topic event that newer ones read.
  const muted = mutedTopicsList(ctx.db, userId, emptyName);
  const mutedNative = mutedTopicsList(ctx.db, userId, null);
  tx.emit({
    type: 'muted_topics',
    users: [userId],
    payload: (queue: EventQueue) => {
      if (queue.options.eventTypes?.has('user_topic')) return null;
      return {
        type: 'muted_topics',
        muted_topics: queue.options.capabilities.empty_topic_name ? mutedNative : muted,
      } satisfies EventBody<'muted_topics'>;
    },
  });
  tx.emit({
    type: 'user_topic',
    users: [userId],
    payload: (queue: EventQueue) =>
      ({
        type: 'user_topic',
        stream_id: streamId,
        topic_name: topicForQueue(queue, topic, emptyName),
        last_updated: now,
        visibility_policy: policy,
      }) satisfies EventBody<'user_topic'>,
  });
}
