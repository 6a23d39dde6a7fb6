import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { HEARTH_VERSION } from '../core/version.js';
import { type Db, openSqliteFile } from '../db/open.js';

/**
 * A backup is one SQLite file: the database as SQLite's online backup copied
 * it, plus two tables of our own holding what it is and the stored files.
 * One file is easy to carry to another disk, and SQLite's integrity check
 * covers the uploads as well as the messages.
 */
export const INFO_TABLE = 'hearth_backup_info';
export const FILES_TABLE = 'hearth_backup_files';

/** Keys of stored files (relative paths with `/`), as core/file-store.ts makes them. */
const FILE_KEY_PATTERN = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

export function isFileKey(key: string): boolean {
  return (
    FILE_KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '.' || part === '..')
  );
}

interface StoredFile {
  key: string;
  fullPath: string;
  size: number;
}

/** Every stored file, skipping file-store's half-written `.partial` files. */
async function storedFiles(filesDir: string): Promise<StoredFile[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(filesDir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: StoredFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.endsWith('.partial')) continue;
    const fullPath = path.join(entry.parentPath, entry.name);
    const key = path.relative(filesDir, fullPath).split(path.sep).join('/');
    if (!isFileKey(key)) continue;
    const size = await stat(fullPath).then(
      (s) => s.size,
      () => -1,
    );
    if (size >= 0) files.push({ key, fullPath, size });
  }
  return files;
}

/**
 * About the size of a backup made now: every page of the database (the
 * online backup copies free pages too) and every stored file, plus what
 * SQLite adds around the files' bytes (well under 1 % for large values).
 */
export async function estimateBackupBytes(db: Db, filesDir: string): Promise<number> {
  const databaseBytes =
    (db.pragma('page_count', { simple: true }) as number) *
    (db.pragma('page_size', { simple: true }) as number);
  const files = await storedFiles(filesDir);
  const fileBytes = files.reduce((sum, f) => sum + f.size, 0);
  return databaseBytes + Math.ceil(fileBytes * 1.01) + files.length * 64;
}

export interface WriteBackupOptions {
  destination: string;
  filesDir: string;
  createdAt: number;
  automatic: boolean;
  schemaVersion: number;
  /** 0..1 as the work advances. */
  onProgress(fraction: number): void;
  /** Checked between steps: true stops the backup (the server is closing). */
  aborted(): boolean;
}

/** Pages copied per step of the online backup; the event loop runs between steps. */
const PAGES_PER_STEP = 256;
/** Stored files go in per transaction up to about this many bytes. */
const FILE_BYTES_PER_COMMIT = 16 * 1024 * 1024;

export class BackupAborted extends Error {
  constructor() {
    super('The backup was stopped because the server is closing');
  }
}

/**
 * Copies the live database with SQLite's online backup through the server's
 * own connection: writes made meanwhile through that connection reach the
 * copy too, and the WAL's committed content is read like any other page, so
 * the copy is the database as of the moment the last step ran, with every
 * acknowledged message. Then the stored files join it. The file appears
 * under its name only when complete (temporary name, then rename).
 */
export async function writeBackup(db: Db, options: WriteBackupOptions): Promise<void> {
  const files = await storedFiles(options.filesDir);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const databaseBytes = (db.pragma('page_count', { simple: true }) as number) * pageSize;
  const fileBytes = files.reduce((sum, f) => sum + f.size, 0);
  const total = Math.max(1, databaseBytes + fileBytes);
  const report = (done: number) => options.onProgress(Math.min(1, done / total));

  const partial = path.join(
    path.dirname(options.destination),
    `.${path.basename(options.destination)}.partial`,
  );
  await rm(partial, { force: true });
  let copy: Db | null = null;
  try {
    // The copy holds password hashes and API keys: owner-only from its first byte
    // (SQLite would create it with the umask's mode).
    await (await open(partial, 'wx', 0o600)).close();
    await db.backup(partial, {
      progress({ totalPages, remainingPages }) {
        if (options.aborted()) throw new BackupAborted();
        report(totalPages === 0 ? 0 : ((totalPages - remainingPages) / totalPages) * databaseBytes);
        return PAGES_PER_STEP;
      },
    });
    if (options.aborted()) throw new BackupAborted();
    report(databaseBytes);

    copy = openSqliteFile(partial);
    // One self-contained file: no -wal beside it to lose when it is copied away.
    copy.pragma('journal_mode = DELETE');
    copy.exec(`
      CREATE TABLE ${INFO_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE ${FILES_TABLE} (key TEXT PRIMARY KEY, data BLOB NOT NULL);
    `);
    const setInfo = copy.prepare(`INSERT INTO ${INFO_TABLE} (key, value) VALUES (?, ?)`);
    setInfo.run('created_at', String(options.createdAt));
    setInfo.run('automatic', options.automatic ? '1' : '0');
    setInfo.run('includes_files', '1');
    setInfo.run('schema_version', String(options.schemaVersion));
    setInfo.run('hearth_version', HEARTH_VERSION);

    const addFile = copy.prepare(`INSERT INTO ${FILES_TABLE} (key, data) VALUES (?, ?)`);
    let done = databaseBytes;
    let pending = 0;
    copy.exec('BEGIN');
    for (const file of files) {
      if (options.aborted()) throw new BackupAborted();
      const data = await readFile(file.fullPath).catch((err: NodeJS.ErrnoException) => {
        // Deleted since the listing (its message was deleted): nothing to keep.
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (data !== null) {
        addFile.run(file.key, data);
        pending += data.length;
      }
      done += file.size;
      report(done);
      if (pending >= FILE_BYTES_PER_COMMIT) {
        copy.exec('COMMIT; BEGIN');
        pending = 0;
      }
    }
    copy.exec('COMMIT');
    copy.close();
    copy = null;
    await syncFile(partial);
    await rename(partial, options.destination);
    await syncFile(path.dirname(options.destination)).catch(() => {
      // Directories cannot be opened for syncing on Windows; the rename still happened.
    });
    report(total);
  } catch (err) {
    if (copy?.open) copy.close();
    await rm(partial, { force: true });
    throw err;
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface BackupInfo {
  createdAt: number | null;
  includesFiles: boolean;
}

/** What a backup says about itself, or null when it cannot be read as one. */
export function readBackupInfo(file: string): BackupInfo | null {
  let db: Db | null = null;
  try {
    db = openSqliteFile(file, { readonly: true, fileMustExist: true });
    const hasInfo = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(INFO_TABLE);
    if (!hasInfo) return { createdAt: null, includesFiles: false };
    const rows = db.prepare(`SELECT key, value FROM ${INFO_TABLE}`).all() as {
      key: string;
      value: string;
    }[];
    const info = new Map(rows.map((row) => [row.key, row.value]));
    const createdAt = Number(info.get('created_at'));
    return {
      createdAt: Number.isFinite(createdAt) ? createdAt : null,
      includesFiles: info.get('includes_files') === '1',
    };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
