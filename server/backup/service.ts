import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { BackupAborted, estimateBackupBytes, writeBackup } from './archive.js';
import {
  DEFAULT_SPACE_THRESHOLDS,
  type DiskSpace,
  diskSpace,
  type SpaceLevel,
  type SpaceThresholds,
  sizeText,
} from './disk-space.js';
import {
  type BackupEntry,
  backupFileName,
  latestAutomaticBackupAt,
  listBackupFiles,
  pruneAutomaticBackups,
  removeAbandonedPartials,
  resolveBackupFile,
} from './folder.js';
import { stagePreparedData, stageRestore } from './restore.js';
import { latestSlot } from './schedule.js';
import { type BackupSettings, loadSettings, mergeSettings, saveSettings } from './settings.js';

/** The disks the owner should know about, as the Backups page shows them. */
export interface BackupSpace {
  /** The disk of the data directory (the database, uploads, the log). */
  data: DiskSpace | null;
  /** The disk of the backup folder (often the same one). */
  backups: DiskSpace | null;
  /** About what a backup made now takes. */
  estimatedBackupBytes: number;
  /** Set while automatic backups are skipped for want of space; cleared by the next one made. */
  automaticPaused: { since: number; reason: string } | null;
}

/** Refused before a byte is written: the backup would leave the disk without room. */
export class NotEnoughSpace extends Error {}

export interface BackupProgress {
  state: 'running' | 'done' | 'failed';
  /** 0..1; 1 once done. */
  fraction: number;
  error?: string;
  /** The backup's file name once done. */
  file?: string;
}

interface Job extends BackupProgress {
  id: string;
  automatic: boolean;
  finishedAt: number | null;
}

/** Finished jobs are remembered this long for a UI that polls late. */
const FINISHED_JOB_MEMORY_MS = 60 * 60 * 1000;
/** After a failed automatic backup (a full disk, a missing drive), wait this long before retrying. */
const AUTOMATIC_RETRY_MS = 60 * 60 * 1000;

export const noSuchBackupJob = () =>
  new ApiError('No such backup job', { code: 'BAD_REQUEST', extra: { reason: 'not_found' } });

/**
 * One server's backups: its settings, the backups it runs one after another
 * (each reporting progress under an id), and restores. Created with the
 * server; close() stops a running backup before the database closes.
 */
export class BackupService {
  private readonly jobs = new Map<string, Job>();
  private queue: Promise<void> = Promise.resolve();
  private closing = false;
  private restoring = false;
  private lastAutomaticFailureAt = Number.NEGATIVE_INFINITY;
  private restartHandler: (() => void) | null = null;
  private dueCheck: Promise<string | null> | null = null;
  /** The data disk's level when last checked: the log speaks when it changes. */
  private dataLevel: SpaceLevel = 'ok';
  private automaticPaused: BackupSpace['automaticPaused'] = null;

  private constructor(
    private readonly ctx: AppContext,
    readonly dataDir: string,
    private settings: BackupSettings,
    private readonly thresholds: SpaceThresholds,
  ) {}

  static async open(
    ctx: AppContext,
    dataDir: string,
    thresholds: SpaceThresholds = DEFAULT_SPACE_THRESHOLDS,
  ): Promise<BackupService> {
    const settings = await loadSettings(dataDir);
    await removeAbandonedPartials(settings.folder);
    return new BackupService(ctx, dataDir, settings, thresholds);
  }

  /** Who restarts the server once a restore is staged (createServer's RunningServer.restart). */
  onRestartRequested(handler: () => void): void {
    this.restartHandler = handler;
  }

  currentSettings(): BackupSettings {
    return { ...this.settings };
  }

  async list(): Promise<{
    backups: BackupEntry[];
    settings: BackupSettings;
    space: BackupSpace;
  }> {
    return {
      backups: await listBackupFiles(this.settings.folder),
      settings: this.currentSettings(),
      space: await this.space(),
    };
  }

  /** The disks as they are now; the log hears of a change in the data disk's level. */
  async space(): Promise<BackupSpace> {
    const [data, backups, estimatedBackupBytes] = await Promise.all([
      diskSpace(this.dataDir, this.thresholds),
      diskSpace(this.settings.folder, this.thresholds),
      estimateBackupBytes(this.ctx.db, this.ctx.config.filesDir),
    ]);
    if (data) this.noteDataLevel(data);
    return { data, backups, estimatedBackupBytes, automaticPaused: this.automaticPaused };
  }

