import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { autoincrementIds } from '../../server/db/migrations/0016-autoincrement-ids.js';
import { migrations } from '../../server/db/migrations/index.js';

/** Tables whose ids no client ever sees (kept as plain INTEGER PRIMARY KEY). */
const INTERNAL_ID_TABLES = new Set([
  'realm', // always 1
  'dm_groups',
  'message_edits',
  'bot_services',
  'push_device_tokens',
  'presence_sequence',
  'browser_sessions', // looked up by token digest; its id never leaves the server
]);

const tableSql = (db: Database.Database) =>
  db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[];

const dependents = (db: Database.Database) =>
  db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE type IN ('index', 'trigger') ORDER BY type, name`,
    )
    .all();

const seq = (db: Database.Database, table: string) =>
  (
    db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as
      | { seq: number }
      | undefined
  )?.seq;

/** A database as Hearth left it at schema version 8, with rows in every rebuilt table. */
function versionEightDatabase() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  for (const migration of migrations.filter((m) => m.version <= 8)) migration.up(db);
  db.pragma('user_version = 8');
  db.exec(`
    INSERT INTO realm (id, name, email_domain, date_created) VALUES (1, 'R', 'r.test', 0);
    INSERT INTO users (id, delivery_email, email_key, full_name, api_key, date_joined_ms)
      VALUES (3, 'a@r.test', 'a@r.test', 'A', 'k1', 0), (7, 'b@r.test', 'b@r.test', 'B', 'k2', 0);
    INSERT INTO streams (id, name, name_key, date_created) VALUES (5, 'S', 's', 0);
    INSERT INTO subscriptions (stream_id, user_id, color, read_through) VALUES (5, 7, '#fff', 0);
    INSERT INTO messages (id, sender_id, stream_id, topic, topic_key, content, rendered_content, date_sent)
      VALUES (1, 3, 5, 't', 't', 'x', '<p>x</p>', 0), (2, 3, 5, 't', 't', 'y', '<p>y</p>', 0);
    INSERT INTO user_message_flags (user_id, message_id, flags) VALUES (7, 2, 8);
    INSERT INTO submessages (id, message_id, sender_id, msg_type, content) VALUES (4, 1, 3, 'widget', '{}');
    INSERT INTO user_groups (id, name) VALUES (1, 'g1'), (9, 'g9');
    INSERT INTO user_group_members (group_id, user_id) VALUES (9, 7);
    INSERT INTO drafts (id, user_id, type, recipients, content, last_edit_time)
      VALUES (1, 3, '', '[]', 'd1', 0), (2, 3, '', '[]', 'd2', 0), (3, 3, '', '[]', 'd3', 0);
    DELETE FROM drafts WHERE id = 3;
    INSERT INTO scheduled_messages (id, sender_id, type, stream_id, topic, content, rendered_content, scheduled_timestamp)
      VALUES (6, 3, 'stream', 5, 't', 'c', '<p>c</p>', 100);
    INSERT INTO custom_profile_fields (id, name, field_type, sort_order) VALUES (2, 'Phone', 1, 0);
    INSERT INTO custom_profile_field_values (user_id, field_id, value) VALUES (7, 2, '123');
    INSERT INTO realm_playgrounds (id, name, pygments_language, url_template)
      VALUES (4, 'P', 'python', 'https://p.test/{code}');
    INSERT INTO realm_domains (id, domain) VALUES (8, 'x.test');
    INSERT INTO realm_linkifiers (id, pattern, url_template, sort_order) VALUES (2, '#(?P<id>\\d+)', 'https://t/{id}', 0);
    INSERT INTO realm_emoji (id, name, file_name) VALUES (11, 'e', 'e.png');
    INSERT INTO attachments (id, owner_id, path_id, file_name, size, create_time_ms) VALUES (12, 3, 'p/1', 'f', 1, 0);
    INSERT INTO attachment_messages (attachment_id, message_id) VALUES (12, 1);
  `);
  return db;
}

describe('the AUTOINCREMENT migration: ids that clients see are never reused', () => {
  it('leaves every client-visible integer id on AUTOINCREMENT in a fresh database', () => {
    const db = new Database(':memory:');
    migrate(db);
    const tables = tableSql(db);
    // FTS5 keeps its own shadow tables (messages_fts_data ...).
    const virtual = tables.filter((t) => /^CREATE VIRTUAL/i.test(t.sql)).map((t) => t.name);
    const plain = tables
      .filter(({ name }) => !virtual.some((v) => name.startsWith(`${v}_`)))
      .filter(({ sql }) => /\bid\s+INTEGER\s+PRIMARY\s+KEY\b/i.test(sql))
      .filter(({ sql }) => !/AUTOINCREMENT/i.test(sql))
      .map(({ name }) => name)
      .filter((name) => !INTERNAL_ID_TABLES.has(name));
    expect(plain).toEqual([]);
    db.close();
  });

  it('keeps rows, ids, children, indexes and triggers of a filled database', () => {
    const db = versionEightDatabase();
    // Up to the migration before this one, so that only this one runs below.
    const { version } = autoincrementIds;
    for (const migration of migrations.filter((m) => m.version > 8 && m.version < version)) {
      migration.up(db);
    }
    db.pragma(`user_version = ${version - 1}`);
    const before = dependents(db);
    const unreadBefore = db.prepare('SELECT * FROM unread_override_counts').all();
    expect(migrate(db)).toEqual({ from: version - 1, to: version });

    expect(db.prepare('SELECT id FROM drafts ORDER BY id').pluck().all()).toEqual([1, 2]);
    expect(db.prepare('SELECT id FROM users ORDER BY id').pluck().all()).toEqual([3, 7]);
    // Children survive (no cascade ran when the parents were dropped and copied).
    expect(db.prepare('SELECT value FROM custom_profile_field_values').pluck().all()).toEqual([
      '123',
    ]);
    expect(db.prepare('SELECT attachment_id FROM attachment_messages').pluck().all()).toEqual([12]);
    expect(db.prepare('SELECT user_id FROM user_group_members').pluck().all()).toEqual([7]);
    expect(db.prepare('SELECT * FROM unread_override_counts').all()).toEqual(unreadBefore);
    // Same indexes and triggers, on the same tables, with the same SQL.
    expect(dependents(db)).toEqual(before);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('continues ids above the highest one present', () => {
    const db = versionEightDatabase();
    migrate(db);
    expect(seq(db, 'drafts')).toBe(2);
    expect(seq(db, 'scheduled_messages')).toBe(6);
    expect(seq(db, 'custom_profile_fields')).toBe(2);
    expect(seq(db, 'realm_playgrounds')).toBe(4);
    expect(seq(db, 'realm_domains')).toBe(8);
    expect(seq(db, 'attachments')).toBe(12);

    const insertDraft = db.prepare(
      "INSERT INTO drafts (user_id, type, recipients, content, last_edit_time) VALUES (3, '', '[]', 'n', 0)",
    );
    const first = Number(insertDraft.run().lastInsertRowid);
    expect(first).toBe(3);
    db.prepare('DELETE FROM drafts WHERE id = ?').run(first);
    expect(Number(insertDraft.run().lastInsertRowid)).toBe(4);

    const domain = db.prepare("INSERT INTO realm_domains (domain) VALUES ('y.test')").run();
    expect(Number(domain.lastInsertRowid)).toBe(9);
    db.close();
  });

  it('still enforces foreign keys and cascades afterwards', () => {
    const db = versionEightDatabase();
    migrate(db);
    expect(() =>
      db
        .prepare(
          "INSERT INTO drafts (user_id, type, recipients, content, last_edit_time) VALUES (999, '', '[]', 'x', 0)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM custom_profile_fields WHERE id = 2').run();
    expect(db.prepare('SELECT count(*) FROM custom_profile_field_values').pluck().get()).toBe(0);
    db.close();
  });

  it('rolls back and keeps foreign keys on when a rebuild fails', () => {
    const db = versionEightDatabase();
    // A leftover of the copy's name makes the rebuild of drafts fail midway.
    db.exec('CREATE TABLE drafts__autoincrement (x)');
    expect(() => migrate(db)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    expect(tableSql(db).find((t) => t.name === 'users')!.sql).not.toMatch(/AUTOINCREMENT/);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });
});
