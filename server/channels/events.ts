import type { AppContext, Tx } from '../core/context.js';
import { type StreamRow, streamById, subscriberIds } from '../db/queries/streams.js';
import { allUsers } from '../db/queries/users.js';
import { memoisePayload } from '../events/hub.js';
import type { EventQueue } from '../events/queue.js';
import { isAdmin, isGuest } from '../shared/roles.js';
import type { EventBody, StreamUpdateEvent } from '../shared/zulip-api/index.js';
import { formatChannel, hasChannelPermission } from './rules.js';

/**
 * Zulip's can_access_stream_metadata_user_ids: the active users who may know
 * the channel exists, and so receive its stream events and its subscribers'
 * peer events. Computed from one subscriber query rather than per user.
 */
export function channelAudience(ctx: AppContext, stream: StreamRow): Set<number> {
  const subscribers = new Set(subscriberIds(ctx.db, stream.id));
  const audience = new Set<number>();
  for (const user of allUsers(ctx.db)) {
    if (!user.is_active) continue;
    if (stream.is_web_public || subscribers.has(user.id)) audience.add(user.id);
    else if (isGuest(user)) continue;
    else if (!stream.invite_only || isAdmin(user)) audience.add(user.id);
    else if (
      hasChannelPermission(ctx, user, stream, 'can_administer_channel_group') ||
      hasChannelPermission(ctx, user, stream, 'can_add_subscribers_group') ||
      hasChannelPermission(ctx, user, stream, 'can_subscribe_group')
    ) {
      audience.add(user.id);
    }
  }
  return audience;
}

export const usersExcept = (users: Iterable<number>, excluded: Iterable<number>): number[] => {
  const skip = new Set(excluded);
  return [...users].filter((id) => !skip.has(id));
};

/** The `stream` create event for a channel as it is now. */
const channelCreatedEvent = (ctx: AppContext, stream: StreamRow) =>
  ({
    type: 'stream',
    op: 'create',
    streams: [formatChannel(ctx, stream)],
  }) satisfies EventBody<'stream', 'create'>;

/** `stream` op `create`, as of now (call after the channel's row is written). */
export function emitChannelCreated(
  ctx: AppContext,
  tx: Tx,
  streamId: number,
  users: Iterable<number>,
): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  const stream = streamById(ctx.db, streamId)!;
  tx.emit({
    type: 'stream',
    users: recipients,
    payload: channelCreatedEvent(ctx, stream),
  });
}

/**
 * A channel `users` may now see: the channel, then its subscribers, as Zulip
 * sends when a role change or a privacy change reveals it. Zulip's `create`
 * already counts the subscribers its `peer_add` then adds, so a client that
 * keeps `subscriber_count` with peer events, as the API asks (Zulip's own web
 * app among them), counts them twice; here the `create` counts none and the
 * `peer_add` brings the count to the fresh register's.
 */
export function emitChannelRevealed(
  ctx: AppContext,
  tx: Tx,
  streamId: number,
  users: Iterable<number>,
): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  const stream = streamById(ctx.db, streamId)!;
  const created = channelCreatedEvent(ctx, stream);
  for (const channel of created.streams) channel.subscriber_count = 0;
  tx.emit({ type: 'stream', users: recipients, payload: created });
  const subscribers = subscriberIds(ctx.db, streamId);
  if (subscribers.length === 0) return;
  tx.emit({
    type: 'subscription',
    users: recipients,
    payload: {
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [streamId],
      user_ids: subscribers,
    } satisfies EventBody<'subscription', 'peer_add'>,
  });
}

/** `stream` op `delete`: the users no longer know the channel. */
export function emitChannelGone(tx: Tx, streamId: number, users: Iterable<number>): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  tx.emit({
    type: 'stream',
    users: recipients,
    payload: {
      type: 'stream',
      op: 'delete',
      streams: [{ stream_id: streamId }],
      stream_ids: [streamId],
    } satisfies EventBody<'stream', 'delete'>,
  });
}

/** `stream` op `update` for one property. `name` is the channel's name before the change. */
export function emitChannelUpdate(
  tx: Tx,
  stream: Pick<StreamRow, 'id' | 'name'>,
  users: Iterable<number>,
  property: string,
  value: StreamUpdateEvent['value'],
  extra: Partial<
    Pick<
      StreamUpdateEvent,
      'rendered_description' | 'history_public_to_subscribers' | 'is_web_public'
    >
  > = {},
): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  tx.emit({
    type: 'stream',
    users: recipients,
    payload: {
      type: 'stream',
      op: 'update',
      stream_id: stream.id,
      name: stream.name,
      property,
      value,
      ...extra,
    } satisfies StreamUpdateEvent,
  });
}

/** The stream update event that flips `is_archived`, for clients that keep archived channels. */
const isArchivedUpdate = (stream: StreamRow, value: boolean) =>
  ({
    type: 'stream',
    op: 'update',
    stream_id: stream.id,
    name: stream.name,
    property: 'is_archived',
    value,
  }) satisfies StreamUpdateEvent;

/** The one queue option archiving's events depend on. */
const keepsArchivedChannels = (queue: EventQueue) =>
  queue.options.capabilities.archived_channels ? 1 : 0;

/**
 * Archiving (Zulip 11): clients that declared `archived_channels` keep the
 * channel and get `is_archived` = true; the others forget it.
 */
export function emitChannelArchived(tx: Tx, stream: StreamRow, users: Iterable<number>): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  tx.emit({
    type: 'stream',
    users: recipients,
    payload: memoisePayload(keepsArchivedChannels, (queue) =>
      queue.options.capabilities.archived_channels
        ? isArchivedUpdate(stream, true)
        : ({
            type: 'stream',
            op: 'delete',
            streams: [{ stream_id: stream.id }],
            stream_ids: [stream.id],
          } satisfies EventBody<'stream', 'delete'>),
    ),
  });
}

/** The reverse of emitChannelArchived: `is_archived` = false, or the channel anew. */
export function emitChannelUnarchived(
  ctx: AppContext,
  tx: Tx,
  streamId: number,
  users: Iterable<number>,
): void {
  const recipients = [...users];
  if (recipients.length === 0) return;
  const stream = streamById(ctx.db, streamId)!;
  const created = channelCreatedEvent(ctx, stream);
  tx.emit({
    type: 'stream',
    users: recipients,
    payload: memoisePayload(keepsArchivedChannels, (queue) =>
      queue.options.capabilities.archived_channels ? isArchivedUpdate(stream, false) : created,
    ),
  });
}

/**
 * `subscription` peer_add / peer_remove for the users whose subscription
 * changed, to everyone else who may see the channel's subscribers.
 */
export function emitPeerChange(
  ctx: AppContext,
  tx: Tx,
  op: 'peer_add' | 'peer_remove',
  stream: StreamRow,
  changedUserIds: readonly number[],
): void {
  if (changedUserIds.length === 0) return;
  const recipients = usersExcept(channelAudience(ctx, stream), changedUserIds);
  if (recipients.length === 0) return;
  tx.emit({
    type: 'subscription',
    users: recipients,
    payload: {
      type: 'subscription',
      op,
      stream_ids: [stream.id],
      user_ids: [...changedUserIds].sort((a, b) => a - b),
    } satisfies EventBody<'subscription', 'peer_add' | 'peer_remove'>,
  });
}
