import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../core/errors.js';

/** Automatic backups: on or off, the local hour they run at, how many are kept, where they go. */
export interface BackupSettings {
  enabled: boolean;
  /** 0..23, in the server machine's local time. */
  hour: number;
  /** Automatic backups kept; older ones are removed. Manual backups are never removed. */
  keep: number;
  /** An absolute path. */
  folder: string;
}

export const MAX_BACKUPS_KEPT = 365;
const SETTINGS_FILE = 'backup-settings.json';

/**
 * Off until an owner turns them on: a headless server's disk (or a test's
 * temporary directory) should not fill with copies nobody asked for.
 */
export function defaultSettings(dataDir: string): BackupSettings {
  return { enabled: false, hour: 3, keep: 7, folder: path.join(dataDir, 'backups') };
}

/**
 * Settings live in a file of the data directory, not in the database: they
 * describe this machine (a folder path), and restoring an old backup must not
 * turn backups off or point them at a folder that no longer exists.
 */
export async function loadSettings(dataDir: string): Promise<BackupSettings> {
  const defaults = defaultSettings(dataDir);
  let stored: unknown;
  try {
    stored = JSON.parse(await readFile(path.join(dataDir, SETTINGS_FILE), 'utf8'));
  } catch {
    return defaults;
  }
  if (typeof stored !== 'object' || stored === null) return defaults;
  const s = stored as Partial<Record<keyof BackupSettings, unknown>>;
  return {
    enabled: typeof s.enabled === 'boolean' ? s.enabled : defaults.enabled,
    hour: isHour(s.hour) ? s.hour : defaults.hour,
    keep: isKeepCount(s.keep) ? s.keep : defaults.keep,
    folder: typeof s.folder === 'string' && path.isAbsolute(s.folder) ? s.folder : defaults.folder,
  };
}

export async function saveSettings(dataDir: string, settings: BackupSettings): Promise<void> {
  const target = path.join(dataDir, SETTINGS_FILE);
  const temporary = `${target}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, target);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

const isHour = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 23;

const isKeepCount = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_BACKUPS_KEPT;

/** Checks a change and prepares its folder; answers the settings to store. */
export async function mergeSettings(
  current: BackupSettings,
  change: Partial<BackupSettings>,
  filesDir: string,
): Promise<BackupSettings> {
  const next = { ...current };
  if (change.enabled !== undefined) next.enabled = change.enabled;
  if (change.hour !== undefined) {
    if (!isHour(change.hour)) throw badRequest('Invalid hour: must be an integer from 0 to 23');
    next.hour = change.hour;
  }
  if (change.keep !== undefined) {
    if (!isKeepCount(change.keep)) {
      throw badRequest(`Invalid keep: must be an integer from 1 to ${MAX_BACKUPS_KEPT}`);
    }
    next.keep = change.keep;
  }
  if (change.folder !== undefined && change.folder !== current.folder) {
    next.folder = await usableFolder(change.folder, filesDir);
  }
  return next;
}

/** An absolute folder Hearth can write to, outside the stored files (which every backup copies). */
async function usableFolder(folder: string, filesDir: string): Promise<string> {
  if (folder.trim() === '' || folder.includes('\0') || !path.isAbsolute(folder)) {
    throw badRequest('Invalid folder: must be an absolute path');
  }
  const resolved = path.resolve(folder);
  const relative = path.relative(filesDir, resolved);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw badRequest('Invalid folder: backups cannot be kept among the uploaded files');
  }
  try {
    await mkdir(resolved, { recursive: true, mode: 0o700 });
    await access(resolved, constants.W_OK);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw badRequest(`Invalid folder: cannot write to ${resolved} (${reason})`);
  }
  return resolved;
}
