import type { ScheduledTask } from 'node-cron';
import type { AppContext } from '../core/context.js';
import { indexSearchBacklog } from '../narrow/index.js';
import { startCronJob } from './cron-job.js';

/**
 * Every second: the search index trails the sends by at most about that
 * (db/queries/search-index.ts), and a search catches up first anyway.
 */
export const DEFAULT_SEARCH_INDEXING_SCHEDULE = '* * * * * *';

/** The job that adds sent messages to the search index in batches. */
export function startSearchIndexing(ctx: AppContext, schedule: string): ScheduledTask {
  return startCronJob('search indexing', schedule, ctx.log, () => indexSearchBacklog(ctx));
}
