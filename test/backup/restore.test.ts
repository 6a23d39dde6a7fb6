import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStagedRestore, stageRestore } from '../../server/backup/restore.js';
import type { AppContext } from '../../server/core/context.js';
import { newFileKey, storedFilePath, writeStoredFile } from '../../server/core/file-store.js';
import { latestSchemaVersion } from '../../server/db/migrate.js';
import { silentLogger } from '../../server/index.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from '../trpc/client.js';
import { ADMIN_TOKEN, waitForBackup } from './helpers.js';

let t: TestServer;
let admin: AdminClient;
let general: number;
let folder: string;

beforeAll(async () => {
  t = await startTestServer({ adminToken: ADMIN_TOKEN });
  admin = trpcClient(t.url, bearer(ADMIN_TOKEN));
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
  folder = path.join(t.dataDir, 'backups');
});
afterAll(() => t.close());

async function channelContents(): Promise<string[]> {
  const res = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: general }],
    apply_markdown: false,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.map((m: { content: string }) => m.content);
}

async function backUp(): Promise<string> {
  return (await waitForBackup(admin, (await admin.backup.create.mutate()).id)).file;
}

/** Waits until the server runs on a new context and answers the API again. */
async function restarted(previous: AppContext): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (t.server.ctx !== previous) {
      const ok = await t
        .as('member')
        .get('/users/me')
        .then(
          (res) => res.status === 200,
          () => false,
        );
      if (ok) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the server did not restart');
}

describe('backup.restore', () => {
  it('brings back the data as it was at the backup, keeps the replaced data, and serves again', async () => {
    await sendToChannel(t, 'member', general, 'restore', 'kept one');
    await sendToChannel(t, 'member', general, 'restore', 'kept two');
    const keptKey = newFileKey('uploads', '.txt');
    writeStoredFile(t.server.ctx, keptKey, Buffer.from('kept file'));
    const file = await backUp();

    await sendToChannel(t, 'member', general, 'restore', 'lost after the backup');
    const lostKey = newFileKey('uploads', '.txt');
    writeStoredFile(t.server.ctx, lostKey, Buffer.from('lost file'));
    expect(await channelContents()).toEqual(['kept one', 'kept two', 'lost after the backup']);

    const previous = t.server.ctx;
    const port = t.server.port;
    expect(await admin.backup.restore.mutate({ file })).toEqual({ restartRequired: true });
    await restarted(previous);

    expect(t.server.port).toBe(port);
    expect(await channelContents()).toEqual(['kept one', 'kept two']);
    expect(readFileSync(storedFilePath(t.server.ctx, keptKey)!, 'utf8')).toBe('kept file');
    expect(existsSync(storedFilePath(t.server.ctx, lostKey)!)).toBe(false);
    // The live database is Hearth's own again, in WAL mode, without the backup's tables.
    const tables = t.server.ctx.db
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'hearth_backup%'")
      .all();
    expect(tables).toEqual([]);
    expect(t.server.ctx.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(existsSync(path.join(t.dataDir, 'restore-staging'))).toBe(false);

    // The replaced data is kept aside, whole: its database still has the later message.
    const kept = readdirSync(t.dataDir).filter((name) => name.startsWith('before-restore-'));
    expect(kept).toHaveLength(1);
    const keptDir = path.join(t.dataDir, kept[0]!);
    expect(existsSync(path.join(keptDir, 'hearth.sqlite-wal'))).toBe(false);
    const old = new Database(path.join(keptDir, 'hearth.sqlite'), { readonly: true });
    try {
      const row = old
        .prepare('SELECT COUNT(*) AS n FROM messages WHERE content = ?')
        .get('lost after the backup') as { n: number };
      expect(row.n).toBe(1);
    } finally {
      old.close();
    }
    expect(readFileSync(path.join(keptDir, 'files', ...lostKey.split('/')), 'utf8')).toBe(
      'lost file',
    );

    // Everything works on the restored data: sends, the admin door, more backups.
    await sendToChannel(t, 'member', general, 'restore', 'after the restore');
    expect(await channelContents()).toEqual(['kept one', 'kept two', 'after the restore']);
    expect((await admin.backup.list.query()).backups.map((b) => b.file)).toContain(file);
    expect(await backUp()).toMatch(/^hearth-backup-/);
  });

  it('refuses what is not an intact Hearth backup of this version, leaving the data as it was', async () => {
    const good = path.join(folder, await backUp());
    const name = (n: number) => `hearth-backup-20200101-000000-00${n}.sqlite`;

    writeFileSync(path.join(folder, name(1)), 'just some text, not a database at all');

    // A backup with a page in the middle overwritten.
    const damaged = path.join(folder, name(2));
    copyFileSync(good, damaged);
    const bytes = readFileSync(damaged);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize * 3, pageSize * 6);
    writeFileSync(damaged, bytes);

    const foreign = new Database(path.join(folder, name(3)));
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    foreign.pragma('user_version = 3');
    foreign.close();

    const newer = path.join(folder, name(4));
    copyFileSync(good, newer);
    const newerDb = new Database(newer);
    newerDb.pragma(`user_version = ${latestSchemaVersion() + 1}`);
    newerDb.close();

    writeFileSync(path.join(folder, name(5)), '');

    const cases: [string, string, RegExp][] = [
      [name(1), 'not_sqlite', /^This file is not a SQLite database$/],
      [name(2), 'integrity', /^This backup (is damaged|failed its integrity check): /],
      [name(3), 'not_hearth', /^This file is not a Hearth backup$/],
      [
        name(4),
        'too_new',
        new RegExp(
          `^This backup was made by a newer Hearth \\(schema version ${latestSchemaVersion() + 1}; this Hearth knows up to ${latestSchemaVersion()}\\)`,
        ),
      ],
      [name(5), 'not_hearth', /^This file is not a Hearth backup$/],
    ];
    await sendToChannel(t, 'member', general, 'refused', 'still here');
    const before = await channelContents();
    const ctx = t.server.ctx;
    const databaseMtime = statSync(path.join(t.dataDir, 'hearth.sqlite')).mtimeMs;
    for (const [file, reason, message] of cases) {
      const error = await failure(admin.backup.restore.mutate({ file }));
      expect(error, file).toMatchObject({
        code: 'BAD_REQUEST',
        httpStatus: 400,
        zulip: { code: 'BAD_REQUEST', reason },
      });
      expect(error.message).toMatch(message);
      expect(existsSync(path.join(t.dataDir, 'restore-staging'))).toBe(false);
    }
    // No restart, the same data, the same database file.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.server.ctx).toBe(ctx);
    expect(await channelContents()).toEqual(before);
    expect(statSync(path.join(t.dataDir, 'hearth.sqlite')).mtimeMs).toBe(databaseMtime);
    // Listing reads what each file says of itself, without judging it.
    const listed = new Map(
      (await admin.backup.list.query()).backups.map((b) => [b.file, b.includesFiles]),
    );
    expect([1, 3, 4, 5].map((n) => listed.get(name(n)))).toEqual([false, false, true, false]);
  });
});

