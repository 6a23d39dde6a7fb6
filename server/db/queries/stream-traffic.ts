import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/**
 * The first message sent at or after `since` (unix seconds), or null. Ids
 * grow with time, so a binary search over ids needs no index on date_sent.
 */
export function firstMessageIdSince(db: Db, since: number): number | null {
  const at = stmt<[number], { id: number; date_sent: number }>(
    db,
    'SELECT id, date_sent FROM messages WHERE id >= ? ORDER BY id LIMIT 1',
  );
  const newest = newestMessageId(db);
  if (newest === null) return null;
  let lo = 1;
  let hi = newest;
  let found: number | null = null;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = at.get(mid);
    if (!row) break;
    if (row.date_sent >= since) {
      found = row.id;
      hi = mid - 1;
    } else {
      lo = row.id + 1;
    }
  }
  return found;
}

export const newestMessageId = (db: Db) =>
  stmt<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM messages').get()!.id;

/** Channel messages with ids from `fromId` to `toId`, counted by channel. */
export const channelMessageCountsBetween = (db: Db, fromId: number, toId: number) =>
  stmt<[number, number], { stream_id: number; n: number }>(
    db,
    `SELECT stream_id, count(*) AS n FROM messages
      WHERE id BETWEEN ? AND ? AND stream_id IS NOT NULL GROUP BY stream_id`,
  ).all(fromId, toId);
