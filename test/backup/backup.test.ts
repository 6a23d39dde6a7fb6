import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newFileKey, storedFilePath, writeStoredFile } from '../../server/core/file-store.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from '../trpc/client.js';
import { ADMIN_TOKEN, integrityOf, openCopy, waitForBackup } from './helpers.js';

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

describe('backup.list and settings', () => {
  it('starts with no backups and the default settings', async () => {
    expect(await admin.backup.list.query()).toEqual({
      backups: [],
      settings: { enabled: false, hour: 3, keep: 7, folder },
      space: {
        data: expect.objectContaining({ path: t.dataDir, level: 'ok' }),
        backups: expect.objectContaining({ path: folder, level: 'ok' }),
        estimatedBackupBytes: expect.any(Number),
        automaticPaused: null,
      },
    });
  });

  it('updateSettings changes only what it is given and keeps it in the data directory', async () => {
    const other = path.join(t.dataDir, 'elsewhere');
    expect(await admin.backup.updateSettings.mutate({ hour: 5, folder: other })).toEqual({
      enabled: false,
      hour: 5,
      keep: 7,
      folder: other,
    });
    expect(existsSync(other)).toBe(true);
    const stored = JSON.parse(readFileSync(path.join(t.dataDir, 'backup-settings.json'), 'utf8'));
    expect(stored).toEqual({ enabled: false, hour: 5, keep: 7, folder: other });
    expect((await admin.backup.list.query()).settings.hour).toBe(5);
    await admin.backup.updateSettings.mutate({ hour: 3, folder });
  });

  it('refuses bad settings with a clear message and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ hour: 24 }, 'Invalid hour: must be an integer from 0 to 23'],
      [{ hour: -1 }, 'Invalid hour: must be an integer from 0 to 23'],
      [{ keep: 0 }, 'Invalid keep: must be an integer from 1 to 365'],
      [{ keep: 366 }, 'Invalid keep: must be an integer from 1 to 365'],
      [{ folder: 'relative/dir' }, 'Invalid folder: must be an absolute path'],
      [{ folder: '' }, 'Invalid folder: must be an absolute path'],
      [
        { folder: path.join(t.dataDir, 'files', 'b') },
        'Invalid folder: backups cannot be kept among the uploaded files',
      ],
      [
        { folder: path.join(t.dataDir, 'files') },
        'Invalid folder: backups cannot be kept among the uploaded files',
      ],
    ];
    for (const [change, message] of cases) {
      const error = await failure(admin.backup.updateSettings.mutate(change));
      expect(error, JSON.stringify(change)).toMatchObject({
        code: 'BAD_REQUEST',
        httpStatus: 400,
        message,
        zulip: { code: 'BAD_REQUEST', msg: message },
      });
    }
    // Shapes zod refuses before the area sees them.
    for (const change of [{ hour: 1.5 }, { enabled: 'yes' }, { colour: 'red' }]) {
      const error = await failure(admin.backup.updateSettings.mutate(change as never));
      expect(error.code).toBe('BAD_REQUEST');
    }
    // A file where the folder should be cannot hold backups.
    const blocker = path.join(t.dataDir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const error = await failure(admin.backup.updateSettings.mutate({ folder: blocker }));
    expect(error.message).toMatch(/^Invalid folder: cannot write to .*not-a-dir \(E[A-Z]+\)$/);
    expect((await admin.backup.list.query()).settings).toEqual({
      enabled: false,
      hour: 3,
      keep: 7,
      folder,
    });
  });

  it('is for organization owners only', async () => {
    for (const who of ['admin', 'member'] as const) {
      const account = t.accounts[who];
      const client = trpcClient(t.url, basicAuth(account.email, account.apiKey));
      const calls = [
        () => client.backup.list.query(),
        () => client.backup.create.mutate(),
        () => client.backup.progress.query({ id: 'x' }),
        () => client.backup.updateSettings.mutate({ enabled: true }),
        () => client.backup.restore.mutate({ file: 'hearth-backup-20250101-000000-000.sqlite' }),
        () => client.backup.remove.mutate({ file: 'hearth-backup-20250101-000000-000.sqlite' }),
      ];
      for (const call of calls) {
        expect(await failure(call())).toMatchObject({
          code: 'BAD_REQUEST',
          message: 'Must be an organization owner',
          zulip: { code: 'UNAUTHORIZED_PRINCIPAL' },
        });
      }
    }
    expect((await admin.backup.list.query()).settings.enabled).toBe(false);
    const owner = t.accounts.owner;
    const asOwner = trpcClient(t.url, basicAuth(owner.email, owner.apiKey));
    expect((await asOwner.backup.list.query()).backups).toEqual([]);
  });

  it('progress of an unknown job is an error', async () => {
    expect(await failure(admin.backup.progress.query({ id: 'nope' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'No such backup job',
      zulip: { code: 'BAD_REQUEST', reason: 'not_found' },
    });
  });
});

describe('backup.create', () => {
  it('copies the database and the uploaded files, reporting progress up to 1', async () => {
    const bytes = Buffer.from('backup me, byte for byte \u0000\u00ff');
    const key = newFileKey('uploads', '.txt');
    writeStoredFile(t.server.ctx, key, bytes);
    // file-store's half-written files are not backed up.
    writeFileSync(`${storedFilePath(t.server.ctx, key)}.1234.partial`, 'half');
    const messageId = await sendToChannel(t, 'member', general, 'backup', 'before the backup');

    const before = Date.now();
    const { id } = await admin.backup.create.mutate();
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const { file, fractions } = await waitForBackup(admin, id);
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i += 1) {
      expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
    }
    expect(await admin.backup.progress.query({ id })).toEqual({ state: 'done', fraction: 1, file });

    const { backups } = await admin.backup.list.query();
    const entry = backups.find((b) => b.file === file)!;
    expect(entry).toMatchObject({ automatic: false, includesFiles: true });
    expect(entry.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(entry.createdAt).toBeLessThanOrEqual(Date.now());
    const full = path.join(folder, file);
    expect(entry.sizeBytes).toBe(readFileSync(full).length);
    // Password hashes and API keys inside: owner-only, like the database.
    if (process.platform !== 'win32') expect(statSync(full).mode & 0o777).toBe(0o600);
    // No temporary file is left beside it, and no -wal: the backup is one file.
    expect(readdirSync(folder)).toEqual([file]);

    const copy = openCopy(full);
    try {
      expect(integrityOf(copy)).toEqual(['ok']);
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      const message = copy.prepare('SELECT content FROM messages WHERE id = ?').get(messageId);
      expect(message).toEqual({ content: 'before the backup' });
      const stored = copy.prepare('SELECT key, data FROM hearth_backup_files').all() as {
        key: string;
        data: Buffer;
      }[];
      expect(stored.map((row) => row.key)).toEqual([key]);
      expect(Buffer.compare(stored[0]!.data, bytes)).toBe(0);
    } finally {
      copy.close();
    }
  });

  it('a backup under concurrent writes is consistent and holds every message acknowledged before its snapshot', async () => {
    // Enough pages that the online backup takes many steps, with sends in between.
    t.server.ctx.db.exec('CREATE TABLE IF NOT EXISTS test_ballast (data BLOB)');
    const insert = t.server.ctx.db.prepare('INSERT INTO test_ballast (data) VALUES (?)');
    for (let i = 0; i < 80; i += 1) insert.run(Buffer.alloc(256 * 1024, i));

    const acknowledged: number[] = [];
    const { id } = await admin.backup.create.mutate();
    let done = false;
    const writer = (async () => {
      let n = 0;
      while (!done) {
        const batch = await Promise.all(
          [0, 1, 2].map(() => sendToChannel(t, 'member', general, 'load', `message ${n++}`)),
        );
        acknowledged.push(...batch);
      }
    })();
    const { file, fractions } = await waitForBackup(admin, id);
    done = true;
    await writer;
    expect(acknowledged.length).toBeGreaterThan(0);
    // The UI's progress bar moves through the copy, not only at its ends.
    expect(fractions.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);
    expect(fractions.at(-1)).toBe(1);

    const copy = openCopy(path.join(folder, file));
    try {
      expect(integrityOf(copy)).toEqual(['ok']);
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      const inCopy = new Set(
        (copy.prepare('SELECT id FROM messages').all() as { id: number }[]).map((r) => r.id),
      );
      // Writes through the server's connection reach the copy while it is made:
      // some of the sends made during the backup are in it.
      expect(acknowledged.some((messageId) => inCopy.has(messageId))).toBe(true);
      // Consistent: the copy is the database at one moment, so every message acknowledged
      // up to the newest one it holds is there.
      const newest = Math.max(...acknowledged.filter((messageId) => inCopy.has(messageId)));
      expect(
        acknowledged.filter((messageId) => messageId <= newest && !inCopy.has(messageId)),
      ).toEqual([]);
      // Each message's recipients' rows came with it.
      const orphan = copy
        .prepare(
          'SELECT COUNT(*) AS n FROM messages m WHERE m.id > ? AND NOT EXISTS (SELECT 1 FROM user_message_flags f WHERE f.message_id = m.id)',
        )
        .get(Math.min(...acknowledged) - 1) as { n: number };
      expect(orphan.n).toBe(0);
    } finally {
      copy.close();
      t.server.ctx.db.exec('DROP TABLE test_ballast');
    }
  });

  it('backups requested together run one after the other, each with its own file', async () => {
    const [a, b] = await Promise.all([admin.backup.create.mutate(), admin.backup.create.mutate()]);
    expect(a.id).not.toBe(b.id);
    const [first, second] = await Promise.all([
      waitForBackup(admin, a.id),
      waitForBackup(admin, b.id),
    ]);
    expect(first.file).not.toBe(second.file);
    const files = (await admin.backup.list.query()).backups.map((entry) => entry.file);
    expect(files).toEqual(expect.arrayContaining([first.file, second.file]));
  });
});

describe('backup.remove and path tricks', () => {
  it('removes a backup by its name', async () => {
    const { file } = await waitForBackup(admin, (await admin.backup.create.mutate()).id);
    expect(await admin.backup.remove.mutate({ file })).toEqual({});
    expect(existsSync(path.join(folder, file))).toBe(false);
    expect((await admin.backup.list.query()).backups.map((b) => b.file)).not.toContain(file);
    expect(await failure(admin.backup.remove.mutate({ file }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'No such backup',
      zulip: { reason: 'not_found' },
    });
  });

  it('names outside the backup folder, or not backups, are refused and nothing is touched', async () => {
    const outside = path.join(t.dataDir, 'hearth-backup-20250101-000000-000.sqlite');
    writeFileSync(outside, 'outside the folder');
    symlinkSync(outside, path.join(folder, 'hearth-backup-20250101-000000-001.sqlite'));
    const tricks = [
      '../hearth.sqlite',
      '../hearth-backup-20250101-000000-000.sqlite',
      `..${path.sep}hearth-backup-20250101-000000-000.sqlite`,
      path.join(t.dataDir, 'hearth.sqlite'),
      outside,
      'hearth.sqlite',
      '..',
      '.',
      'sub/hearth-backup-20250101-000000-000.sqlite',
      'hearth-backup-20250101-000000-000.sqlite\u0000',
      '..\\hearth-backup-20250101-000000-000.sqlite',
      // A link in the folder pointing out of it.
      'hearth-backup-20250101-000000-001.sqlite',
    ];
    for (const file of tricks) {
      for (const call of [
        admin.backup.remove.mutate({ file }),
        admin.backup.restore.mutate({ file }),
      ]) {
        expect(await failure(call), file).toMatchObject({
          code: 'BAD_REQUEST',
          message: 'No such backup',
        });
      }
    }
    expect(readFileSync(outside, 'utf8')).toBe('outside the folder');
    expect(existsSync(path.join(t.dataDir, 'hearth.sqlite'))).toBe(true);
    expect(existsSync(path.join(t.dataDir, 'restore-staging'))).toBe(false);
    expect((await t.as('member').get('/users/me')).status).toBe(200);
    expect(await failure(admin.backup.remove.mutate({ file: '' }))).toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
