import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { topicKey } from './messages.js';

/** Every user's personal policy for one topic (moved along with the topic, reset when it is deleted). */
export const topicPolicies = (db: Db, streamId: number, topic: string) =>
  stmt<[number, string], { user_id: number; visibility_policy: number; topic_name: string }>(
    db,
    'SELECT user_id, visibility_policy, topic_name FROM user_topics WHERE stream_id = ? AND topic_key = ?',
  ).all(streamId, topicKey(topic));
