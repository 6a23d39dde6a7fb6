import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** A conversation's identity: its participants' ids, sorted and comma-joined. */
export const memberKey = (userIds: readonly number[]) =>
  [...new Set(userIds)].sort((a, b) => a - b).join(',');

/** The conversation of exactly these participants, created on first use. */
export function dmGroupFor(db: Db, userIds: number[]): number {
  const members = [...new Set(userIds)].sort((a, b) => a - b);
  const key = memberKey(members);
  const existing = stmt<[string], { id: number }>(
    db,
    'SELECT id FROM dm_groups WHERE member_key = ?',
  ).get(key);
  if (existing) return existing.id;
  const id = Number(
    stmt(db, 'INSERT INTO dm_groups (member_key) VALUES (?)').run(key).lastInsertRowid,
  );
  for (const userId of members) {
    stmt(db, 'INSERT INTO dm_group_members (dm_group_id, user_id) VALUES (?, ?)').run(id, userId);
  }
  return id;
}
