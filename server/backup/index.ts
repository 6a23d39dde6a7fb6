/** Backups: now or daily, with the stored files; restore through a staged swap at restart. */

export { DEFAULT_SPACE_THRESHOLDS, type SpaceThresholds } from './disk-space.js';
export type { BackupEntry } from './folder.js';
export { backUpDataDirectory } from './offline.js';
export {
  backupProgress,
  createBackup,
  listBackups,
  removeBackup,
  restoreBackup,
  updateBackupSettings,
} from './operations.js';
export { applyStagedRestore } from './restore.js';
export {
  attachBackups,
  type BackupProgress,
  BackupService,
  type BackupSpace,
  backupsOf,
} from './service.js';
export type { BackupSettings } from './settings.js';
