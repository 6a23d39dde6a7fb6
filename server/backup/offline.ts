import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../db/open.js';
import { writeBackup } from './archive.js';

/**
 * A backup of a data directory no server is running on (e.g. a command-line
 * `--backup FILE`): the same single-file format backup.restore accepts.
 * `destination` is taken as given; the caller decides where it may go.
 */
export async function backUpDataDirectory(
  dataDir: string,
  databaseFile: string,
  filesDirName: string,
  destination: string,
  now: number = Date.now(),
): Promise<void> {
  const db = openDatabase(path.join(dataDir, databaseFile));
  try {
    await mkdir(path.dirname(path.resolve(destination)), { recursive: true, mode: 0o700 });
    await writeBackup(db, {
      destination: path.resolve(destination),
      filesDir: path.join(dataDir, filesDirName),
      createdAt: now,
      automatic: false,
      schemaVersion: db.pragma('user_version', { simple: true }) as number,
      onProgress: () => {},
      aborted: () => false,
    });
  } finally {
    db.close();
  }
}
