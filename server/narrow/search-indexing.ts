import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../core/context.js';
import {
  indexSearchBacklog as indexBatch,
  SEARCH_INDEX_BATCH,
} from '../db/queries/search-index.js';

/**
 * Indexes every message sent since the last run, a batch per event-loop
 * turn so that sends and polls go on in between (the search indexing job).
 * Returns how many it indexed.
 */
export async function indexSearchBacklog(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const indexed = indexBatch(ctx.db);
    total += indexed;
    // A batch short of full has caught up: no query for an empty backlog.
    if (indexed < SEARCH_INDEX_BATCH || !ctx.db.open) return total;
    await nextTurn();
  }
}
