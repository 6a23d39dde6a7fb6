/**
 * One server per data directory. Two processes serving one database each
 * keep their own caches (API keys, deactivated users), their own event
 * queues and fight over SQLite's write lock; so the first server to start
 * holds an OS-level lock on a file in the data directory for its whole life,
 * and a second one refuses to start, naming the first (its URL and process
 * id, recorded beside the lock).
 *
 * The lock is SQLite's own file locking on a separate, empty database
 * (`hearth.lock`) opened with `locking_mode = EXCLUSIVE` and written once, so
 * the connection takes SQLite's EXCLUSIVE lock and never gives it back until
 * it closes. SQLite takes that lock with the OS's record locks: fcntl(F_SETLK)
 * on Linux and macOS, LockFileEx on Windows. The kernel owns those locks on
 * behalf of the process and drops them when the process's descriptors or
 * handles are closed, which happens at any exit: a clean one, a crash, or a
 * kill -9 / TerminateProcess. No stale lock survives its owner, and there is
 * nothing to clean up (the file itself stays; it is not what is checked).
 * Lock files that are created and deleted (`proper-lockfile` and its kind)
 * or that hold a pid are not released by a crash: the next start would have
 * to guess whether the owner still lives.
 *
 * Caveats: fcntl locks belong to the process, and closing ANY descriptor of
 * the file in the same process drops them; SQLite guards against that among
 * its own connections, so nothing else in the process may open `hearth.lock`
 * (chmod and stat are fine). Network file systems may not honour the locks.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Db, openSqliteFile } from '../db/open.js';

/** The lock database in the data directory. */
export const LOCK_FILE = 'hearth.lock';
/** Who holds the lock: written by the holder only, beside the lock. */
export const LOCK_HOLDER_FILE = 'hearth.lock.json';

export interface LockHolder {
  pid: number;
  /** The URL clients use, once the holder listens. */
  url: string | null;
  /** How this machine reaches the holder, once it listens. */
  localUrl: string | null;
  /** When the holder took the lock (ISO 8601). */
  since: string;
}

/** A second server for a data directory another process serves. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(inUseMessage(dataDir, holder));
    this.name = 'DataDirInUseError';
  }
}

function inUseMessage(dataDir: string, holder: LockHolder | null): string {
  const who = !holder
    ? 'Another Hearth server'
    : holder.url
      ? `Another Hearth server (${holder.url}, process ${holder.pid})`
      : `Another Hearth server (process ${holder.pid}, still starting)`;
  return `${who} is already serving ${dataDir}. Use that one, stop it first, or give another data directory (--data-dir).`;
}

const holderPath = (dataDir: string) => path.join(dataDir, LOCK_HOLDER_FILE);

/** The lock's holder as it recorded itself, or null (none yet, or unreadable). */
export function readLockHolder(dataDir: string): LockHolder | null {
  try {
    const value = JSON.parse(readFileSync(holderPath(dataDir), 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid !== 'number') return null;
    return {
      pid: value.pid,
      url: typeof value.url === 'string' ? value.url : null,
      localUrl: typeof value.localUrl === 'string' ? value.localUrl : null,
      since: typeof value.since === 'string' ? value.since : '',
    };
  } catch {
    return null;
  }
}

const isBusy = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' &&
  ((err as { code: string }).code === 'SQLITE_BUSY' ||
    (err as { code: string }).code === 'SQLITE_LOCKED');

/** The held lock on one data directory; see the module comment. */
export class DataDirLock {
  private holder: LockHolder;
  private released = false;

  private constructor(
    readonly dataDir: string,
    private readonly db: Db,
  ) {
    this.holder = { pid: process.pid, url: null, localUrl: null, since: new Date().toISOString() };
    this.record();
  }

  /**
   * Takes the lock, or throws DataDirInUseError naming the server that holds
   * it. Never waits: a held lock means a live server.
   */
  static acquire(dataDir: string): DataDirLock {
    const file = path.join(dataDir, LOCK_FILE);
    let db: Db | null = null;
    try {
      db = openSqliteFile(file, { timeout: 0 });
      // Owner-only like the rest of the data directory (by path: see the caveat above).
      chmodSync(file, 0o600);
      // No journal file beside the lock; the database holds nothing anyway.
      db.pragma('journal_mode = MEMORY');
      db.pragma('locking_mode = EXCLUSIVE');
      // The first write takes the EXCLUSIVE lock, kept until the connection closes.
      db.exec('BEGIN EXCLUSIVE; COMMIT');
      return new DataDirLock(dataDir, db);
    } catch (err) {
      db?.close();
      if (isBusy(err)) throw new DataDirInUseError(dataDir, readLockHolder(dataDir));
      throw err;
    }
  }

  /** Records where the holder listens (after each start or restart). */
  announce(where: { url: string; localUrl: string }): void {
    this.holder = { ...this.holder, url: where.url, localUrl: where.localUrl };
    this.record();
  }

  /** Lets another server start: the record goes first, then the lock. */
  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(holderPath(this.dataDir), { force: true });
    this.db.close();
  }

  private record(): void {
    const file = holderPath(this.dataDir);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.holder, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  }
}
