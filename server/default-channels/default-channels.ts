import { accessChannelById, emitDefaultStreams } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  addDefaultStream,
  defaultStreamIds,
  isDefaultStream,
  removeDefaultStream,
} from '../db/queries/default-streams.js';
import { type StreamRow, streamById } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';

/**
 * POST /default_streams (administrators: Zulip's can_manage_default_streams).
 * The channel must be one the administrator can read; already default is
 * a success that tells nobody.
 */
export function addDefaultChannel(
  ctx: AppContext,
  actor: UserRow,
  streamId: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  const stream = accessChannelById(ctx, actor, streamId);
  if (stream.invite_only) throw badRequest('Private channels cannot be made default.');
  ctx.transaction((tx) => {
    if (isDefaultStream(ctx.db, stream.id)) return;
    addDefaultStream(ctx.db, stream.id);
    emitDefaultStreams(ctx, tx);
  });
  return {};
}

/**
 * DELETE /default_streams (administrators). Knowing the channel is enough;
 * like Zulip, everyone hears the list even when it did not change.
 */
export function removeDefaultChannel(
  ctx: AppContext,
  actor: UserRow,
  streamId: number,
): Record<string, never> {
  requireRole(actor, 'admin');
  const stream = accessChannelById(ctx, actor, streamId, { requireContentAccess: false });
  ctx.transaction((tx) => {
    removeDefaultStream(ctx.db, stream.id);
    emitDefaultStreams(ctx, tx);
  });
  return {};
}

/** The channels a new account is subscribed to (archived ones never are default). */
export function defaultChannels(ctx: AppContext): StreamRow[] {
  return defaultStreamIds(ctx.db)
    .map((id) => streamById(ctx.db, id))
    .filter((s): s is StreamRow => s !== undefined && !s.is_archived);
}
