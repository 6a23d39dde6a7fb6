import { mkdir } from 'node:fs/promises';
import { backupsOf } from '../backup/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';
import type { DesktopHost } from './status.js';

export type FolderName = 'data' | 'backups';

/**
 * Shows the data directory or the backup folder on the desktop. Only the
 * desktop app can: a browser's server may run on another machine, whose
 * file manager nobody would see. The backup folder is made if no backup has
 * been written yet, so the owner can see where they will go.
 */
export async function openFolder(
  ctx: AppContext,
  actor: UserRow,
  which: FolderName,
  desktop: DesktopHost | undefined,
): Promise<void> {
  requireRole(actor, 'owner');
  if (!desktop) throw badRequest('Folders can be opened only in the desktop app');
  let folder = ctx.config.dataDir;
  if (which === 'backups') {
    folder = (await backupsOf(ctx).list()).settings.folder;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw badRequest(`Could not create ${folder}: ${(err as Error).message}`);
    }
  }
  const error = await desktop.openFolder(folder);
  if (error) throw badRequest(`Could not open ${folder}: ${error}`);
}
