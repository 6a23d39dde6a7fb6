import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';
import type { BackupEntry } from './folder.js';
import { type BackupProgress, type BackupSpace, backupsOf } from './service.js';
import type { BackupSettings } from './settings.js';

/*
 * What the admin door calls. A backup holds every message, password hash and
 * API key of the organization, so each operation is for owners only.
 */

export async function listBackups(
  ctx: AppContext,
  actor: UserRow,
): Promise<{ backups: BackupEntry[]; settings: BackupSettings; space: BackupSpace }> {
  requireRole(actor, 'owner');
  return backupsOf(ctx).list();
}

export function createBackup(ctx: AppContext, actor: UserRow): { id: string } {
  requireRole(actor, 'owner');
  return { id: backupsOf(ctx).start(false) };
}

export function backupProgress(ctx: AppContext, actor: UserRow, id: string): BackupProgress {
  requireRole(actor, 'owner');
  return backupsOf(ctx).progress(id);
}

export async function updateBackupSettings(
  ctx: AppContext,
  actor: UserRow,
  change: Partial<BackupSettings>,
): Promise<BackupSettings> {
  requireRole(actor, 'owner');
  return backupsOf(ctx).updateSettings(change);
}

export async function restoreBackup(
  ctx: AppContext,
  actor: UserRow,
  file: string,
): Promise<{ restartRequired: boolean }> {
  requireRole(actor, 'owner');
  return backupsOf(ctx).restore(file);
}

export async function removeBackup(ctx: AppContext, actor: UserRow, file: string): Promise<void> {
  requireRole(actor, 'owner');
  await backupsOf(ctx).remove(file);
}
