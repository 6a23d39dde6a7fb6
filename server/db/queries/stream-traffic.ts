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
  const newest = stmt<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM messages').get()!
    .id;
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

/** Messages in the channel from `firstId` on (an index-only range count). */
export const channelMessageCountFrom = (db: Db, streamId: number, firstId: number) =>
  stmt<[number, number], { n: number }>(
    db,
    'SELECT count(*) AS n FROM messages WHERE stream_id = ? AND id >= ?',
  ).get(streamId, firstId)!.n;
