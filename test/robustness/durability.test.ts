/**
 * Crash durability: the server process is killed with SIGKILL while clients
 * keep sending. A 200 answer promises the message was committed, so after a
 * restart on the same data directory every acknowledged message is there,
 * exactly as sent, and SQLite finds the file intact.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../server/index.js';
import { cliSession, parseZuliprc } from '../cli/process.js';
import { ApiClient } from '../helpers/server.js';
import { sustainedSends } from './sustained-sends.js';

const cli = cliSession();

/** Concurrent senders, so sends share group commits when the kill lands. */
const SENDERS = 6;
/** Acknowledged sends to wait for before the kill. */
const ACKED_BEFORE_KILL = 100;

describe('kill -9 during sustained sends', () => {
  it('keeps every acknowledged message and an intact database', async () => {
    const dataDir = cli.dataDir();
    const first = cli.start(['--data-dir', dataDir, '--port', '0', '--no-rate-limit']);
    const url = await first.listening();
    const rc = parseZuliprc(readFileSync(path.join(dataDir, 'zuliprc'), 'utf8'));
    const owner = new ApiClient(url, { email: rc.email!, apiKey: rc.key! });
    const me = await owner.get('/users/me');
    expect(me.status).toBe(200);

    const load = sustainedSends(owner, me.body.user_id, SENDERS);
    await load.whenAcked(ACKED_BEFORE_KILL);
    first.signal('SIGKILL');
    const exit = await first.exited;
    await load.stop();
    const { acked } = load;
    expect(exit.signal).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);
    // The kill landed while sends were still in flight.
    expect(load.attempted).toBeGreaterThan(acked.length);

    const second = cli.start(['--data-dir', dataDir, '--port', '0', '--no-rate-limit']);
    const url2 = await second.listening();
    const again = new ApiClient(url2, { email: rc.email!, apiKey: rc.key! });
    const found = new Map<number, string>();
    for (let start = 0; start < acked.length; start += 500) {
      const ids = acked.slice(start, start + 500).map((a) => a.id);
      const res = await again.get('/messages', {
        message_ids: ids,
        apply_markdown: false,
      });
      expect(res.status).toBe(200);
      for (const m of res.body.messages as { id: number; content: string }[]) {
        found.set(m.id, m.content);
      }
    }
    const missing = acked.filter((a) => found.get(a.id) !== a.content);
    expect(missing).toEqual([]);
    await second.stop();

    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);
});
