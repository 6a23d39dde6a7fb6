import type { ScheduledTask } from 'node-cron';
import type { AppContext } from '../core/context.js';
import { deleteOldUnclaimedUploads } from '../uploads/index.js';
import { startCronJob } from './cron-job.js';

/**
 * Hourly (minute 23): the query is cheap, and a machine that sleeps at night
 * still gets its turn.
 */
export const DEFAULT_UNCLAIMED_UPLOADS_SCHEDULE = '0 23 * * * *';

/** The cron job that deletes uploads no message claimed in time. */
export function startUnclaimedUploadCleanup(ctx: AppContext, schedule: string): ScheduledTask {
  return startCronJob('unclaimed upload cleanup', schedule, ctx.log, () =>
    deleteOldUnclaimedUploads(ctx),
  );
}
