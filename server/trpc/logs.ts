import { z } from 'zod';
import { DEFAULT_LOG_LINES, MAX_LOG_LINES, recentLogs } from '../hosting/index.js';
import { procedure, router } from './init.js';

/** The server's log file, newest lines last. */
export const logsRouter = router({
  recent: procedure
    .input(
      z
        .object({ lines: z.number().int().min(1).max(MAX_LOG_LINES).default(DEFAULT_LOG_LINES) })
        .default({ lines: DEFAULT_LOG_LINES }),
    )
    .query(({ ctx, input }) => recentLogs(ctx.app, ctx.actor, input.lines)),
});
