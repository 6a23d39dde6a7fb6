/**
 * Every SQLite connection the server writes through commits with
 * synchronous=FULL (db/DESIGN.md, "Durability"): the main database as
 * created and reopened (a restart), and the files backups and restores
 * write, which open through the same function; nothing in server/ opens a
 * connection any other way. test/robustness/power-cut.test.ts checks what
 * that buys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openSqliteFile } from '../../server/db/open.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FULL = 2;
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const level = (db: { pragma(source: string, options: { simple: true }): unknown }) =>
  db.pragma('synchronous', { simple: true });

describe('synchronous=FULL', () => {
  it('on the running server’s database, and again after a restart', async () => {
    expect(level(t.server.ctx.db)).toBe(FULL);
    expect(t.server.ctx.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await t.server.restart();
    expect(level(t.server.ctx.db)).toBe(FULL);
  });

  it('on every connection openDatabase and openSqliteFile make', () => {
    const file = path.join(t.dataDir, 'other.sqlite');
    const main = openDatabase(file);
    expect(level(main)).toBe(FULL);
    main.close();
    const plain = openSqliteFile(file);
    expect(level(plain)).toBe(FULL);
    plain.close();
  });

  it('after a send, while the batch that carried it is answered', async () => {
    const res = await t.as('member').post('/messages', {
      type: 'direct',
      to: [t.accounts.admin.id],
      content: 'durable',
    });
    expect(res.status).toBe(200);
    expect(level(t.server.ctx.db)).toBe(FULL);
  });

  it('after a search added the backlog to the index (that commit waits for no fsync)', async () => {
    const sent = await t.as('member').post('/messages', {
      type: 'direct',
      to: [t.accounts.admin.id],
      content: 'findable okapi',
    });
    expect(sent.status).toBe(200);
    const found = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [['search', 'okapi']],
    });
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual([sent.body.id]);
    expect(level(t.server.ctx.db)).toBe(FULL);
  });

  it('is the only way server/ opens SQLite', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && full !== path.join(SERVER, 'db', 'open.ts')) {
          const text = readFileSync(full, 'utf8');
          if (/new Database\(|^import Database from 'better-sqlite3'/m.test(text)) {
            offenders.push(path.relative(SERVER, full));
          }
        }
      }
    };
    walk(SERVER);
    expect(offenders, 'open SQLite files with openSqliteFile (db/open.ts)').toEqual([]);
  });
});
