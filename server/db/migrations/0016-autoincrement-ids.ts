import type Database from 'better-sqlite3';
import type { Migration } from './index.js';

/**
 * Ids that clients see are never reused (Zulip's never are): a client that
 * still holds a deleted draft's id, or receives a late `remove` event for
 * it, must not reach a newer draft that took the same id. A plain
 * `INTEGER PRIMARY KEY` hands out max(id) + 1, which reuses the id of the
 * newest row once it is deleted; AUTOINCREMENT keeps the highest id ever
 * used in `sqlite_sequence` instead.
 *
 * SQLite cannot add AUTOINCREMENT to an existing table, so each table is
 * rebuilt (SQLite's "making other kinds of table schema changes" steps): a
 * copy is created from the table's own stored CREATE statement (so columns
 * added by any migration come along) with AUTOINCREMENT added, the rows are
 * copied with their ids, the old table is dropped and the copy renamed, and
 * the table's indexes and triggers are created again from their stored SQL.
 * The runner turns foreign keys off for this (`foreignKeysOff`): dropping a
 * parent table with them on would delete, or cascade into, its children's
 * rows; it checks every foreign key before committing.
 *
 * Copying the rows sets each table's sequence to its highest id. Ids that
 * were used and deleted before this migration left no trace, so the
 * sequence starts above the highest id still present.
 */
const CLIENT_VISIBLE_ID_TABLES = [
  'users',
  'streams',
  'user_groups',
  'attachments',
  'submessages',
  'drafts',
  'scheduled_messages',
  'custom_profile_fields',
  'realm_playgrounds',
  'realm_domains',
  'realm_linkifiers',
  'realm_emoji',
] as const;

const INTEGER_ID_KEY = /\bid\s+INTEGER\s+PRIMARY\s+KEY\b(?!\s+AUTOINCREMENT)/gi;

function storedSql(db: Database.Database, table: string): string | undefined {
  return (
    db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
      | { sql: string }
      | undefined
  )?.sql;
}

/** Rebuilds `table` with AUTOINCREMENT on its `id` key, keeping rows, ids, indexes and triggers. */
export function rebuildWithAutoincrement(db: Database.Database, table: string): void {
  const sql = storedSql(db, table);
  if (sql === undefined || /\bAUTOINCREMENT\b/i.test(sql)) return;
  const keys = sql.match(INTEGER_ID_KEY) ?? [];
  if (keys.length !== 1) throw new Error(`${table}: expected one "id INTEGER PRIMARY KEY" column`);
  const copy = `${table}__autoincrement`;
  const header = new RegExp(`^CREATE TABLE\\s+("?)${table}\\1`, 'i');
  if (!header.test(sql)) throw new Error(`${table}: unexpected CREATE TABLE statement`);
  const createCopy = sql
    .replace(header, `CREATE TABLE "${copy}"`)
    .replace(INTEGER_ID_KEY, (key) => `${key} AUTOINCREMENT`);

  const dependents = db
    .prepare(
      `SELECT sql FROM sqlite_master
        WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL
        ORDER BY type, name`,
    )
    .pluck()
    .all(table) as string[];
  const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[])
    .map((c) => `"${c.name}"`)
    .join(', ');

  db.exec(createCopy);
  db.exec(`INSERT INTO "${copy}" (${columns}) SELECT ${columns} FROM "${table}" ORDER BY id`);
  db.exec(`DROP TABLE "${table}"`);
  db.exec(`ALTER TABLE "${copy}" RENAME TO "${table}"`);
  for (const statement of dependents) db.exec(statement);
}

export const autoincrementIds: Migration = {
  version: 16,
  name: 'ids never reused',
  foreignKeysOff: true,
  up(db) {
    for (const table of CLIENT_VISIBLE_ID_TABLES) rebuildWithAutoincrement(db, table);
  },
};
