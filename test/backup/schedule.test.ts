import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupsOf } from '../../server/backup/index.js';
import { createServer } from '../../server/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, trpcClient } from '../trpc/client.js';
import { ADMIN_TOKEN, waitForBackup } from './helpers.js';

/** Local time, as the hour setting means it. */
const local = (day: number, hour: number, minute = 0) =>
  new Date(2025, 2, day, hour, minute).getTime();

describe('the daily automatic backup, on a fake clock', () => {
  let t: TestServer;
  let admin: AdminClient;
  let clock = local(10, 2, 59);
  let folder: string;

  beforeAll(async () => {
    t = await startTestServer({ adminToken: ADMIN_TOKEN, now: () => clock });
    admin = trpcClient(t.url, bearer(ADMIN_TOKEN));
    folder = path.join(t.dataDir, 'backups');
  });
  afterAll(() => t.close());

  /** One check of the job; answers whether it started a backup. */
  async function check(): Promise<boolean> {
    const backups = backupsOf(t.server.ctx);
    const id = await backups.runDue();
    if (id !== null) await waitForBackup(admin, id);
    return id !== null;
  }

  const automaticFiles = () =>
    readdirSync(folder)
      .filter((file) => file.endsWith('-auto.sqlite'))
      .sort();

  it('does nothing while automatic backups are off', async () => {
    expect(await check()).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });

  it('runs once a day at the chosen hour, catching up on a missed one, keeping the newest N', async () => {
    await admin.backup.updateSettings.mutate({ enabled: true, hour: 3, keep: 2 });
    // Turned on at 02:59 with no backup yet: yesterday's 03:00 was missed, so one now.
    expect(await check()).toBe(true);
    expect(automaticFiles()).toHaveLength(1);
    clock = local(10, 2, 59) + 30_000;
    expect(await check()).toBe(false);
    clock = local(10, 3, 0);
    expect(await check()).toBe(true);
    clock = local(10, 3, 1);
    expect(await check()).toBe(false);
    clock = local(10, 23, 59);
    expect(await check()).toBe(false);

    // A manual backup is never removed by retention.
    const manual = (await waitForBackup(admin, (await admin.backup.create.mutate()).id)).file;

    clock = local(11, 3, 0);
    expect(await check()).toBe(true);
    // The machine slept through the 12th's hour and wakes at noon on the 13th.
    clock = local(13, 12, 0);
    expect(await check()).toBe(true);
    expect(await check()).toBe(false);

    const names = automaticFiles();
    expect(names).toHaveLength(2);
    const { backups } = await admin.backup.list.query();
    const automatic = backups.filter((b) => b.automatic);
    expect(automatic.map((b) => b.createdAt)).toEqual([local(13, 12, 0), local(11, 3, 0)]);
    expect(automatic.map((b) => b.file).sort()).toEqual(names);
    expect(backups.find((b) => b.file === manual)).toMatchObject({ automatic: false });
    expect(readdirSync(folder)).toContain(manual);
  });

  it('a smaller keep count applies at the next automatic backup', async () => {
    await admin.backup.updateSettings.mutate({ keep: 1 });
    clock = local(14, 3, 0);
    expect(await check()).toBe(true);
    expect(automaticFiles()).toHaveLength(1);
    expect((await admin.backup.list.query()).backups.filter((b) => b.automatic)).toMatchObject([
      { createdAt: local(14, 3, 0) },
    ]);
  });

  it('after a failure it waits an hour before trying again', async () => {
    const blocked = path.join(t.dataDir, 'blocked');
    await admin.backup.updateSettings.mutate({ folder: blocked });
    // The folder disappears (an unplugged drive) and a file takes its place.
    rmSync(blocked, { recursive: true });
    writeFileSync(blocked, 'not a folder');
    clock = local(15, 3, 0);
    const backups = backupsOf(t.server.ctx);
    const id = await backups.runDue();
    expect(id).not.toBeNull();
    await backups.idle();
    expect(await admin.backup.progress.query({ id: id! })).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^The backup failed: /),
    });
    clock = local(15, 3, 30);
    expect(await backups.runDue()).toBeNull();
    rmSync(blocked);
    clock = local(15, 4, 1);
    expect(await check()).toBe(true);
    expect(readdirSync(blocked)).toHaveLength(1);
  });
});

describe('the periodic job started by createServer', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-backup-cron-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the due backup by itself, once, and restart keeps the settings', async () => {
    const folder = path.join(dataDir, 'nightly');
    writeFileSync(
      path.join(dataDir, 'backup-settings.json'),
      JSON.stringify({ enabled: true, hour: 0, keep: 3, folder }),
    );
    // Every second, with the real clock: midnight has always passed today.
    const server = await createServer({ dataDir, port: 0, automaticBackups: 1000 });
    try {
      const deadline = Date.now() + 8000;
      // A backup being written is a hidden .partial file until complete.
      const made = () =>
        (existsSync(folder) ? readdirSync(folder) : []).filter((f) => !f.startsWith('.'));
      while (made().length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(made()).toHaveLength(1);
      expect(made()[0]).toMatch(/^hearth-backup-\d{8}-\d{6}-\d{3}-auto\.sqlite$/);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(made()).toHaveLength(1);

      await server.restart();
      expect(backupsOf(server.ctx).currentSettings()).toEqual({
        enabled: true,
        hour: 0,
        keep: 3,
        folder,
      });
    } finally {
      await server.close();
    }
  });
});
