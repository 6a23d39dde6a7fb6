import type { BackupService } from '../backup/index.js';
import type { Logger } from '../core/context.js';
import { type PeriodicJob, startPeriodicJob } from './periodic.js';

/**
 * Once a minute: the check is cheap, and checking often rather than firing
 * once at the hour lets a laptop that slept through the night make the
 * day's backup when it wakes.
 */
export const DEFAULT_BACKUP_CHECK_INTERVAL_MS = 60_000;

/** The job that starts the daily automatic backup when it is due (see BackupService.runDue). */
export function startAutomaticBackups(
  backups: BackupService,
  intervalMs: number,
  log: Logger,
): PeriodicJob {
  return startPeriodicJob(
    intervalMs,
    () => backups.runDue(),
    // E.g. an unreadable backup folder: the next check tries again.
    (err) => log.error('automatic backup check failed', err),
  );
}
