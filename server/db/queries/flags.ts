import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** The user's override rows for these messages (see db/DESIGN.md). */
export function flagRows(
  db: Db,
  userId: number,
  messageIds: readonly number[],
): Map<number, number> {
  const rows = stmt<[number, string], { message_id: number; flags: number }>(
    db,
    `SELECT f.message_id, f.flags FROM json_each(?2) j
       JOIN user_message_flags f ON f.user_id = ?1 AND f.message_id = j.value`,
  ).all(userId, JSON.stringify(messageIds));
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

export const setFlagRow = (db: Db, userId: number, messageId: number, flags: number) =>
  stmt(
    db,
    'INSERT INTO user_message_flags (user_id, message_id, flags) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET flags = excluded.flags',
  ).run(userId, messageId, flags);

export const deleteFlagRow = (db: Db, userId: number, messageId: number) =>
  stmt(db, 'DELETE FROM user_message_flags WHERE user_id = ? AND message_id = ?').run(
    userId,
    messageId,
  );

/** Read watermarks of all the user's channel subscriptions (active or not). */
export function channelWatermarks(
  db: Db,
  userId: number,
): Map<number, { readThrough: number; active: boolean }> {
  const rows = stmt<[number], { stream_id: number; read_through: number; active: number }>(
    db,
    'SELECT stream_id, read_through, active FROM subscriptions WHERE user_id = ?',
  ).all(userId);
  return new Map(
    rows.map((r) => [r.stream_id, { readThrough: r.read_through, active: r.active === 1 }]),
  );
}

export function dmWatermarks(db: Db, userId: number): Map<number, number> {
  const rows = stmt<[number], { dm_group_id: number; read_through: number }>(
    db,
    'SELECT dm_group_id, read_through FROM dm_group_members WHERE user_id = ?',
  ).all(userId);
  return new Map(rows.map((r) => [r.dm_group_id, r.read_through]));
}

/** The user's subscription periods per channel: [first, last] message ids (last null = open). */
export function subscriptionPeriods(
  db: Db,
  userId: number,
): Map<number, Array<[number, number | null]>> {
  const rows = stmt<
    [number],
    { stream_id: number; first_message_id: number; last_message_id: number | null }
  >(
    db,
    'SELECT stream_id, first_message_id, last_message_id FROM subscription_periods WHERE user_id = ? ORDER BY first_message_id',
  ).all(userId);
  const map = new Map<number, Array<[number, number | null]>>();
  for (const r of rows) {
    let list = map.get(r.stream_id);
    if (!list) {
      list = [];
      map.set(r.stream_id, list);
    }
    list.push([r.first_message_id, r.last_message_id]);
  }
  return map;
}
