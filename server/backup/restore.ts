import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { latestSchemaVersion } from '../db/migrate.js';
import { type Db, openDatabase, openSqliteFile } from '../db/open.js';
import { FILES_TABLE, INFO_TABLE, isFileKey } from './archive.js';

/**
 * Restoring happens in two steps so that a refused or failed restore never
 * touches the live data, and the swap happens only while no connection is
 * open:
 *
 * 1. stageRestore (server running): copy the backup into
 *    <data dir>/restore-staging, check it, take its stored files out, bring
 *    its schema up to date, and mark it READY (the last write).
 * 2. applyStagedRestore (before the database opens, at every start): move
 *    the current database (with its -wal and -shm) and files aside into
 *    <data dir>/before-restore-<time>, move the staged ones in. Each move is
 *    a rename checked against what is already done, so a crash in the middle
 *    finishes the swap at the next start instead of mixing the two.
 */
const STAGING_DIR = 'restore-staging';
const READY_FILE = 'READY';
const STAGED_DATABASE = 'hearth.sqlite';
const STAGED_FILES = 'files';

export type RestoreRefusal = 'not_sqlite' | 'integrity' | 'not_hearth' | 'too_new';

export const restoreRefused = (reason: RestoreRefusal, msg: string) =>
  new ApiError(msg, { code: 'BAD_REQUEST', extra: { reason } });

/** Tables every Hearth database has had since the first migration. */
const HEARTH_TABLES = ['realm', 'users', 'streams', 'messages', 'subscriptions'];

interface ReadyMarker {
  /** Where the current data goes, relative to the data directory. */
  keptAs: string;
  includesFiles: boolean;
  source: string;
}

export interface StagePaths {
  dataDir: string;
  now: number;
}

/** Checks `backupFile` and prepares it to replace the live data at the next start. */
export async function stageRestore(paths: StagePaths, backupFile: string): Promise<void> {
  const staging = path.join(paths.dataDir, STAGING_DIR);
  // An earlier staged restore that never ran is replaced: READY goes first,
  // so a crash now leaves nothing that looks complete.
  await rm(path.join(staging, READY_FILE), { force: true });
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const incoming = path.join(staging, 'incoming.sqlite');
    await copyFile(backupFile, incoming);
    const includesFiles = await checkAndUnpack(incoming, path.join(staging, STAGED_FILES));
    // The migration runner the server uses, on the copy: it is current before it goes live.
    const migrated = openDatabase(incoming);
    try {
      migrated.pragma('journal_mode = DELETE');
    } finally {
      migrated.close();
    }
    await syncPath(incoming);
    await rename(incoming, path.join(staging, STAGED_DATABASE));
    const stamp = new Date(paths.now).toISOString().replace(/[:.]/g, '-');
    const marker: ReadyMarker = {
      keptAs: `before-restore-${stamp}-${randomBytes(3).toString('hex')}`,
      includesFiles,
      source: path.basename(backupFile),
    };
    const readyTemp = path.join(staging, `${READY_FILE}.partial`);
    await writeFile(readyTemp, JSON.stringify(marker), { mode: 0o600 });
    await syncPath(readyTemp);
    await rename(readyTemp, path.join(staging, READY_FILE));
    await syncPath(staging).catch(() => {});
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Stages a database and files built elsewhere (an organization imported
 * from Zulip by the desktop's first-run wizard) exactly as a checked
 * backup is staged: the next start swaps them in and keeps what was there.
 * The database must be a single file (journal mode DELETE) at the current
 * schema; both are moved, not copied.
 */
export async function stagePreparedData(
  paths: StagePaths,
  prepared: { databaseFile: string; filesDir: string; source: string },
): Promise<void> {
  const staging = path.join(paths.dataDir, STAGING_DIR);
  await rm(path.join(staging, READY_FILE), { force: true });
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    await rename(prepared.databaseFile, path.join(staging, STAGED_DATABASE));
    await rename(prepared.filesDir, path.join(staging, STAGED_FILES));
    const stamp = new Date(paths.now).toISOString().replace(/[:.]/g, '-');
    const marker: ReadyMarker = {
      keptAs: `before-import-${stamp}-${randomBytes(3).toString('hex')}`,
      includesFiles: true,
      source: prepared.source,
    };
    const readyTemp = path.join(staging, `${READY_FILE}.partial`);
    await writeFile(readyTemp, JSON.stringify(marker), { mode: 0o600 });
    await syncPath(readyTemp);
    await rename(readyTemp, path.join(staging, READY_FILE));
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Refuses anything but an intact Hearth database this build can read, then
 * writes its stored files under `filesDir` and leaves a plain database
 * behind. Answers whether the backup carried files.
 */
async function checkAndUnpack(file: string, filesDir: string): Promise<boolean> {
  let db: Db;
  try {
    db = openSqliteFile(file, { fileMustExist: true });
  } catch {
    throw restoreRefused('not_sqlite', 'This file is not a SQLite database');
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map(
        (row) => row.integrity_check,
      );
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'SQLITE_NOTADB') {
        throw restoreRefused('not_sqlite', 'This file is not a SQLite database');
      }
      throw restoreRefused('integrity', `This backup is damaged: ${(err as Error).message}`);
    }
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw restoreRefused(
        'integrity',
        `This backup failed its integrity check: ${problems.slice(0, 3).join('; ')}`,
      );
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = new Set(
      (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string;
        }[]
      ).map((row) => row.name),
    );
    if (version < 1 || HEARTH_TABLES.some((table) => !tables.has(table))) {
      throw restoreRefused('not_hearth', 'This file is not a Hearth backup');
    }
    const latest = latestSchemaVersion();
    if (version > latest) {
      throw restoreRefused(
        'too_new',
        `This backup was made by a newer Hearth (schema version ${version}; this Hearth knows up to ${latest}). Upgrade Hearth to restore it.`,
      );
    }
    const includesFiles = tables.has(FILES_TABLE);
    if (includesFiles) {
      const rows = db.prepare(`SELECT key, data FROM ${FILES_TABLE}`).iterate() as Iterable<{
        key: string;
        data: Buffer;
      }>;
      for (const row of rows) {
        if (!isFileKey(row.key)) {
          throw restoreRefused(
            'not_hearth',
            `This backup holds a file with a bad name: ${row.key}`,
          );
        }
        const target = path.join(filesDir, ...row.key.split('/'));
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await writeFile(target, row.data, { mode: 0o600 });
      }
    } else {
      await mkdir(filesDir, { recursive: true, mode: 0o700 });
    }
    // The live database carries only Hearth's own tables; VACUUM returns the files' pages.
    db.exec(`DROP TABLE IF EXISTS ${FILES_TABLE}; DROP TABLE IF EXISTS ${INFO_TABLE};`);
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
    return includesFiles;
  } finally {
    db.close();
  }
}

