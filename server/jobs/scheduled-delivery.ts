import { createTask, type ScheduledTask } from 'node-cron';
import type { AppContext } from '../core/context.js';
import { deliverDue } from '../scheduled/index.js';

/** Every 5 seconds: a message or reminder goes out at most this late (node-cron's seconds field). */
export const DEFAULT_DELIVERY_SCHEDULE = '*/5 * * * * *';

/**
 * The cron job that sends due scheduled messages and reminders. It runs in the server's
 * process and event loop, so a delivery never overlaps an HTTP write.
 */
export function startScheduledDelivery(ctx: AppContext, schedule: string): ScheduledTask {
  const task = createTask(
    schedule,
    () => {
      try {
        deliverDue(ctx);
      } catch (err) {
        // A broken run must not stop later ones; the next tick tries again.
        ctx.log.error('scheduled message delivery run failed', err);
      }
    },
    {
      name: 'scheduled-message-delivery',
      noOverlap: true,
      // A test or CLI that forgets close() still exits.
      unref: true,
      // A late tick is harmless: the next one sends whatever is due.
      suppressMissedWarning: true,
      logger: {
        info: () => {},
        debug: () => {},
        warn: (message) => ctx.log.warn(`scheduler: ${message}`),
        error: (message, err) => ctx.log.error(`scheduler: ${String(message)}`, err),
      },
    },
  );
  task.start();
  return task;
}