  private noteDataLevel(data: DiskSpace): void {
    if (data.level === this.dataLevel) return;
    this.dataLevel = data.level;
    const free = `${sizeText(data.freeBytes)} free of ${sizeText(data.totalBytes)}`;
    if (data.level === 'ok') {
      this.ctx.log.info(`The disk holding ${this.dataDir} has room again: ${free}`);
    } else if (data.level === 'low') {
      this.ctx.log.warn(
        `The disk holding ${this.dataDir} is nearly full: ${free}. ` +
          `Below ${sizeText(this.thresholds.criticalBytes)} sends and uploads start to fail; ` +
          'free some space, or keep backups on another disk.',
      );
    } else {
      this.ctx.log.error(
        `The disk holding ${this.dataDir} is full: ${free}. Sends and uploads may fail now; free some space.`,
      );
    }
  }

  /** Refuses a backup that would leave its disk less than the room the server keeps. */
  private async checkRoomFor(folder: string): Promise<void> {
    const [space, needed] = await Promise.all([
      diskSpace(folder, this.thresholds),
      estimateBackupBytes(this.ctx.db, this.ctx.config.filesDir),
    ]);
    if (space === null || space.freeBytes - needed >= this.thresholds.criticalBytes) return;
    throw new NotEnoughSpace(
      `Not enough free space for a backup: it needs about ${sizeText(needed)} and the disk holding ` +
        `${folder} has ${sizeText(space.freeBytes)} free, of which Hearth keeps ` +
        `${sizeText(this.thresholds.criticalBytes)} for itself. Free some space, remove old backups, ` +
        'or choose a folder on another disk.',
    );
  }

  async updateSettings(change: Partial<BackupSettings>): Promise<BackupSettings> {
    const next = await mergeSettings(this.settings, change, this.ctx.config.filesDir);
    await saveSettings(this.dataDir, next);
    this.settings = next;
    return this.currentSettings();
  }

  /** Queues a backup (one runs at a time) and answers the id its progress is reported under. */
  start(automatic: boolean): string {
    if (this.closing) throw new ApiError('The server is restarting; try again in a moment');
    this.forgetOldJobs();
    const job: Job = {
      id: randomBytes(8).toString('hex'),
      automatic,
      state: 'running',
      fraction: 0,
      finishedAt: null,
    };
    this.jobs.set(job.id, job);
    this.queue = this.queue.then(() => this.run(job));
    return job.id;
  }

  progress(id: string): BackupProgress {
    const job = this.jobs.get(id);
    if (!job) throw noSuchBackupJob();
    const { state, fraction, error, file } = job;
    return {
      state,
      fraction,
      ...(error !== undefined ? { error } : {}),
      ...(file !== undefined ? { file } : {}),
    };
  }

  /** Waits for every queued backup; for callers (the CLI, tests) that need the file. */
  async idle(): Promise<void> {
    await this.queue;
  }

  async remove(file: string): Promise<void> {
    await rm(await resolveBackupFile(this.settings.folder, file));
  }

  /**
   * Stages a database and files built elsewhere (restore.ts,
   * stagePreparedData), then asks for the restart that swaps them in.
   */
  async swapInPrepared(prepared: {
    databaseFile: string;
    filesDir: string;
    source: string;
  }): Promise<{ restartRequired: boolean }> {
    if (this.closing) throw new ApiError('The server is restarting; try again in a moment');
    if (this.restoring) throw new ApiError('A restore is already in progress');
    this.restoring = true;
    try {
      await stagePreparedData({ dataDir: this.dataDir, now: this.ctx.now() }, prepared);
    } finally {
      this.restoring = false;
    }
    const restart = this.restartHandler;
    if (restart) setImmediate(restart);
    return { restartRequired: true };
  }

  /**
   * Checks and stages `file` to replace the live data, then asks for the
   * restart that swaps it in. The live data is untouched until then.
   */
  async restore(file: string): Promise<{ restartRequired: boolean }> {
    if (this.closing) throw new ApiError('The server is restarting; try again in a moment');
    if (this.restoring) throw new ApiError('A restore is already in progress');
    this.restoring = true;
    try {
      const full = await resolveBackupFile(this.settings.folder, file);
      await stageRestore({ dataDir: this.dataDir, now: this.ctx.now() }, full);
    } finally {
      this.restoring = false;
    }
    const restart = this.restartHandler;
    // After this answer has left: the restart waits for requests in flight anyway.
    if (restart) setImmediate(restart);
    return { restartRequired: true };
  }