async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Swaps a staged restore in; call only while the database is closed.
 * Answers where the previous data was kept (null when nothing was staged).
 */
export function applyStagedRestore(
  dataDir: string,
  databaseFile: string,
  filesDirName: string,
  log: Logger,
): string | null {
  const staging = path.join(dataDir, STAGING_DIR);
  const readyPath = path.join(staging, READY_FILE);
  if (!existsSync(readyPath)) {
    // A restore that was still being checked when the process stopped: it never counted.
    rmSync(staging, { recursive: true, force: true });
    return null;
  }
  const marker = JSON.parse(readFileSync(readyPath, 'utf8')) as ReadyMarker;
  const kept = path.join(dataDir, path.basename(marker.keptAs));
  mkdirSync(kept, { recursive: true, mode: 0o700 });

  const stagedDatabase = path.join(staging, STAGED_DATABASE);
  if (existsSync(stagedDatabase)) {
    const live = path.join(dataDir, databaseFile);
    // The -wal may hold committed transactions of the old database: it moves with it,
    // and must never sit beside the restored one.
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      if (existsSync(live + suffix))
        renameSync(live + suffix, path.join(kept, databaseFile + suffix));
    }
    renameSync(stagedDatabase, live);
  }
  const stagedFiles = path.join(staging, STAGED_FILES);
  if (marker.includesFiles && existsSync(stagedFiles)) {
    const liveFiles = path.join(dataDir, filesDirName);
    if (existsSync(liveFiles)) renameSync(liveFiles, path.join(kept, filesDirName));
    renameSync(stagedFiles, liveFiles);
  }
  rmSync(readyPath, { force: true });
  rmSync(staging, { recursive: true, force: true });
  log.info(`Restored ${marker.source}; the previous data is kept in ${kept}`);
  return kept;
}
