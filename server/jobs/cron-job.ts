import { createTask, type ScheduledTask } from 'node-cron';
import type { Logger } from '../core/context.js';

/**
 * A node-cron job in the server's own process and event loop, so a run never
 * overlaps an HTTP write. A run that throws (or rejects) is logged and the
 * next tick tries again; a late or missed tick is harmless, since every job
 * does whatever has become due by then.
 */
export function startCronJob(
  name: string,
  schedule: string,
  log: Logger,
  run: () => unknown,
): ScheduledTask {
  const task = createTask(
    schedule,
    async () => {
      try {
        await run();
      } catch (err) {
        log.error(`${name} failed`, err);
      }
    },
    {
      name,
      noOverlap: true,
      // A test or CLI that forgets close() still exits.
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
