import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context.js';

/**
 * Stored files (uploads, custom emoji, avatars) under `config.filesDir`,
 * addressed by a relative key the server made up: a path from a client never
 * reaches the file system. Files are written whole before they are visible
 * (temporary name, then rename), so a crash leaves no half file under a key.
 */

/**
 * What the store needs of a context: where the files are. A whole
 * AppContext is one; so is a folder being staged (an import).
 */
export type FileStoreHost = { config: Pick<AppContext['config'], 'filesDir'> };

/** A fresh key under `area` (e.g. "uploads/ab/3f9c...") ending in `suffix`. */
export function newFileKey(area: string, suffix = ''): string {
  const token = randomBytes(12).toString('hex');
  return `${area}/${token.slice(0, 2)}/${token.slice(2)}${suffix}`;
}

const KEY_PATTERN = /^[a-z0-9-]+(?:\/[A-Za-z0-9_.-]+)+$/;

/** The absolute path of `key`, or null for anything that is not a key this module makes. */
export function storedFilePath(ctx: FileStoreHost, key: string): string | null {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    return null;
  }
  return path.join(ctx.config.filesDir, key);
}

export function writeStoredFile(ctx: FileStoreHost, key: string, data: Buffer): void {
  const target = storedFilePath(ctx, key);
  if (target === null) throw new Error(`not a file key: ${key}`);
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temporary = `${target}.${randomBytes(4).toString('hex')}.partial`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, target);
  } catch (err) {
    // A full disk stops the write part-way: no half file stays behind.
    rmSync(temporary, { force: true });
    throw err;
  }
}

/**
 * Writes several files that belong together (an image and its still
 * frame, an avatar's two sizes): all of them, or, if one fails, none.
 */
export function writeStoredFiles(
  ctx: AppContext,
  files: ReadonlyArray<{ key: string; data: Buffer }>,
): void {
  const written: string[] = [];
  try {
    for (const { key, data } of files) {
      writeStoredFile(ctx, key, data);
      written.push(key);
    }
  } catch (err) {
    for (const key of written) removeStoredFile(ctx, key);
    throw err;
  }
}

export function storedFileExists(ctx: FileStoreHost, key: string): boolean {
  const target = storedFilePath(ctx, key);
  return target !== null && existsSync(target);
}

/** Removes the file if it is there (deleting is idempotent). */
export function removeStoredFile(ctx: FileStoreHost, key: string): void {
  const target = storedFilePath(ctx, key);
  if (target !== null) rmSync(target, { force: true });
}

/**
 * Where the file parts of a request are written while they arrive
 * (http/multipart-body.ts), named `.partial` so backups skip them. Nothing
 * in it outlives its request; what a crash left is removed at start.
 */
export const INCOMING_FILES_AREA = 'incoming';

/** A fresh path for one arriving file part (the folder is made if missing). */
export function newIncomingFilePath(ctx: AppContext): string {
  const folder = path.join(ctx.config.filesDir, INCOMING_FILES_AREA);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return path.join(folder, `${randomBytes(12).toString('hex')}.partial`);
}

/** Removes every incoming file (at start: no request is in flight). */
export function clearIncomingFiles(ctx: AppContext): void {
  rmSync(path.join(ctx.config.filesDir, INCOMING_FILES_AREA), { recursive: true, force: true });
}

/**
 * Moves a file already on disk (an incoming file part) under `key`, whole:
 * a rename within the data directory, so nothing is copied or half there.
 */
export function storeFileFrom(ctx: AppContext, key: string, source: string): void {
  const target = storedFilePath(ctx, key);
  if (target === null) throw new Error(`not a file key: ${key}`);
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  renameSync(source, target);
}
