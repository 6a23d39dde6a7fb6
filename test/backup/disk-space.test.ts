/**
 * Disk space: the log and the Backups page (backup.list) warn before the
 * data disk fills, and backups stop before they would fill theirs, with a
 * notice in both. The thresholds are set around the test machine's real
 * free space (a disk is never filled); a sparse file stands for a large
 * upload without taking its room.
 */
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statfsSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupsOf } from '../../server/backup/index.js';
import {
  createServer,
  FILES_DIR,
  type RunningServer,
  type ServerOptions,
} from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { FIXTURE_PASSWORD } from '../helpers/server.js';
import { bearer, trpcClient } from '../trpc/client.js';
import { ADMIN_TOKEN } from './helpers.js';

const GIB = 1024 ** 3;
const running: Array<{ server: RunningServer; dataDir: string }> = [];
afterEach(async () => {
  for (const { server, dataDir } of running.splice(0)) {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const freeBytes = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

async function start(options: Partial<ServerOptions>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-space-'));
  const lines: string[] = [];
  const log = {
    info: (msg: string) => lines.push(`INFO ${msg}`),
    warn: (msg: string) => lines.push(`WARN ${msg}`),
    error: (msg: string) => lines.push(`ERROR ${msg}`),
  };
  const server = await createServer({
    dataDir,
    port: 0,
    rateLimit: false,
    adminToken: ADMIN_TOKEN,
    automaticBackups: false,
    logFile: false,
    log,
    ...options,
  });
  running.push({ server, dataDir });
  await createOrganization(server.ctx, {
    name: 'Space Org',
    emailDomain: 'space.hearth',
    ownerEmail: 'owner@example.com',
    ownerName: 'Olivia Owner',
    ownerPassword: FIXTURE_PASSWORD,
  });
  const admin = trpcClient(server.url, bearer(ADMIN_TOKEN));
  return { server, dataDir, admin, lines };
}

describe('the data disk', () => {
  it('reads as ok with room to spare', async () => {
    const { admin, lines } = await start({});
    const { space } = await admin.backup.list.query();
    expect(space.data).toMatchObject({ level: 'ok' });
    expect(space.data!.freeBytes).toBeGreaterThan(0);
    expect(space.data!.totalBytes).toBeGreaterThanOrEqual(space.data!.freeBytes);
    expect(space.automaticPaused).toBeNull();
    expect(lines.filter((l) => /disk/.test(l))).toEqual([]);
  });

  it('is reported low, and the log warns once, below the low mark', async () => {
    const lowBytes = freeBytes(os.tmpdir()) + 10 * GIB;
    const { admin, lines } = await start({ diskSpace: { lowBytes, criticalBytes: 1 } });
    const { space } = await admin.backup.list.query();
    expect(space.data).toMatchObject({ level: 'low' });
    await admin.backup.list.query();
    const warnings = lines.filter((l) => /nearly full/.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^WARN The disk holding .* is nearly full: [\d.]+ [MG]iB free of [\d.]+ [MG]iB/,
    );
  });

  it('is reported critical, logged as an error, below the critical mark', async () => {
    const criticalBytes = freeBytes(os.tmpdir()) + 10 * GIB;
    const { admin, lines } = await start({
      diskSpace: { lowBytes: criticalBytes * 2, criticalBytes },
    });
    expect((await admin.backup.list.query()).space.data).toMatchObject({ level: 'critical' });
    expect(lines.filter((l) => /^ERROR The disk holding .* is full/.test(l))).toHaveLength(1);
  });
});

describe('backups and the room they take', () => {
  it('an automatic backup that would leave too little room is skipped, with a notice', async () => {
    // The last bytes the server keeps for itself are more than the disk has.
    const criticalBytes = freeBytes(os.tmpdir()) + 10 * GIB;
    let clock = new Date(2026, 10, 20, 12, 0).getTime();
    const { server, admin, lines } = await start({
      now: () => clock,
      diskSpace: { lowBytes: criticalBytes, criticalBytes },
    });
    await admin.backup.updateSettings.mutate({ enabled: true, hour: 3 });
    const backups = backupsOf(server.ctx);
    const id = await backups.runDue();
    expect(id).not.toBeNull();
    await backups.idle();
    const progress = await admin.backup.progress.query({ id: id! });
    expect(progress.state).toBe('failed');
    expect(progress.error).toMatch(
      /^Not enough free space for a backup: it needs about [\d.]+ [MG]iB/,
    );
    const { backups: listed, settings, space } = await admin.backup.list.query();
    expect(listed).toEqual([]);
    expect(readdirSync(settings.folder)).toEqual([]);
    expect(space.automaticPaused).toMatchObject({ since: clock });
    expect(space.automaticPaused!.reason).toMatch(/^Not enough free space/);
    const notices = lines.filter((l) => /Automatic backups are paused/.test(l));
    expect(notices).toEqual([
      expect.stringMatching(/^WARN Automatic backups are paused\. Not enough/),
    ]);

    // An hour on, still no room: still paused, said once.
    clock += 61 * 60 * 1000;
    await backups.runDue();
    await backups.idle();
    expect(lines.filter((l) => /Automatic backups are paused/.test(l))).toHaveLength(1);

    // A backup asked for by hand is refused with the same reason.
    const manual = await admin.backup.create.mutate();
    await backups.idle();
    expect((await admin.backup.progress.query(manual)).error).toMatch(/^Not enough free space/);
  });

  it('a backup that fits resumes automatic backups', async () => {
    let clock = new Date(2026, 10, 20, 12, 0).getTime();
    const thresholds = { lowBytes: freeBytes(os.tmpdir()) + 10 * GIB, criticalBytes: 0 };
    thresholds.criticalBytes = thresholds.lowBytes;
    const { server, admin, lines } = await start({ now: () => clock, diskSpace: thresholds });
    await admin.backup.updateSettings.mutate({ enabled: true, hour: 3 });
    const backups = backupsOf(server.ctx);
    await backups.runDue();
    await backups.idle();
    expect((await admin.backup.list.query()).space.automaticPaused).not.toBeNull();
    // Room again (the owner freed some).
    // BackupService reads the thresholds it was given at each check.
    thresholds.criticalBytes = 1;
    clock += 61 * 60 * 1000;
    expect(await backups.runDue()).not.toBeNull();
    await backups.idle();
    const { backups: listed, space } = await admin.backup.list.query();
    expect(listed).toHaveLength(1);
    expect(space.automaticPaused).toBeNull();
    expect(lines).toContain('INFO Automatic backups run again: there is room for them');
  });

  it('estimates a backup from the database and every stored file', async () => {
    const { server, admin } = await start({});
    const before = (await admin.backup.list.query()).space.estimatedBackupBytes;
    const pages = server.ctx.db.pragma('page_count', { simple: true }) as number;
    expect(before).toBeGreaterThanOrEqual(pages * 4096);
    // A sparse file: 3 GiB to the backup, no room on the test machine's disk.
    const dir = path.join(server.ctx.config.dataDir, FILES_DIR, 'uploads', 'ab');
    mkdirSync(dir, { recursive: true });
    const fd = openSync(path.join(dir, 'large.bin'), 'w');
    ftruncateSync(fd, 3 * GIB);
    closeSync(fd);
    const after = (await admin.backup.list.query()).space.estimatedBackupBytes;
    expect(after - before).toBeGreaterThanOrEqual(3 * GIB);
    expect(after - before).toBeLessThan(3.1 * GIB);
  });
});
