import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import {
  canonicalSql,
  type SchemaObject,
  schemaChangeDigest,
  schemaObjects,
} from '../../server/db/schema-snapshot.js';
import { createServer, DATABASE_FILE } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { FIXTURE_PASSWORD } from '../helpers/server.js';

/*
 * Shipped migrations are history (db/DESIGN.md, "Migrations once shipped"):
 * every database Hearth ever created must reach today's schema through the
 * migrations, and a shipped migration's output never changes.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const HISTORY = path.join(FIXTURES, 'schema-history');
const DIGESTS = path.join(FIXTURES, 'migration-digests.txt');

const pad = (version: number) => String(version).padStart(4, '0');

/** Today's schema, as a new database gets it. */
function todaysSchema(): SchemaObject[] {
  const db = new Database(':memory:');
  migrate(db);
  const objects = schemaObjects(db);
  db.close();
  return objects;
}

/** A database exactly as the Hearth that wrote the fixture left it. */
function pastDatabase(fixture: string, file = ':memory:'): Database.Database {
  const db = new Database(file);
  db.exec(readFileSync(path.join(HISTORY, fixture), 'utf8'));
  return db;
}

const fixtures = readdirSync(HISTORY)
  .filter((name) => name.endsWith('.sql'))
  .sort();

describe('databases made by every shipped version', () => {
  it('are recorded, from the first commit on', () => {
    // scripts/schema-history.ts writes one file per distinct shipped schema.
    expect(fixtures.length).toBeGreaterThanOrEqual(9);
    expect(fixtures[0]).toMatch(/^01-v1-/);
  });

  it.each(fixtures)('%s migrates to exactly today’s schema', (fixture) => {
    const db = pastDatabase(fixture);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    expect(schemaObjects(db)).toEqual(todaysSchema());
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('a database from the first commit serves POST /register after the upgrade', async () => {
    // The field report: user_version 1 without user_message_flags_unread, so
    // every register failed with "no such index" and no client could connect.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-old-db-'));
    pastDatabase(fixtures[0]!, path.join(dataDir, DATABASE_FILE)).close();
    const server = await createServer({ dataDir, port: 0, rateLimit: false });
    try {
      const owner = await createOrganization(server.ctx, {
        name: 'Old Org',
        emailDomain: 'old.hearth',
        ownerEmail: 'owner@example.com',
        ownerName: 'Olivia Owner',
        ownerPassword: FIXTURE_PASSWORD,
      });
      const key = (
        server.ctx.db.prepare('SELECT api_key FROM users WHERE id = ?').get(owner.user_id) as {
          api_key: string;
        }
      ).api_key;
      const response = await fetch(`${server.url}/api/v1/register`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`owner@example.com:${key}`).toString('base64')}`,
        },
      });
      const body = (await response.json()) as { result: string; msg: string };
      expect(body.msg).toBe('');
      expect(response.status).toBe(200);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** `NNNN <sha256> <name>` per migration, in test/fixtures/migration-digests.txt. */
function recordedDigests(): Map<number, { digest: string; name: string }> {
  const recorded = new Map<number, { digest: string; name: string }>();
  for (const line of readFileSync(DIGESTS, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = /^(\d{4}) ([0-9a-f]{64}) (.+)$/.exec(line);
    if (!match) throw new Error(`migration-digests.txt: cannot read the line "${line}"`);
    const version = Number(match[1]);
    if (recorded.has(version)) {
      throw new Error(`migration-digests.txt has two lines for ${match[1]}: renumber one`);
    }
    recorded.set(version, { digest: match[2]!, name: match[3]! });
  }
  return recorded;
}

describe('each migration’s effect on the schema', () => {
  const recorded = recordedDigests();

  it.each(migrations.map((m) => [pad(m.version), m] as const))(
    '%s matches its recorded digest',
    (number, migration) => {
      const db = new Database(':memory:');
      db.pragma('foreign_keys = ON');
      for (const earlier of migrations.filter((m) => m.version < migration.version)) {
        earlier.up(db);
      }
      const before = schemaObjects(db);
      migration.up(db);
      const digest = schemaChangeDigest(before, schemaObjects(db));
      db.close();
      const line = `${number} ${digest} ${migration.name}`;
      const entry = recorded.get(migration.version);
      if (entry === undefined) {
        expect.fail(
          `Migration ${number} has no recorded digest. If it is new, add this line to ` +
            `test/fixtures/migration-digests.txt:\n${line}`,
        );
      }
      expect(
        entry.digest,
        `Migration ${number} (${migration.name}) has shipped, and the schema it makes changed. ` +
          'Never edit a shipped migration: databases made by the old one keep its old output ' +
          'under the same user_version. Restore it and add a new migration that makes the change ' +
          '(db/DESIGN.md, "Migrations once shipped").',
      ).toBe(digest);
      expect(entry.name, `the line for ${number} names another migration: ${line}`).toBe(
        migration.name,
      );
    },
  );

  it('records no migration that does not exist', () => {
    const versions = new Set(migrations.map((m) => m.version));
    expect([...recorded.keys()].filter((v) => !versions.has(v)).map(pad)).toEqual([]);
  });

  it('changes when an index a migration makes changes', () => {
    const before: SchemaObject[] = [];
    const index = (sql: string): SchemaObject[] => [
      { type: 'index', name: 'i', table: 't', sql: canonicalSql(sql) },
    ];
    const a = schemaChangeDigest(before, index('CREATE INDEX i ON t(a, b)'));
    expect(schemaChangeDigest(before, index('CREATE INDEX i ON t (a,  b) -- why'))).toBe(a);
    expect(schemaChangeDigest(before, index('CREATE INDEX i ON t(a)'))).not.toBe(a);
  });
});
