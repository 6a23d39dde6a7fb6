import type { AppContext, Tx } from '../core/context.js';
import { allStreams, streamById, subscribedStreamIds } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { emitChannelGone, emitChannelRevealed, emitPeerChange } from './events.js';
import { hasMetadataAccess } from './rules.js';

/* What a change to a user (role, activation) changes about the channels others and they see. */

/**
 * Subscriber lists leave deactivated users out, so (de)activation reads to
 * everyone who sees a channel's subscribers as the user leaving or joining it.
 */
export function emitSubscriberActivation(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  op: 'peer_add' | 'peer_remove',
): void {
  for (const streamId of subscribedStreamIds(ctx.db, userId)) {
    emitPeerChange(ctx, tx, op, streamById(ctx.db, streamId)!, [userId]);
  }
}

/** The active channels `user` may know about, with the role they have at the moment. */
export const channelsVisibleTo = (ctx: AppContext, user: UserRow) =>
  new Set(
    allStreams(ctx.db)
      .filter((s) => !s.is_archived && hasMetadataAccess(ctx, user, s))
      .map((s) => s.id),
  );

/**
 * Zulip's send_stream_events_for_role_update: the channels a new role shows
 * arrive with their subscribers, the ones it hides are withdrawn.
 */
export function emitRoleVisibilityChange(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  before: Set<number>,
): void {
  const after = channelsVisibleTo(ctx, user);
  for (const streamId of after) {
    if (!before.has(streamId)) emitChannelRevealed(ctx, tx, streamId, [user.id]);
  }
  for (const streamId of before) {
    if (!after.has(streamId)) emitChannelGone(tx, streamId, [user.id]);
  }
}
