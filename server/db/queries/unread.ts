import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/**
 * Unread messages per user without per-recipient rows (db/DESIGN.md).
 * Above a conversation's watermark, messages from others are unread unless a
 * flag row says otherwise; at or below it, only rows can make them unread:
 *
 *   unread = A (others' messages above the watermark, index-only range counts)
 *          − B (rows overriding such messages)
 *          + C (rows without `read`)
 *
 * over the conversations the user is in. B and C come per conversation from
 * unread_override_counts (kept by triggers, migration 0007), so the cost
 * grows with the user's conversations and unread messages, never with their
 * flag rows (a backlog of unread mentions, a long starred history).
 */
export function unreadCount(db: Db, userId: number): number {
  return stmt<[number, number, number, number, number], { n: number }>(
    db,
    `SELECT
       (SELECT count(*) FROM subscriptions s
          JOIN messages m ON m.stream_id = s.stream_id AND m.id > s.read_through AND m.sender_id <> ?
         WHERE s.user_id = ? AND s.active = 1)
     + (SELECT count(*) FROM dm_group_members g
          JOIN messages m ON m.dm_group_id = g.dm_group_id AND m.id > g.read_through AND m.sender_id <> ?
         WHERE g.user_id = ?)
     + (SELECT coalesce(sum(c.unread_rows - c.rows_above_watermark), 0)
          FROM unread_override_counts c
         WHERE c.user_id = ?
           AND CASE WHEN c.dm_group_id = 0
                 THEN EXISTS (SELECT 1 FROM subscriptions s
                               WHERE s.stream_id = c.stream_id AND s.user_id = c.user_id AND s.active = 1)
                 ELSE EXISTS (SELECT 1 FROM dm_group_members g
                               WHERE g.dm_group_id = c.dm_group_id AND g.user_id = c.user_id) END) AS n`,
  ).get(userId, userId, userId, userId, userId)!.n;
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
