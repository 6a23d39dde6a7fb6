import type { AppContext } from '../core/context.js';
import { recentLogLines } from '../core/log.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';

export const DEFAULT_LOG_LINES = 200;
export const MAX_LOG_LINES = 2000;

/** The newest lines of the server's log, oldest first (owners only: paths reveal activity). */
export async function recentLogs(
  ctx: AppContext,
  actor: UserRow,
  lines = DEFAULT_LOG_LINES,
): Promise<{ lines: string[] }> {
  requireRole(actor, 'owner');
  if (!ctx.config.logFile) return { lines: [] };
  await ctx.log.flush?.();
  return { lines: recentLogLines(ctx.config.logFile, lines) };
}
