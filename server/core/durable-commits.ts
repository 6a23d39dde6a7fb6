import { closeSync, fdatasync, openSync } from 'node:fs';
import type { Db } from '../db/open.js';
import type { Logger } from './context.js';

interface Waiting {
  seq: number;
  release: (error?: unknown) => void;
  /** performance.now() at its commit. */
  committedAt: number;
}

/** What group commit's fsyncs did since the server started (bench/durable-send.ts reports it). */
export interface SyncStats {
  /** Commits whose answers waited for an fdatasync off the event loop. */
  waited: number;
  /** fdatasyncs of the WAL that completed. */
  syncs: number;
  /** From each such commit to its release, summed. */
  waitedMs: number;
  /** The longest such wait. */
  longestWaitMs: number;
}

/** PRAGMA synchronous: FULL is 2 (EXTRA, 3, syncs more). */
const SYNCHRONOUS_FULL = 2;

/** fdatasyncs of the WAL in flight at once: two let one batch's start while another's runs. */
const MAX_SYNCS_IN_FLIGHT = 2;

/**
 * Group commit's fsync, off the event loop (db/DESIGN.md, "Durability").
 *
 * The connection runs with synchronous=FULL: SQLite fsyncs the WAL inside
 * each commit, on the event loop, which then does nothing else for those
 * milliseconds (2–10 ms on the disks measured). A batch of sends instead
 * commits with SQLite's fsync left out (`commitWithoutSync`), and what
 * follows it (answers, events) waits in `afterSync` until an fdatasync of
 * the WAL that began after that commit has completed. That is the system
 * call SQLite's FULL makes, run on libuv's thread pool while the event loop
 * goes on with the next batch: the same promise (an answered write is on
 * disk) without the stall.
 *
 * What follows commits runs in commit order. A commit that SQLite made
 * durable itself (any other write, under FULL) releases every batch before
 * it first, since its fsync covered their WAL frames too.
 */
export class DurableCommits {
  private readonly waiting: Waiting[] = [];
  private seq = 0;
  private syncsInFlight = 0;
  /** The last commit an fsync already started covers. */
  private startedThrough = 0;
  /** Set when an fdatasync failed: batches then commit with SQLite's own fsync. */
  private failed = false;
  private drained: Array<() => void> = [];
  /** Whether the last commitWithoutSync left its fsync to afterSync. */
  private lastCommitUnsynced = false;
  private readonly totalChanges: () => number;
  /**
   * The connection's PRAGMA synchronous, read once: asking SQLite per batch
   * (a table-valued pragma) cost more than the rest of the commit's
   * bookkeeping. It changes only through setSynchronous.
   */
  private level: number;
  readonly stats: SyncStats = { waited: 0, syncs: 0, waitedMs: 0, longestWaitMs: 0 };

  private constructor(
    private readonly db: Db,
    private readonly walFd: number | null,
    private readonly log: Logger,
  ) {
    const changes = db.prepare('SELECT total_changes()').pluck();
    this.totalChanges = () => changes.get() as number;
    this.level = db.pragma('synchronous', { simple: true }) as number;
  }

  /**
   * Sets the connection's PRAGMA synchronous. NORMAL is the benches'
   * reference (commits answered without waiting for the disk); the server
   * runs FULL. Set it here, not with a PRAGMA of one's own: the level is
   * remembered, not read per batch.
   */
  setSynchronous(level: 'NORMAL' | 'FULL'): void {
    this.db.exec(`PRAGMA synchronous = ${level}`);
    this.level = this.db.pragma('synchronous', { simple: true }) as number;
  }

