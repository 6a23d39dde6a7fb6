import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface ServerCounts {
  active_humans: number;
  active_bots: number;
  deactivated_users: number;
  messages: number;
  channels: number;
  archived_channels: number;
}

/** The admin UI's status figures, in one read. */
export const serverCounts = (db: Db) =>
  stmt<[], ServerCounts>(
    db,
    `SELECT
       (SELECT count(*) FROM users WHERE is_active = 1 AND is_bot = 0) AS active_humans,
       (SELECT count(*) FROM users WHERE is_active = 1 AND is_bot = 1) AS active_bots,
       (SELECT count(*) FROM users WHERE is_active = 0) AS deactivated_users,
       (SELECT count(*) FROM messages) AS messages,
       (SELECT count(*) FROM streams WHERE is_archived = 0) AS channels,
       (SELECT count(*) FROM streams WHERE is_archived = 1) AS archived_channels`,
  ).get()!;

/** Bytes the database file holds (its pages; the WAL file comes on top). */
export const databaseBytes = (db: Db) =>
  (db.pragma('page_count', { simple: true }) as number) *
  (db.pragma('page_size', { simple: true }) as number);
