import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import type { UserRow } from './users.js';

/** Times are UNIX seconds; null = never reported (the row is created by the first report). */
export interface PresenceTimes {
  last_active_time: number | null;
  last_connected_time: number | null;
}

export interface PresenceRow extends PresenceTimes {
  user_id: number;
  last_update_id: number;
}

export type UserPresenceRow = UserRow & PresenceTimes & { last_update_id: number };

export const presenceOf = (db: Db, userId: number) =>
  stmt<[number], PresenceRow>(
    db,
    `SELECT user_id, last_active_time, last_connected_time, last_update_id
       FROM user_presence WHERE user_id = ?`,
  ).get(userId);

/** Takes the next organization-wide presence update id (call inside the write's transaction). */
export const nextPresenceUpdateId = (db: Db): number =>
  stmt<[], { last_update_id: number }>(
    db,
    `UPDATE presence_sequence SET last_update_id = last_update_id + 1 WHERE id = 1
     RETURNING last_update_id`,
  ).get()!.last_update_id;

export const writePresence = (db: Db, row: PresenceRow) =>
  stmt(
    db,
    `INSERT INTO user_presence (user_id, last_active_time, last_connected_time, last_update_id)
     VALUES (@user_id, @last_active_time, @last_connected_time, @last_update_id)
     ON CONFLICT (user_id) DO UPDATE SET
       last_active_time = excluded.last_active_time,
       last_connected_time = excluded.last_connected_time,
       last_update_id = excluded.last_update_id`,
  ).run(row);

/**
 * Presence of active humans changed after update id `afterUpdateId` and
 * connected at or after `connectedSince` (pass -1 and null to drop either
 * condition). Rows without a connection time fail a time condition, as in Zulip.
 */
export const presenceOfActiveHumans = (
  db: Db,
  afterUpdateId: number,
  connectedSince: number | null,
): UserPresenceRow[] =>
  connectedSince === null
    ? stmt<[number], UserPresenceRow>(
        db,
        `SELECT u.*, p.last_active_time, p.last_connected_time, p.last_update_id
           FROM user_presence p JOIN users u ON u.id = p.user_id
          WHERE u.is_active = 1 AND u.is_bot = 0 AND p.last_update_id > ?`,
      ).all(afterUpdateId)
    : stmt<[number, number], UserPresenceRow>(
        db,
        `SELECT u.*, p.last_active_time, p.last_connected_time, p.last_update_id
           FROM user_presence p JOIN users u ON u.id = p.user_id
          WHERE u.is_active = 1 AND u.is_bot = 0 AND p.last_update_id > ?
            AND p.last_connected_time >= ?`,
      ).all(afterUpdateId, connectedSince);
