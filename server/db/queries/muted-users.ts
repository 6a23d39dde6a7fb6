import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** Users who muted `userId`: messages from a muted sender arrive already read. */
export const usersWhoMuted = (db: Db, userId: number) =>
  stmt<[number], { user_id: number }>(db, 'SELECT user_id FROM muted_users WHERE muted_user_id = ?')
    .all(userId)
    .map((r) => r.user_id);

/** The user's mutes as clients see them, by muted user id. */
export const mutesOf = (db: Db, userId: number) =>
  stmt<[number], { id: number; timestamp: number }>(
    db,
    'SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users WHERE user_id = ? ORDER BY muted_user_id',
  ).all(userId);

export const isMuted = (db: Db, userId: number, mutedUserId: number) =>
  stmt<[number, number], { n: number }>(
    db,
    'SELECT 1 AS n FROM muted_users WHERE user_id = ? AND muted_user_id = ?',
  ).get(userId, mutedUserId) !== undefined;

export const insertMute = (db: Db, userId: number, mutedUserId: number, dateMuted: number) =>
  stmt(db, 'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)').run(
    userId,
    mutedUserId,
    dateMuted,
  );

export const deleteMute = (db: Db, userId: number, mutedUserId: number) =>
  stmt(db, 'DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?').run(
    userId,
    mutedUserId,
  );