  /**
   * Starts the day's automatic backup when it is due: backups are on, the
   * day's hour has come, and the folder holds no automatic backup since.
   * A machine that slept through the hour catches up at its next check.
   */
  async runDue(): Promise<string | null> {
    // Two checks at once would both find the backup missing and make two.
    if (this.dueCheck) return this.dueCheck;
    this.dueCheck = this.startIfDue().finally(() => {
      this.dueCheck = null;
    });
    return this.dueCheck;
  }

  private async startIfDue(): Promise<string | null> {
    if (this.closing) return null;
    // Every check looks at the disk, backups on or off: the log warns before it fills.
    const data = await diskSpace(this.dataDir, this.thresholds);
    if (data) this.noteDataLevel(data);
    if (!this.settings.enabled) return null;
    const now = this.ctx.now();
    if (now - this.lastAutomaticFailureAt < AUTOMATIC_RETRY_MS) return null;
    for (const job of this.jobs.values()) {
      if (job.automatic && job.state === 'running') return null;
    }
    const slot = latestSlot(now, this.settings.hour);
    if ((await latestAutomaticBackupAt(this.settings.folder)) >= slot) return null;
    return this.start(true);
  }

  /** Stops a running backup (its partial file is removed) and waits for the queue to settle. */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue;
  }

  private async run(job: Job): Promise<void> {
    const { folder, keep } = this.settings;
    try {
      if (this.closing) throw new BackupAborted();
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await this.checkRoomFor(folder);
      const createdAt = this.ctx.now();
      let attempt = 0;
      while (existsSync(path.join(folder, backupFileName(createdAt, job.automatic, attempt)))) {
        attempt += 1;
      }
      const file = backupFileName(createdAt, job.automatic, attempt);
      await writeBackup(this.ctx.db, {
        destination: path.join(folder, file),
        filesDir: this.ctx.config.filesDir,
        createdAt,
        automatic: job.automatic,
        schemaVersion: this.ctx.db.pragma('user_version', { simple: true }) as number,
        onProgress: (fraction) => {
          job.fraction = fraction;
        },
        aborted: () => this.closing,
      });
      this.ctx.log.info(`Backup written: ${path.join(folder, file)}`);
      // Retention is part of the job: when it reports done, the folder is as it will stay.
      if (job.automatic) await this.prune(folder, keep);
      if (job.automatic && this.automaticPaused) {
        this.automaticPaused = null;
        this.ctx.log.info('Automatic backups run again: there is room for them');
      }
      Object.assign(job, { state: 'done', fraction: 1, file });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const plain = err instanceof BackupAborted || err instanceof NotEnoughSpace;
      Object.assign(job, {
        state: 'failed',
        error: plain ? message : `The backup failed: ${message}`,
      });
      if (job.automatic) this.lastAutomaticFailureAt = this.ctx.now();
      if (err instanceof NotEnoughSpace) {
        if (job.automatic && this.automaticPaused === null) {
          this.automaticPaused = { since: this.ctx.now(), reason: message };
          this.ctx.log.warn(`Automatic backups are paused. ${message}`);
        }
      } else if (!(err instanceof BackupAborted)) {
        this.ctx.log.error('backup failed', err);
      }
    } finally {
      job.finishedAt = this.ctx.now();
    }
  }

  private async prune(folder: string, keep: number): Promise<void> {
    try {
      const removed = await pruneAutomaticBackups(folder, keep);
      if (removed.length > 0) this.ctx.log.info(`Removed old backups: ${removed.join(', ')}`);
    } catch (err) {
      // The new backup is good; an old one left behind is retried next time.
      this.ctx.log.error('removing old backups failed', err);
    }
  }

  private forgetOldJobs(): void {
    const now = this.ctx.now();
    for (const [id, job] of this.jobs) {
      if (job.finishedAt !== null && now - job.finishedAt > FINISHED_JOB_MEMORY_MS) {
        this.jobs.delete(id);
      }
    }
  }
}

const services = new WeakMap<AppContext, BackupService>();

/** Makes `service` the one the server with `ctx` answers backup calls with. */
export function attachBackups(ctx: AppContext, service: BackupService): void {
  services.set(ctx, service);
}

export function backupsOf(ctx: AppContext): BackupService {
  const service = services.get(ctx);
  if (!service) throw new ApiError('Backups are not available on this server');
  return service;
}