  /** For `db`, which openDatabase opened in WAL mode (an in-memory one has no WAL to sync). */
  static open(db: Db, log: Logger): DurableCommits {
    let walFd: number | null = null;
    if (!db.memory && db.pragma('journal_mode', { simple: true }) === 'wal') {
      try {
        // Written to (r+) so that syncing it works where flushing needs write access (Windows).
        walFd = openSync(`${db.name}-wal`, 'r+');
      } catch (err) {
        // Every batch then commits with SQLite's own fsync: as durable, only slower.
        log.warn(
          `Group commit syncs on the event loop: the WAL could not be opened (${String(err)})`,
        );
      }
    }
    return new DurableCommits(db, walFd, log);
  }

  /**
   * Runs `commit` (a whole transaction, BEGIN to COMMIT) without SQLite's
   * fsync at COMMIT. Whatever answers to it must wait for `afterSync`.
   */
  commitWithoutSync<T>(commit: () => T): T {
    this.lastCommitUnsynced = false;
    if (this.walFd === null || this.failed || this.db.inTransaction)
      return this.commitSynced(commit);
    const level = this.level;
    // Below FULL the connection was told not to wait for the disk (the bench's reference).
    if (level < SYNCHRONOUS_FULL) return commit();
    // exec, not pragma(): it runs once per batch, and builds no statement object.
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      const result = commit();
      this.lastCommitUnsynced = true;
      return result;
    } finally {
      this.db.exec(`PRAGMA synchronous = ${level}`);
    }
  }

  /**
   * Runs `commit` with SQLite's own fsync (FULL). If it wrote, that fsync
   * covered every commit before it: their releases run first, in order.
   */
  commitSynced<T>(commit: () => T): T {
    const before = this.totalChanges();
    const result = commit();
    if (this.totalChanges() !== before && this.level >= SYNCHRONOUS_FULL) {
      this.releaseThrough(this.seq);
    }
    return result;
  }

  /**
   * Calls `release` once the last commit is on disk (at once if it already
   * is), with an error if that could not be made sure of.
   */
  afterSync(release: (error?: unknown) => void): void {
    if (!this.lastCommitUnsynced) {
      // Synced by SQLite, or not to be: in order after any commit still waiting.
      if (this.waiting.length === 0) release();
      else this.waiting.push({ seq: this.seq, release, committedAt: -1 });
      return;
    }
    this.lastCommitUnsynced = false;
    this.seq += 1;
    this.waiting.push({ seq: this.seq, release, committedAt: performance.now() });
    this.startSync();
  }

  /** Resolves when nothing waits for an fsync (before the database closes). */
  drain(): Promise<void> {
    if (this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  close(): void {
    if (this.walFd !== null) closeSync(this.walFd);
  }

  private startSync(): void {
    if (this.syncsInFlight >= MAX_SYNCS_IN_FLIGHT || this.waiting.length === 0) return;
    const upTo = this.seq;
    if (this.startedThrough >= upTo) return;
    this.startedThrough = upTo;
    this.syncsInFlight += 1;
    fdatasync(this.walFd!, (error) => {
      this.syncsInFlight -= 1;
      this.stats.syncs += 1;
      if (error) {
        this.failed = true;
        this.log.error(
          'Writing the database to disk failed; the writes waiting for it are answered with an error',
          error,
        );
        this.releaseThrough(this.seq, error);
      } else {
        this.releaseThrough(upTo);
      }
      this.startSync();
    });
  }

  private countWait(ms: number): void {
    this.stats.waited += 1;
    this.stats.waitedMs += ms;
    if (ms > this.stats.longestWaitMs) this.stats.longestWaitMs = ms;
  }

  private releaseThrough(seq: number, error?: unknown): void {
    while (this.waiting.length > 0 && this.waiting[0]!.seq <= seq) {
      const { release, committedAt } = this.waiting.shift()!;
      if (committedAt >= 0) this.countWait(performance.now() - committedAt);
      try {
        release(error);
      } catch (err) {
        this.log.error('answering a committed write failed', err);
      }
    }
    if (this.waiting.length === 0) {
      for (const resolve of this.drained.splice(0)) resolve();
    }
  }
}
