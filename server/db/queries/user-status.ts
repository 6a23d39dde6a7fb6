import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  /** UNIX seconds of the last change. */
  timestamp: number;
}

export const userStatusOf = (db: Db, userId: number) =>
  stmt<[number], UserStatusRow>(db, 'SELECT * FROM user_status WHERE user_id = ?').get(userId);

/** Every active user's status row, with the user's settings (they say whether the user is "away"). */
export const statusesOfActiveUsers = (db: Db) =>
  stmt<[], UserStatusRow & { settings: string }>(
    db,
    `SELECT s.*, u.settings FROM user_status s JOIN users u ON u.id = s.user_id
      WHERE u.is_active = 1 ORDER BY s.user_id`,
  ).all();

export const writeUserStatus = (db: Db, row: UserStatusRow) =>
  stmt(
    db,
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp)
     VALUES (@user_id, @status_text, @emoji_name, @emoji_code, @reaction_type, @timestamp)
     ON CONFLICT (user_id) DO UPDATE SET
       status_text = excluded.status_text,
       emoji_name = excluded.emoji_name,
       emoji_code = excluded.emoji_code,
       reaction_type = excluded.reaction_type,
       timestamp = excluded.timestamp`,
  ).run(row);
