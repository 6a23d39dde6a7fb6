import type { Db } from './open.js';

/**
 * A counter per table and database connection, raised by temporary triggers
 * on every row written to the table through this connection (any query
 * module, a migration, raw SQL in a test), so in-memory caches of its rows
 * (authentication's API key -> user) can tell that they may be stale. A
 * write in a transaction that rolls back still raises it: a needless
 * reload, never a stale answer. Triggers live in the connection's temp
 * schema, so the database file is untouched. Inserts of messages stay out:
 * a trigger there would tax the hottest path (their ids only grow, so a
 * cache can tell new ones by the newest id).
 */
const TABLES = [
  'users',
  'realm',
  // POST /register's memoised channel and user lists.
  'streams',
  'subscriptions',
  'custom_profile_fields',
  'custom_profile_field_values',
  'user_groups',
  'user_group_members',
  'user_group_subgroups',
  // Channels' weekly traffic: deleted and moved messages.
  'messages',
  // Linkifiers, which every formatted message's topic_links reads.
  'realm_linkifiers',
] as const;

export type VersionedTable = (typeof TABLES)[number];

/**
 * Columns whose updates alone do not count: a subscription's read watermark
 * moves with every read, and nothing kept in memory shows it.
 */
const UNTRACKED_COLUMNS: Partial<Record<VersionedTable, string[]>> = {
  subscriptions: ['read_through'],
};

/** Tables where only some writes count: for messages, deletions and moves to another channel. */
const ONLY: Partial<Record<VersionedTable, { inserts: boolean; updateOf: string[] }>> = {
  messages: { inserts: false, updateOf: ['stream_id'] },
};

const versions = new WeakMap<Db, Record<VersionedTable, number>>();

/** Installs the triggers; openDatabase calls it once, outside any transaction. */
export function trackTableWrites(db: Db): void {
  const counters = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<VersionedTable, number>;
  versions.set(db, counters);
  db.function('hearth_table_written', { deterministic: false, varargs: false }, (table) => {
    counters[table as VersionedTable]++;
    return null;
  });
  for (const table of TABLES) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      if (event === 'INSERT' && ONLY[table]?.inserts === false) continue;
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS hearth_${table}_${event.toLowerCase()}
        AFTER ${event === 'UPDATE' ? updateOf(db, table) : event} ON main.${table}
        BEGIN SELECT hearth_table_written('${table}'); END`);
    }
  }
}

/** `UPDATE`, or `UPDATE OF` every column but the untracked ones (read when the triggers are made, so new columns count). */
function updateOf(db: Db, table: VersionedTable): string {
  const only = ONLY[table]?.updateOf;
  if (only) return `UPDATE OF ${only.join(', ')}`;
  const untracked = UNTRACKED_COLUMNS[table];
  if (!untracked) return 'UPDATE';
  const columns = db
    .prepare(`SELECT name FROM pragma_table_info('${table}')`)
    .pluck()
    .all() as string[];
  return `UPDATE OF ${columns.filter((c) => !untracked.includes(c)).join(', ')}`;
}

/** NaN (never equal to itself) where writes are not tracked, so nothing is ever cached. */
export const tableVersion = (db: Db, table: VersionedTable) =>
  versions.get(db)?.[table] ?? Number.NaN;

/**
 * A rollback undoes rows without firing triggers, so a cache built from rows
 * the rolled-back transaction wrote would outlive them. Counting every table
 * as written makes such a cache stale, which lets caches keep what they
 * build inside a transaction. The transaction runner calls this.
 */
export function noteRollback(db: Db): void {
  const counters = versions.get(db);
  if (!counters) return;
  for (const table of Object.keys(counters) as VersionedTable[]) counters[table]++;
}
