import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { openDatabase } from '../../server/db/open.js';

const LATEST = migrations[migrations.length - 1]!.version;

/** Every table the schema defines (DESIGN.md); later migrations may add more. */
const TABLES = [
  'realm',
  'users',
  'user_presence',
  'user_status',
  'alert_words',
  'muted_users',
  'bot_storage',
  'bot_config',
  'bot_services',
  'push_device_tokens',
  'streams',
  'default_streams',
  'subscriptions',
  'subscription_periods',
  'dm_groups',
  'dm_group_members',
  'messages',
  'messages_fts',
  'user_message_flags',
  'message_edits',
  'reactions',
  'submessages',
  'user_topics',
  'drafts',
  'scheduled_messages',
  'custom_profile_fields',
  'custom_profile_field_values',
  'realm_playgrounds',
  'realm_domains',
  'realm_linkifiers',
  'realm_emoji',
  'user_groups',
  'user_group_members',
  'user_group_subgroups',
  'attachments',
  'attachment_messages',
];

const userVersion = (db: Database.Database) => db.pragma('user_version', { simple: true });
const schema = (db: Database.Database) =>
  db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all();
const tables = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
  ).map((r) => r.name);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'hearth-db-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('migrations', () => {
  it('are numbered 1, 2, 3 ... with names', () => {
    expect(migrations.length).toBeGreaterThan(0);
    migrations.forEach((m, i) => {
      expect(m.version).toBe(i + 1);
      expect(m.name.length).toBeGreaterThan(0);
    });
  });

  it('bring a fresh database to the latest version in one go', () => {
    const db = new Database(':memory:');
    expect(userVersion(db)).toBe(0);
    expect(migrate(db)).toEqual({ from: 0, to: LATEST });
    expect(userVersion(db)).toBe(LATEST);
    db.close();
  });

  it('create every table of the schema', () => {
    const db = new Database(':memory:');
    migrate(db);
    const present = tables(db);
    for (const name of TABLES) expect(present, name).toContain(name);
    db.close();
  });

  it('leave a database alone when it is already up to date', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.prepare(
      "INSERT INTO realm (id, name, email_domain, date_created) VALUES (1, 'R', 'r.x', 0)",
    ).run();
    const before = schema(db);
    expect(migrate(db)).toEqual({ from: LATEST, to: LATEST });
    expect(migrate(db)).toEqual({ from: LATEST, to: LATEST });
    expect(schema(db)).toEqual(before);
    expect(userVersion(db)).toBe(LATEST);
    expect(db.prepare('SELECT name FROM realm').get()).toEqual({ name: 'R' });
    db.close();
  });

  it('refuse a database written by a newer Hearth, and do not touch it', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${LATEST + 1}`);
    db.exec('CREATE TABLE from_the_future (x)');
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
    expect(() => migrate(db)).toThrow(
      new RegExp(`schema version ${LATEST + 1}.*versions up to ${LATEST}`),
    );
    expect(userVersion(db)).toBe(LATEST + 1);
    expect(tables(db)).toEqual(['from_the_future']);
    db.close();
  });

  it('run in one transaction: a failure leaves the version and schema as they were', () => {
    const db = new Database(':memory:');
    // A table the first migration wants to create already exists.
    db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY)');
    expect(() => migrate(db)).toThrow();
    expect(userVersion(db)).toBe(0);
    expect(tables(db)).toEqual(['users']);
    db.close();
  });
});

describe('openDatabase', () => {
  it('creates a file database with WAL and foreign keys on, fully migrated', () => {
    const file = path.join(tmp, 'fresh.sqlite');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(userVersion(db)).toBe(LATEST);
    // Foreign keys are enforced, not just declared.
    expect(() =>
      db
        .prepare(
          `INSERT INTO users (delivery_email, email_key, full_name, api_key, date_joined_ms, bot_owner_id)
           VALUES ('a@x.y', 'a@x.y', 'A', 'key', 0, 12345)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('reopens an existing file without migrating again and keeps its data', () => {
    const file = path.join(tmp, 'reopen.sqlite');
    const first = openDatabase(file);
    first
      .prepare(
        "INSERT INTO realm (id, name, email_domain, date_created) VALUES (1, 'Kept', 'k.x', 0)",
      )
      .run();
    const before = schema(first);
    first.close();
    const second = openDatabase(file);
    expect(schema(second)).toEqual(before);
    expect(second.prepare('SELECT name FROM realm').get()).toEqual({ name: 'Kept' });
    expect(second.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(second.pragma('foreign_keys', { simple: true })).toBe(1);
    second.close();
  });

  it('refuses a file from a newer Hearth', () => {
    const file = path.join(tmp, 'future.sqlite');
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST + 5}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    const check = new Database(file, { readonly: true });
    expect(userVersion(check)).toBe(LATEST + 5);
    check.close();
  });
});
