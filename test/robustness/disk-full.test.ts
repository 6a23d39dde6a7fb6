/**
 * A full disk, without filling one. Writes that fail with ENOSPC come from
 * /dev/full (Linux); files that stop growing mid-write from a child process
 * with a file-size limit (`ulimit -f`, EFBIG: the same failure mid-write);
 * the database's own "database or disk is full" from PRAGMA max_page_count.
 * All unprivileged.
 *
 * - Logging never throws into a request: errors stay Zulip JSON.
 * - A failed write leaves no half file (`.partial`) behind.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/core/context.js';
import { writeStoredFiles } from '../../server/core/file-store.js';
import { LOG_FILE, LOGS_DIR, openFileLog } from '../../server/core/log.js';
import { createServer, FILES_DIR } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { parseZuliprc, REPO } from '../cli/process.js';
import { ApiClient, FIXTURE_PASSWORD } from '../helpers/server.js';
import { upload } from '../uploads/support.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const linux = process.platform === 'linux' && existsSync('/dev/full');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory whose log file is /dev/full: every write to it fails with ENOSPC. */
function dataDirWithFullLog(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-disk-full-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, LOGS_DIR));
  symlinkSync('/dev/full', path.join(dir, LOGS_DIR, LOG_FILE));
  return dir;
}

describe.skipIf(!linux)('the log on a full disk', () => {
  it('takes lines without throwing, and flushes and closes', async () => {
    const log = openFileLog(dataDirWithFullLog());
    expect(() => log.logger.error('a send failed', new Error('SQLITE_FULL'))).not.toThrow();
    expect(() => log.logger.info('still here')).not.toThrow();
    expect(() =>
      log.request({ method: 'POST', path: '/api/v1/messages', status: 500, durationMs: 2 }),
    ).not.toThrow();
    await log.flush();
    await log.close();
  });

  it('writes what waited, and says so, once it can write again', async () => {
    const dir = dataDirWithFullLog();
    let now = Date.parse('2026-11-20T12:00:00');
    const log = openFileLog(dir, { now: () => now });
    log.logger.warn('written while the disk was full');
    log.logger.warn('this one too');
    // The next day's first line rotates: the file is reopened, now on a disk with room.
    now += 24 * 60 * 60 * 1000;
    rmSync(path.join(dir, LOGS_DIR, LOG_FILE));
    log.logger.info('the disk has room again');
    await log.close();
    const lines = readFileSync(path.join(dir, LOGS_DIR, LOG_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).msg as string);
    expect(lines).toEqual([
      'written while the disk was full',
      'this one too',
      'the disk has room again',
      'The log file could not be written (ENOSPC); log lines were delayed',
    ]);
  });

  it('leaves the server answering errors in Zulip JSON', async () => {
    const dataDir = dataDirWithFullLog();
    const server = await createServer({ dataDir, port: 0, rateLimit: false });
    try {
      const owner = await createOrganization(server.ctx, {
        name: 'Full Org',
        emailDomain: 'full.hearth',
        ownerEmail: 'owner@example.com',
        ownerName: 'Olivia Owner',
        ownerPassword: FIXTURE_PASSWORD,
      });
      const apiKey = server.ctx.db
        .prepare('SELECT api_key FROM users WHERE id = ?')
        .pluck()
        .get(owner.user_id) as string;
      const client = new ApiClient(server.url, { email: 'owner@example.com', apiKey });
      expect((await client.get('/users/me')).status).toBe(200);
      const refused = await client.post('/messages', {
        type: 'stream',
        to: 'no such channel',
        topic: 't',
        content: 'x',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.result).toBe('error');

      // The database is full too: the send fails inside, and its error is logged.
      const pages = server.ctx.db.pragma('page_count', { simple: true }) as number;
      server.ctx.db.pragma(`max_page_count = ${pages}`);
      const sends = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.post(
            '/messages',
            { type: 'direct', to: [owner.user_id], content: `${'long '.repeat(2000)}${i}` },
            { skipSchema: true },
          ),
        ),
      );
      for (const send of sends) {
        expect(send.status).toBe(500);
        expect(send.body).toMatchObject({
          result: 'error',
          msg: 'Internal server error',
          code: 'INTERNAL_SERVER_ERROR',
        });
      }
    } finally {
      await server.close();
    }
  });
});

/** Every file under `dir` whose name ends in .partial. */
function partialFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.partial'));
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** `node --import tsx <args>` in a shell whose files may not grow past `kib` KiB. */
function limitedNode(kib: number, args: string[]) {
  return spawn(
    'sh',
    ['-c', `ulimit -f ${kib} && exec "$@"`, 'sh', process.execPath, '--import', 'tsx', ...args],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

describe('a write that stops part-way leaves no half file', () => {
  it('writeStoredFiles writes all the files or none', () => {
    const filesDir = tempDir('hearth-file-store-');
    const ctx = { config: { filesDir } } as AppContext;
    // The second file's place is taken by a folder: its rename fails.
    mkdirSync(path.join(filesDir, 'avatars', 'taken.png', 'inside'), { recursive: true });
    expect(() =>
      writeStoredFiles(ctx, [
        { key: 'avatars/first.png', data: Buffer.from('first') },
        { key: 'avatars/taken.png', data: Buffer.from('second') },
      ]),
    ).toThrow();
    expect(existsSync(path.join(filesDir, 'avatars', 'first.png'))).toBe(false);
    expect(partialFiles(filesDir)).toEqual([]);
  });

  it.skipIf(!linux)(
    'an upload that fills the disk answers a JSON error and keeps no part of it',
    async () => {
      const dataDir = tempDir('hearth-limited-');
      // 4 MiB: room for the database and the log, not for a 6 MiB upload.
      const child = limitedNode(4096, [
        path.join(REPO, 'server', 'cli.ts'),
        '--data-dir',
        dataDir,
        '--port',
        '0',
        '--no-rate-limit',
      ]);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            const match = /Hearth listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (match) resolve(match[1]!);
          });
          child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
        });
        const rc = parseZuliprc(readFileSync(path.join(dataDir, 'zuliprc'), 'utf8'));
        const owner = new ApiClient(url, { email: rc.email!, apiKey: rc.key! });
        const res = await upload(owner, Buffer.alloc(6 * 1024 * 1024, 1), 'big.bin');
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({ result: 'error', msg: 'Internal server error' });
        expect(partialFiles(path.join(dataDir, FILES_DIR))).toEqual([]);
        // The server goes on: a small upload still fits.
        const small = await upload(owner, 'small', 'small.txt', 'text/plain');
        expect(small.status).toBe(200);
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it.skipIf(!linux)(
    'a backup that fills the disk removes its partial file',
    async () => {
      const dataDir = tempDir('hearth-backup-source-');
      const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
      writeStoredFiles(server.ctx, [
        { key: 'uploads/ab/big.bin', data: Buffer.alloc(6 * 1024 * 1024, 1) },
      ]);
      await server.close();
      const folder = tempDir('hearth-backup-dest-');
      const destination = path.join(folder, 'hearth-backup-20261120-120000-000.sqlite');
      const child = limitedNode(4096, [
        path.join(HERE, 'disk-full', 'offline-backup.ts'),
        dataDir,
        destination,
      ]);
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
      });
      await new Promise((resolve) => child.once('exit', resolve));
      expect(out.trim()).toMatch(/^failed: /);
      expect(readdirSync(folder)).toEqual([]);
    },
    60_000,
  );
});