describe('the swap at start', () => {
  it('finishes a swap a crash interrupted, and drops a restore that never got checked', async () => {
    const file = path.join(folder, await backUp());
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-swap-'));
    try {
      writeFileSync(path.join(dataDir, 'hearth.sqlite'), 'the old database');
      writeFileSync(path.join(dataDir, 'hearth.sqlite-wal'), 'its committed tail');
      await stageRestore({ dataDir, now: Date.UTC(2025, 0, 2) }, file);
      const staging = path.join(dataDir, 'restore-staging');
      const marker = JSON.parse(readFileSync(path.join(staging, 'READY'), 'utf8'));
      // The crash: the old database was moved aside, its -wal and the new one not yet.
      const keptDir = path.join(dataDir, marker.keptAs);
      rmSync(keptDir, { recursive: true, force: true });
      mkdirSync(keptDir);
      renameSync(path.join(dataDir, 'hearth.sqlite'), path.join(keptDir, 'hearth.sqlite'));

      expect(applyStagedRestore(dataDir, 'hearth.sqlite', 'files', silentLogger)).toBe(keptDir);
      expect(readFileSync(path.join(keptDir, 'hearth.sqlite'), 'utf8')).toBe('the old database');
      expect(readFileSync(path.join(keptDir, 'hearth.sqlite-wal'), 'utf8')).toBe(
        'its committed tail',
      );
      expect(existsSync(path.join(dataDir, 'hearth.sqlite-wal'))).toBe(false);
      const restored = new Database(path.join(dataDir, 'hearth.sqlite'), { readonly: true });
      expect(restored.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
      restored.close();
      expect(existsSync(staging)).toBe(false);
      // Nothing staged: nothing happens.
      expect(applyStagedRestore(dataDir, 'hearth.sqlite', 'files', silentLogger)).toBeNull();

      // Staging that never reached READY does not count.
      mkdirSync(staging);
      writeFileSync(path.join(staging, 'incoming.sqlite'), 'half checked');
      expect(applyStagedRestore(dataDir, 'hearth.sqlite', 'files', silentLogger)).toBeNull();
      expect(existsSync(staging)).toBe(false);
      expect(readdirSync(dataDir).sort()).toEqual(['files', 'hearth.sqlite', marker.keptAs].sort());
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
