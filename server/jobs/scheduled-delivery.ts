import type { ScheduledTask } from 'node-cron';
import type { AppContext } from '../core/context.js';
import { deliverDue } from '../scheduled/index.js';
import { startCronJob } from './cron-job.js';

/** Every 5 seconds: a message or reminder goes out at most this late (node-cron's seconds field). */
export const DEFAULT_DELIVERY_SCHEDULE = '*/5 * * * * *';

/** The cron job that sends due scheduled messages and reminders. */
export function startScheduledDelivery(ctx: AppContext, schedule: string): ScheduledTask {
  return startCronJob('scheduled message delivery', schedule, ctx.log, () => deliverDue(ctx));
}
