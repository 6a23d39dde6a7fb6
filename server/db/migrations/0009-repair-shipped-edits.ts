import type { Migration } from './index.js';

/**
 * Brings databases made before an edit of a shipped migration to the schema
 * a new database gets. Commit 358a4ec changed 0001 after 7897403 had shipped
 * it, so databases made by 7897403 and the commits up to 358a4ec carry
 * user_version 1 and later, but:
 *
 * - lack `user_message_flags_unread`, which the unread queries name with
 *   INDEXED BY: every POST /register failed with "no such index";
 * - have `messages_by_stream` and `messages_by_dm_group` without their
 *   trailing `sender_id`, which makes unread counting index-only.
 *
 * No other shipped migration was edited (scripts/schema-history.ts records
 * what each shipped commit created). Each index is rebuilt only when its
 * definition differs from the one below, so the migration does nothing on
 * a database that is already right. A shipped migration is never edited
 * again: db/DESIGN.md, "Migrations once shipped".
 */
const WANTED: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: 'messages_by_stream',
    sql: 'CREATE INDEX messages_by_stream ON messages(stream_id, id, sender_id) WHERE stream_id IS NOT NULL',
  },
  {
    name: 'messages_by_dm_group',
    sql: 'CREATE INDEX messages_by_dm_group ON messages(dm_group_id, id, sender_id) WHERE dm_group_id IS NOT NULL',
  },
  {
    name: 'user_message_flags_unread',
    sql: 'CREATE INDEX user_message_flags_unread ON user_message_flags(user_id, message_id) WHERE (flags & 1) = 0',
  },
];

/** SQL as SQLite keeps it, without comments and with whitespace folded. */
const folded = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ?([(),]) ?/g, '$1')
    .trim();

export const repairShippedEdits: Migration = {
  version: 9,
  name: 'repair databases made before shipped migrations were edited',
  up(db) {
    const current = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?");
    for (const index of WANTED) {
      const row = current.get(index.name) as { sql: string | null } | undefined;
      if (row?.sql != null && folded(row.sql) === folded(index.sql)) continue;
      db.exec(`DROP INDEX IF EXISTS ${index.name}; ${index.sql};`);
    }
  },
};
