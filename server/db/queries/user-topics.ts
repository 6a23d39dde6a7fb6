import { topicShownAs } from '../../shared/topics.js';
import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { topicKey } from './messages.js';

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic_key: string;
  topic_name: string;
  visibility_policy: number;
  last_updated: number;
}

export const VisibilityPolicy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export const userTopicPolicy = (db: Db, userId: number, streamId: number, topic: string) =>
  stmt<[number, number, string], { visibility_policy: number }>(
    db,
    'SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_key = ?',
  ).get(userId, streamId, topicKey(topic))?.visibility_policy ?? VisibilityPolicy.inherit;

/** Policy 0 removes the row: "inherit" is the absence of a preference. */
export function setUserTopicPolicy(
  db: Db,
  row: { userId: number; streamId: number; topic: string; policy: number; now: number },
): void {
  if (row.policy === VisibilityPolicy.inherit) {
    stmt(db, 'DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_key = ?').run(
      row.userId,
      row.streamId,
      topicKey(row.topic),
    );
    return;
  }
  stmt(
    db,
    `INSERT INTO user_topics (user_id, stream_id, topic_key, topic_name, visibility_policy, last_updated)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, stream_id, topic_key) DO UPDATE SET
       topic_name = excluded.topic_name, visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
  ).run(row.userId, row.streamId, topicKey(row.topic), row.topic, row.policy, row.now);
}

export const userTopicsOf = (db: Db, userId: number) =>
  stmt<[number], UserTopicRow>(
    db,
    'SELECT * FROM user_topics WHERE user_id = ? ORDER BY stream_id, topic_key',
  ).all(userId);

/** Whether any message other than `exceptId` exists in the topic. */
export const topicHasOtherMessages = (db: Db, streamId: number, topic: string, exceptId: number) =>
  stmt<[number, string, number], { x: number }>(
    db,
    'SELECT 1 AS x FROM messages WHERE stream_id = ? AND topic_key = ? AND id <> ? LIMIT 1',
  ).get(streamId, topicKey(topic), exceptId) !== undefined;

/** Users who sent or reacted to a message in the topic (topic wildcard recipients). */
export const topicParticipants = (db: Db, streamId: number, topic: string) =>
  stmt<[number, string, number, string], { user_id: number }>(
    db,
    `SELECT sender_id AS user_id FROM messages WHERE stream_id = ? AND topic_key = ?
     UNION
     SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id
      WHERE m.stream_id = ? AND m.topic_key = ?`,
  )
    .all(streamId, topicKey(topic), streamId, topicKey(topic))
    .map((r) => r.user_id);

export const userTopicRow = (db: Db, userId: number, streamId: number, topic: string) =>
  stmt<[number, number, string], UserTopicRow>(
    db,
    'SELECT * FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_key = ?',
  ).get(userId, streamId, topicKey(topic));

/** The user's preferences in channels that are not archived (Zulip hides the others). */
export const userTopicsInActiveChannels = (db: Db, userId: number) =>
  stmt<[number], UserTopicRow & { stream_name: string }>(
    db,
    `SELECT t.*, s.name AS stream_name FROM user_topics t JOIN streams s ON s.id = t.stream_id
      WHERE t.user_id = ? AND s.is_archived = 0 ORDER BY t.stream_id, t.topic_key`,
  ).all(userId);

/**
 * The legacy muted_topics list: [channel name, topic, muted at] for each
 * muted topic of a channel that is not archived. `emptyTopicName` replaces
 * the empty topic for clients that cannot show it (null keeps it).
 */
export function mutedTopicsList(
  db: Db,
  userId: number,
  emptyTopicName: string | null,
): Array<[string, string, number]> {
  return userTopicsInActiveChannels(db, userId)
    .filter((row) => row.visibility_policy === VisibilityPolicy.muted)
    .map((row) => [
      row.stream_name,
      topicShownAs(row.topic_name, emptyTopicName),
      row.last_updated,
    ]);
}
