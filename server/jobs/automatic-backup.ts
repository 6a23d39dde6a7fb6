import { createTask, type ScheduledTask } from 'node-cron';
import type { BackupService } from '../backup/index.js';
import type { Logger } from '../core/context.js';

/**
 * Once a minute (node-cron's seconds field first): the check is cheap, and
 * checking often rather than firing once at the hour lets a laptop that
 * slept through the night make the day's backup when it wakes.
 */
export const DEFAULT_BACKUP_CHECK_SCHEDULE = '0 * * * * *';

/** The cron job that starts the daily automatic backup when it is due (see BackupService.runDue). */
export function startAutomaticBackups(
  backups: BackupService,
  schedule: string,
  log: Logger,
): ScheduledTask {
  const task = createTask(
    schedule,
    async () => {
      try {
        await backups.runDue();
      } catch (err) {
        // E.g. an unreadable backup folder: the next check tries again.
        log.error('automatic backup check failed', err);
      }
    },
    {
      name: 'automatic-backup',
      noOverlap: true,
      unref: true,
      suppressMissedWarning: true,
      logger: {
        info: () => {},
        debug: () => {},
        warn: (message) => log.warn(`scheduler: ${message}`),
        error: (message, err) => log.error(`scheduler: ${String(message)}`, err),
      },
    },
  );
  task.start();
  return task;
}
