import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../core/errors.js';
import { readBackupInfo } from './archive.js';

/** One backup file as the admin UI lists it. */
export interface BackupEntry {
  /** The file name inside the backup folder: the only way to name a backup. */
  file: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  sizeBytes: number;
  automatic: boolean;
  includesFiles: boolean;
}

/**
 * hearth-backup-20250102-030405-678[-auto][-2].sqlite: the time (UTC) sorts
 * and dates the file without opening it; `-auto` marks the copies retention
 * may remove. Nothing else in the folder is ever listed, restored or removed,
 * so pointing the folder at a directory with other files in it is harmless.
 */
const NAME_PATTERN =
  /^hearth-backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})(-auto)?(?:-\d+)?\.sqlite$/;

export function backupFileName(createdAt: number, automatic: boolean, attempt = 0): string {
  const iso = new Date(createdAt).toISOString(); // 2025-01-02T03:04:05.678Z
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`;
  return `hearth-backup-${stamp}${automatic ? '-auto' : ''}${attempt > 0 ? `-${attempt}` : ''}.sqlite`;
}

function parseName(file: string): { createdAt: number; automatic: boolean } | null {
  const match = NAME_PATTERN.exec(file);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, ms, auto] = match;
  const createdAt = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, +ms!);
  return Number.isNaN(createdAt) ? null : { createdAt, automatic: auto !== undefined };
}

export const noSuchBackup = () =>
  new ApiError('No such backup', { code: 'BAD_REQUEST', extra: { reason: 'not_found' } });

/**
 * The path of a backup named by a client: a bare name of the backup pattern
 * (no separators, so no way out of the folder) that is a regular file there,
 * not a link to somewhere else.
 */
export async function resolveBackupFile(folder: string, file: string): Promise<string> {
  if (file.includes('/') || file.includes('\\') || parseName(file) === null) {
    throw noSuchBackup();
  }
  const full = path.join(folder, file);
  try {
    if ((await lstat(full)).isFile()) return full;
  } catch {
    // Missing or unreadable: the same answer as a name that never existed.
  }
  throw noSuchBackup();
}

/** Every backup in the folder, newest first (an unreadable folder has none). */
export async function listBackupFiles(folder: string): Promise<BackupEntry[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    // Missing, unplugged or not a folder: nothing to list. Settings stay reachable so the
    // owner can point them elsewhere; a backup into it fails with the reason.
    return [];
  }
  const entries: BackupEntry[] = [];
  for (const file of names) {
    const named = parseName(file);
    if (named === null) continue;
    const full = path.join(folder, file);
    const stats = await lstat(full).catch(() => null);
    if (!stats?.isFile()) continue;
    const info = readBackupInfo(full);
    entries.push({
      file,
      createdAt: info?.createdAt ?? named.createdAt,
      sizeBytes: stats.size,
      automatic: named.automatic,
      includesFiles: info?.includesFiles ?? false,
    });
  }
  return entries.sort((a, b) => b.createdAt - a.createdAt || b.file.localeCompare(a.file));
}

/** Removes half-written backups a stopped process left (only while none is being written). */
export async function removeAbandonedPartials(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith('.') && name.endsWith('.partial') && parseName(name.slice(1, -8))) {
      await rm(path.join(folder, name), { force: true });
    }
  }
}

/** Removes the oldest automatic backups beyond `keep`; manual ones are the owner's to remove. */
export async function pruneAutomaticBackups(folder: string, keep: number): Promise<string[]> {
  const automatic = (await listBackupFiles(folder)).filter((entry) => entry.automatic);
  const removed: string[] = [];
  for (const entry of automatic.slice(keep)) {
    await rm(path.join(folder, entry.file), { force: true });
    removed.push(entry.file);
  }
  return removed;
}

/** When the newest automatic backup in the folder was made (0 if none). */
export async function latestAutomaticBackupAt(folder: string): Promise<number> {
  const newest = (await listBackupFiles(folder)).find((entry) => entry.automatic);
  return newest?.createdAt ?? 0;
}
