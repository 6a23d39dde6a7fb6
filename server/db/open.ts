import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';
import { trackTableWrites } from './write-versions.js';

export type Db = Database.Database;

/** The database holds API keys and password hashes: owner-only. */
const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the database file owner-only before SQLite opens it (SQLite gives
 * the -wal and -shm files it creates the database file's mode, whatever the
 * umask), and tightens files an earlier version left world-readable.
 */
function restrictFileModes(file: string): void {
  if (file === '' || file === ':memory:') return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(name, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * How a commit reaches the disk, for every connection that writes: FULL
 * makes SQLite fsync the WAL at each commit, so a write the server has
 * answered survives a power cut, not only a crash of the process (NORMAL
 * syncs only at checkpoints: measured, every message of a minute's chat was
 * gone after a cut). Group commit (core/write-batcher.ts) shares one fsync
 * among the sends that arrive together; db/DESIGN.md, "Durability".
 */
export const SYNCHRONOUS = 'FULL';

export interface SqliteFileOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Milliseconds to wait for another connection's lock (better-sqlite3's default 5000). */
  timeout?: number;
}

/**
 * Every SQLite connection the server opens comes from here (the main
 * database through openDatabase, backups and restores directly), so each
 * writes with the same durability; a test holds server/ to it.
 */
export function openSqliteFile(file: string, options: SqliteFileOptions = {}): Db {
  const db = new Database(file, options);
  if (!options.readonly) db.pragma(`synchronous = ${SYNCHRONOUS}`);
  return db;
}

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date.
 * WAL lets the long-poll readers and the writer proceed together.
 */
export function openDatabase(file: string): Db {
  restrictFileModes(file);
  const db = openSqliteFile(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Larger page cache and less frequent checkpoints measurably raise the
  // send rate (see DESIGN.md); both are bounded.
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('temp_store = MEMORY');
  try {
    migrate(db);
    trackTableWrites(db);
  } catch (err) {
    // E.g. DatabaseTooNewError: leave the file to the Hearth that wrote it.
    db.close();
    throw err;
  }
  return db;
}
