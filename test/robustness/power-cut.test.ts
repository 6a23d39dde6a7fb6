/**
 * Power-cut durability: a 200 answer to a send promises the message is on
 * disk, not only committed. The server runs with a SQLite VFS
 * (power-cut/power-cut-vfs.c) that keeps a copy of the database and its WAL
 * holding only what an fsync covered, the fsyncs SQLite makes and the
 * server's own (power-cut/preload.mjs); the process is then killed, and the
 * copy, which is what a power cut would have left, must hold every
 * acknowledged message and pass SQLite's integrity check.
 *
 * The VFS is compiled here with the machine's C compiler against
 * better-sqlite3's own sqlite3ext.h; without a compiler the test is skipped
 * and says so.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../server/index.js';
import { cliSession, parseZuliprc, REPO } from '../cli/process.js';
import { ApiClient } from '../helpers/server.js';
import { sustainedSends } from './sustained-sends.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(HERE, 'power-cut', 'power-cut-vfs.c');
const PRELOAD = pathToFileURL(path.join(HERE, 'power-cut', 'preload.mjs')).href;
const SQLITE_HEADERS = path.join(REPO, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3');

const compiler = ['cc', 'gcc', 'clang'].find(
  (cc) => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0,
);
const linux = process.platform === 'linux';
if (!compiler || !linux) {
  console.warn('power-cut.test.ts skipped: it needs Linux and a C compiler (cc) to build its VFS');
}

const cli = cliSession();
const SENDERS = 6;
const ACKED_BEFORE_CUT = 150;

describe.skipIf(!compiler || !linux)('power cut during sustained sends', () => {
  let work: string;
  let vfs: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'hearth-power-cut-'));
    vfs = path.join(work, 'power-cut-vfs.so');
    const built = spawnSync(
      compiler!,
      ['-shared', '-fPIC', '-O1', '-I', SQLITE_HEADERS, '-o', vfs, SOURCE],
      { encoding: 'utf8' },
    );
    if (built.status !== 0) throw new Error(`building the VFS failed:\n${built.stderr}`);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Sends until enough are acknowledged, cuts the power, and answers what the disk kept. */
  async function sendThenCut(asBefore: boolean) {
    const dataDir = cli.dataDir();
    const durableDir = mkdtempSync(path.join(work, 'durable-'));
    const server = cli.start(['--data-dir', dataDir, '--port', '0', '--no-rate-limit'], {
      POWER_CUT_VFS: vfs,
      POWER_CUT_DIR: durableDir,
      POWER_CUT_AS_BEFORE: asBefore ? '1' : '0',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(),
    });
    const url = await server.listening();
    const rc = parseZuliprc(readFileSync(path.join(dataDir, 'zuliprc'), 'utf8'));
    const owner = new ApiClient(url, { email: rc.email!, apiKey: rc.key! });
    const me = await owner.get('/users/me');
    expect(me.status).toBe(200);

    const load = sustainedSends(owner, me.body.user_id, SENDERS);
    await load.whenAcked(ACKED_BEFORE_CUT);
    server.signal('SIGKILL');
    await server.exited;
    await load.stop();
    const { acked } = load;
    expect(acked.length).toBeGreaterThanOrEqual(ACKED_BEFORE_CUT);

    // What the disk holds after the cut: the synced copies, no -shm.
    const afterCut = mkdtempSync(path.join(work, 'after-'));
    for (const suffix of ['', '-wal']) {
      const copy = path.join(durableDir, DATABASE_FILE + suffix);
      if (existsSync(copy)) copyFileSync(copy, path.join(afterCut, DATABASE_FILE + suffix));
    }
    expect(existsSync(path.join(afterCut, DATABASE_FILE))).toBe(true);
    const db = new Database(path.join(afterCut, DATABASE_FILE));
    try {
      const integrity = db.pragma('integrity_check', { simple: true });
      const hasMessages = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'")
        .get();
      const kept = new Map<number, string>();
      if (hasMessages) {
        const read = db.prepare('SELECT content FROM messages WHERE id = ?').pluck();
        for (const { id } of acked) {
          const content = read.get(id) as string | undefined;
          if (content !== undefined) kept.set(id, content);
        }
      }
      const lost = acked.filter((a) => kept.get(a.id) !== a.content);
      return { acked, lost, integrity };
    } finally {
      db.close();
    }
  }

  it('keeps every acknowledged message, in an intact database', async () => {
    const { acked, lost, integrity } = await sendThenCut(false);
    expect(acked.length).toBeGreaterThanOrEqual(ACKED_BEFORE_CUT);
    expect(lost).toEqual([]);
    expect(integrity).toBe('ok');
  }, 120_000);

  it('loses acknowledged messages when commits are not synced (as before), so it can tell', async () => {
    const { acked, lost, integrity } = await sendThenCut(true);
    expect(lost.length).toBeGreaterThan(acked.length / 2);
    expect(integrity).toBe('ok');
  }, 120_000);
});
