import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/**
 * Unread messages per user without per-recipient rows (db/DESIGN.md).
 * Above a conversation's watermark, messages from others are unread unless a
 * flag row says otherwise; at or below it, only rows can make them unread:
 *
 *   unread = A (others' messages above the watermark, index-only range counts)
 *          − B (rows overriding such messages)
 *          + C (rows without `read`, through a partial index of unread rows)
 *
 * B only looks at rows above the user's lowest watermark, so a long read
 * history of mentions and stars is never scanned.
 */
export function unreadCount(db: Db, userId: number): number {
  const a = stmt<[number, number, number, number], { n: number }>(
    db,
    `SELECT
       (SELECT count(*) FROM subscriptions s
          JOIN messages m ON m.stream_id = s.stream_id AND m.id > s.read_through AND m.sender_id <> ?
         WHERE s.user_id = ? AND s.active = 1)
     + (SELECT count(*) FROM dm_group_members g
          JOIN messages m ON m.dm_group_id = g.dm_group_id AND m.id > g.read_through AND m.sender_id <> ?
         WHERE g.user_id = ?) AS n`,
  ).get(userId, userId, userId, userId)!.n;

  const lowest = stmt<[number, number], { w: number | null }>(
    db,
    `SELECT min(w) AS w FROM (
       SELECT min(read_through) AS w FROM subscriptions WHERE user_id = ? AND active = 1
       UNION ALL SELECT min(read_through) FROM dm_group_members WHERE user_id = ?)`,
  ).get(userId, userId)!.w;

  const b =
    lowest === null
      ? 0
      : stmt<[number, number, number], { n: number }>(
          db,
          `SELECT count(*) AS n FROM user_message_flags f
             JOIN messages m ON m.id = f.message_id AND m.sender_id <> f.user_id
             LEFT JOIN subscriptions s ON s.stream_id = m.stream_id AND s.user_id = f.user_id AND s.active = 1
             LEFT JOIN dm_group_members g ON g.dm_group_id = m.dm_group_id AND g.user_id = f.user_id
            WHERE f.user_id = ? AND f.message_id > ?
              AND (m.id > s.read_through OR m.id > g.read_through) AND ? IS NOT NULL`,
        ).get(userId, lowest, lowest)!.n;

  const c = stmt<[number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM user_message_flags f INDEXED BY user_message_flags_unread
       JOIN messages m ON m.id = f.message_id
       LEFT JOIN subscriptions s ON s.stream_id = m.stream_id AND s.user_id = f.user_id AND s.active = 1
       LEFT JOIN dm_group_members g ON g.dm_group_id = m.dm_group_id AND g.user_id = f.user_id
      WHERE f.user_id = ? AND (f.flags & 1) = 0 AND (s.user_id IS NOT NULL OR g.user_id IS NOT NULL)`,
  ).get(userId)!.n;

  return a - b + c;
}

export interface UnreadMessageRow {
  id: number;
  stream_id: number | null;
  dm_group_id: number | null;
  topic: string;
  /** The override row's flags, null when the default (unread) applies. */
  flags: number | null;
}

/**
 * The user's newest `limit` unread messages, newest first, from the same
 * three sources as unreadCount: others' messages above each watermark
 * without a row, and rows without `read` in conversations the user is in.
 */
export const unreadMessageRows = (db: Db, userId: number, limit: number) =>
  stmt<[{ user: number; limit: number }], UnreadMessageRow>(
    db,
    `SELECT m.id, m.stream_id, m.dm_group_id, m.topic, NULL AS flags
       FROM subscriptions s
       JOIN messages m ON m.stream_id = s.stream_id AND m.id > s.read_through AND m.sender_id <> s.user_id
      WHERE s.user_id = @user AND s.active = 1
        AND NOT EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @user AND f.message_id = m.id)
     UNION ALL
     SELECT m.id, m.stream_id, m.dm_group_id, m.topic, NULL
       FROM dm_group_members g
       JOIN messages m ON m.dm_group_id = g.dm_group_id AND m.id > g.read_through AND m.sender_id <> g.user_id
      WHERE g.user_id = @user
        AND NOT EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @user AND f.message_id = m.id)
     UNION ALL
     SELECT m.id, m.stream_id, m.dm_group_id, m.topic, f.flags
       FROM user_message_flags f INDEXED BY user_message_flags_unread
       JOIN messages m ON m.id = f.message_id
      WHERE f.user_id = @user AND (f.flags & 1) = 0
        AND (EXISTS (SELECT 1 FROM subscriptions s
                      WHERE s.stream_id = m.stream_id AND s.user_id = @user AND s.active = 1)
          OR EXISTS (SELECT 1 FROM dm_group_members g
                      WHERE g.dm_group_id = m.dm_group_id AND g.user_id = @user))
     ORDER BY 1 DESC LIMIT @limit`,
  ).all({ user: userId, limit });

/**
 * The ids of the user's unread messages sent by `senderId`, ascending: the
 * same three sources as unreadMessageRows, for one sender.
 */
export const unreadMessageIdsFrom = (db: Db, userId: number, senderId: number) =>
  stmt<[{ user: number; sender: number }], { id: number }>(
    db,
    `SELECT m.id
       FROM subscriptions s
       JOIN messages m ON m.stream_id = s.stream_id AND m.id > s.read_through AND m.sender_id <> s.user_id
      WHERE s.user_id = @user AND s.active = 1 AND m.sender_id = @sender
        AND NOT EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @user AND f.message_id = m.id)
     UNION ALL
     SELECT m.id
       FROM dm_group_members g
       JOIN messages m ON m.dm_group_id = g.dm_group_id AND m.id > g.read_through AND m.sender_id <> g.user_id
      WHERE g.user_id = @user AND m.sender_id = @sender
        AND NOT EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @user AND f.message_id = m.id)
     UNION ALL
     SELECT m.id
       FROM user_message_flags f INDEXED BY user_message_flags_unread
       JOIN messages m ON m.id = f.message_id
      WHERE f.user_id = @user AND (f.flags & 1) = 0 AND m.sender_id = @sender
        AND (EXISTS (SELECT 1 FROM subscriptions s
                      WHERE s.stream_id = m.stream_id AND s.user_id = @user AND s.active = 1)
          OR EXISTS (SELECT 1 FROM dm_group_members g
                      WHERE g.dm_group_id = m.dm_group_id AND g.user_id = @user))
     ORDER BY 1`,
  )
    .all({ user: userId, sender: senderId })
    .map((r) => r.id);
