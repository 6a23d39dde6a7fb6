import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface TopicMaxId {
  topic: string;
  max_id: number;
}

/** Each exact topic spelling in the channel with its newest message id. */
export const channelTopics = (db: Db, streamId: number) =>
  stmt<[number], TopicMaxId>(
    db,
    `SELECT topic, max(id) AS max_id FROM messages WHERE stream_id = ?
      GROUP BY topic ORDER BY max_id DESC`,
  ).all(streamId);

/**
 * Like channelTopics, but only over messages the user received (sent while
 * subscribed, per subscription_periods) or sent: protected history.
 */
export const receivedChannelTopics = (db: Db, streamId: number, userId: number) =>
  stmt<[number, number, number], TopicMaxId>(
    db,
    `SELECT m.topic, max(m.id) AS max_id FROM messages m
      WHERE m.stream_id = ?
        AND (m.sender_id = ? OR EXISTS (
          SELECT 1 FROM subscription_periods p
           WHERE p.user_id = ? AND p.stream_id = m.stream_id
             AND m.id >= p.first_message_id
             AND (p.last_message_id IS NULL OR m.id <= p.last_message_id)))
      GROUP BY m.topic ORDER BY max_id DESC`,
  ).all(streamId, userId, userId);
