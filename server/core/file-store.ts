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
  writeFileSync(temporary, data, { mode: 0o600 });
  renameSync(temporary, target);
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
