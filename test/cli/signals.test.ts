import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { ApiClient } from '../helpers/server.js';
import { cliSession, parseZuliprc } from './process.js';

const cli = cliSession();
const dataDir = cli.dataDir;

async function start(dir: string) {
  const child = cli.start(['--data-dir', dir, '--port', '0']);
  const url = await child.listening();
  const rc = parseZuliprc(readFileSync(path.join(dir, 'zuliprc'), 'utf8'));
  return { child, url, api: new ApiClient(url, { email: rc.email!, apiKey: rc.key! }) };
}

/** Reopens the database the way a later start would, and checks it is sound. */
function checkDatabase(dir: string) {
  const file = path.join(dir, 'hearth.sqlite');
  // A clean close checkpoints the WAL into the database file.
  const wal = `${file}-wal`;
  expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  const db = new Database(file);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  return db;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.concurrent('stopping', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} answers an in-flight long-poll, exits with 0 and closes the database cleanly`, async () => {
      const dir = dataDir();
      const { child, api } = await start(dir);

      // Data written just before the signal must survive it.
      const me = await api.get('/users/me');
      const renamed = await api.patch(`/users/${me.body.user_id}`, {
        full_name: `Written Before ${signal}`,
      });
      expect(renamed.status).toBe(200);

      const reg = await api.post('/register', { event_types: ['typing'], fetch_event_types: [] });
      expect(reg.status).toBe(200);
      const poll = api.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1 });
      await sleep(300); // the poll is now waiting (the heartbeat is 50 s away)

      const started = Date.now();
      child.signal(signal);
      const res = await poll;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ result: 'success', events: [] });
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(5000);

      const db = checkDatabase(dir);
      expect(db.prepare('SELECT full_name FROM users WHERE id = ?').get(me.body.user_id)).toEqual({
        full_name: `Written Before ${signal}`,
      });
      db.close();
    });
  }
});

describe('a database from a newer Hearth', () => {
  it('is refused with a clear message and a non-zero exit, and left untouched', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const latest = migrations[migrations.length - 1]!.version;
    const file = path.join(dir, 'hearth.sqlite');
    const db = new Database(file);
    db.pragma(`user_version = ${latest + 1}`);
    db.close();

    const child = cli.start(['--data-dir', dir, '--port', '0']);
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(child.stderr).toMatch(new RegExp(`schema version ${latest + 1}`));
    expect(child.stderr).toMatch(/newer Hearth/);
    expect(child.stdout).not.toMatch(/Hearth listening/);
    expect(existsSync(path.join(dir, 'zuliprc'))).toBe(false);

    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(latest + 1);
    expect(
      check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get(),
    ).toEqual({ n: 0 });
    check.close();
  });
});
