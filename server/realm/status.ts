import type { AppContext } from '../core/context.js';
import { HEARTH_VERSION, ZULIP_VERSION } from '../core/version.js';
import { databaseBytes, serverCounts } from '../db/queries/server-stats.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';

/** The admin UI's Server status page: how long it has run, where, and how much it holds. */
export function serverStatus(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  const now = ctx.now();
  return {
    version: HEARTH_VERSION,
    zulipVersion: ZULIP_VERSION,
    url: ctx.config.externalUrl,
    startedAt: new Date(ctx.config.startedAtMs).toISOString(),
    uptimeSeconds: Math.floor((now - ctx.config.startedAtMs) / 1000),
    databaseBytes: databaseBytes(ctx.db),
    eventQueues: ctx.events.queueCount,
    ...serverCounts(ctx.db),
  };
}
