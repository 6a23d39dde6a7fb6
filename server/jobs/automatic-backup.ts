import type { ScheduledTask } from 'node-cron';
import type { BackupService } from '../backup/index.js';
import type { Logger } from '../core/context.js';
import { startCronJob } from './cron-job.js';

/**
 * Once a minute (node-cron's seconds field first): the check is cheap, and
 * checking often rather than firing once at the hour lets a laptop that
 * slept through the night make the day's backup when it wakes.
 */
export const DEFAULT_BACKUP_CHECK_SCHEDULE = '0 * * * * *';

/**
 * The cron job that starts the daily automatic backup when it is due (see
 * BackupService.runDue). A failed check (an unreadable backup folder, say)
 * is retried at the next.
 */
export function startAutomaticBackups(
  backups: BackupService,
  schedule: string,
  log: Logger,
): ScheduledTask {
  return startCronJob('automatic backup check', schedule, log, () => backups.runDue());
}
