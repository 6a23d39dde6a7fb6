import {
  type ChannelBlueprint,
  type ChannelCreationOptions,
  checkChannelName,
  emitChannelCreated,
  emitChannelGone,
  emitPeerChange,
  formatSubscription,
  hasChannelPermission,
  hasContentAccess,
  hasMetadataAccess,
  hasOrganizationOrChannelPermission,
  insertChannel,
  isSubscribed,
  normalizeDescription,
  pickColor,
  plainChannelOptions,
  prepareChannelCreation,
  weeklyTraffic,
} from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest, insufficientPermission, targetUserDeactivated } from '../core/errors.js';
import {
  deactivateSubscription,
  insertSubscription,
  type StreamRow,
  streamById,
  streamByName,
  subscriberIds,
  subscriptionOf,
  subscriptionsOfUser,
} from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { markConversationRead } from '../flags/index.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, isGuest, requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import {
  accessUserByEmail,
  apiEmail,
  emitAccessGained,
  emitAccessLost,
  peersBeforeChange,
} from '../users/index.js';

export type Principals = number[] | string[];

/** Zulip's bulk_principals_to_user_profiles: existing, active users (bots included). */
export function resolvePrincipals(
  ctx: AppContext,
  actor: UserRow,
  principals: Principals,
): UserRow[] {
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    let user: UserRow | undefined;
    if (typeof principal === 'number') {
      user = userById(ctx.db, principal);
      if (!user) throw badRequest(`Invalid user ID: ${principal}`);
    } else {
      user = accessUserByEmail(ctx, actor, principal);
    }
    if (!user.is_active) throw targetUserDeactivated();
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** Whether the principals name anyone but the caller, before looking them up. */
export function namesOthers(ctx: AppContext, actor: UserRow, principals: Principals): boolean {
  const own = new Set([
    actor.delivery_email.toLowerCase(),
    apiEmail(actor, loadRealm(ctx).row.email_domain).toLowerCase(),
  ]);
  return principals.some((p) =>
    typeof p === 'number' ? p !== actor.id : !own.has(p.trim().toLowerCase()),
  );
}

/**
 * Zulip's get_streams_to_which_user_cannot_add_subscribers, inverted: the
 * organization-wide permission, administrators, or the channel's own groups.
 */
export function canAddSubscribers(ctx: AppContext, actor: UserRow, stream: StreamRow): boolean {
  if (isGuest(actor)) return false;
  return hasOrganizationOrChannelPermission(
    ctx,
    actor,
    stream,
    'can_add_subscribers_group',
    'can_add_subscribers_group',
  );
}

/** Zulip's bulk_can_remove_subscribers_from_streams. */
export function canRemoveSubscribers(
  ctx: AppContext,
  actor: UserRow,
  streams: StreamRow[],
): boolean {
  if (isAdmin(actor)) return true;
  if (isGuest(actor)) return false;
  if (streams.every((s) => hasChannelPermission(ctx, actor, s, 'can_administer_channel_group'))) {
    return true;
  }
  return streams.every(
    (s) =>
      hasMetadataAccess(ctx, actor, s) &&
      hasChannelPermission(ctx, actor, s, 'can_remove_subscribers_group'),
  );
}

export interface SubscriptionChange {
  user: UserRow;
  stream: StreamRow;
}

/**
 * Zulip's bulk_add_subscriptions: subscribes every user to every channel
 * (a former subscription comes back with its settings), then tells each
 * user who could not see a channel before about it, each subscriber about
 * the new subscriptions, and everyone else who sees the subscribers.
 */
export function addSubscriptions(
  ctx: AppContext,
  tx: Tx,
  streams: StreamRow[],
  users: UserRow[],
  requestedColors: Map<number, string> = new Map(),
): { added: SubscriptionChange[]; already: SubscriptionChange[] } {
  const ordered = [...streams].sort((a, b) => a.id - b.id);
  const added: SubscriptionChange[] = [];
  const already: SubscriptionChange[] = [];
  const newlyVisible = new Map<number, number[]>();
  // Who saw whom before, for the realm_user adds of limited user access.
  const peersBefore = peersBeforeChange(
    ctx,
    users.map((u) => u.id),
  );
  for (const user of users) {
    const used = new Set(subscriptionsOfUser(ctx.db, user.id).map((s) => s.color));
    const fresh = ordered
      .map((stream) => ({ stream, sub: subscriptionOf(ctx.db, stream.id, user.id) }))
      .filter(({ stream, sub }) => {
        if (sub?.active) already.push({ user, stream });
        return !sub?.active;
      });
    // Zulip's pick_colors: requested colours are taken before the palette is consulted.
    for (const { stream, sub } of fresh) {
      const color = requestedColors.get(stream.id);
      if (!sub && color) used.add(color);
    }
    for (const { stream, sub } of fresh) {
      if (!hasMetadataAccess(ctx, user, stream)) {
        newlyVisible.set(stream.id, [...(newlyVisible.get(stream.id) ?? []), user.id]);
      }
      const color = sub?.color ?? requestedColors.get(stream.id) ?? pickColor(used, stream.id);
      used.add(color);
      insertSubscription(ctx.db, stream.id, user.id, color);
      added.push({ user, stream });
    }
  }

  for (const [streamId, userIds] of newlyVisible) emitChannelCreated(ctx, tx, streamId, userIds);

  const traffic = weeklyTraffic(ctx);
  const subscribersOf = new Map<number, number[]>();
  const subscribers = (streamId: number) => {
    let list = subscribersOf.get(streamId);
    if (!list) {
      list = subscriberIds(ctx.db, streamId);
      subscribersOf.set(streamId, list);
    }
    return list;
  };
  for (const user of users) {
    const mine = added.filter((a) => a.user.id === user.id);
    if (mine.length === 0) continue;
    const dicts = mine.map(({ stream }) => {
      const current = streamById(ctx.db, stream.id)!;
      return {
        ...formatSubscription(
          ctx,
          current,
          subscriptionOf(ctx.db, stream.id, user.id)!,
          subscribers(stream.id),
        ),
        stream_weekly_traffic: traffic(current),
      };
    });
    tx.emit({
      type: 'subscription',
      users: [user.id],
      payload: {
        type: 'subscription',
        op: 'add',
        subscriptions: dicts,
      } satisfies EventBody<'subscription', 'add'>,
    });
  }
  emitAccessGained(ctx, tx, streamsByUser(added), peersBefore, subscribers);
  for (const stream of ordered) {
    const userIds = added.filter((a) => a.stream.id === stream.id).map((a) => a.user.id);
    emitPeerChange(ctx, tx, 'peer_add', stream, userIds);
  }
  return { added, already };
}

const streamsByUser = (changes: SubscriptionChange[]) => {
  const map = new Map<number, number[]>();
  for (const { user, stream } of changes)
    map.set(user.id, [...(map.get(user.id) ?? []), stream.id]);
  return map;
};

export const COLOR = /^#([a-fA-F0-9]{3,6})$/;

/** Zulip's check_color. */
export function checkColor(varName: string, value: unknown): string {
  if (typeof value !== 'string') throw badRequest(`${varName} is not a string`);
  if (!COLOR.test(value)) throw badRequest(`${varName} is not a valid hex color code`);
  return value;
}

export interface SubscriptionRequest {
  name: string;
  color?: string;
  description?: string;
}

export interface SubscribeInput {
  subscriptions: SubscriptionRequest[];
  principals: Principals | undefined;
  authorizationErrorsFatal: boolean;
  creation: ChannelCreationOptions;
  sendNewSubscriptionMessages: boolean;
}

export const byUser = (changes: SubscriptionChange[]) => {
  const out: Record<string, string[]> = {};
  for (const { user, stream } of changes) {
    const key = String(user.id);
    out[key] = [...(out[key] ?? []), stream.name];
  }
  return out;
};

/** POST /users/me/subscriptions: subscribes, creating the channels that do not exist. */
export function subscribe(ctx: AppContext, actor: UserRow, input: SubscribeInput) {
  requireRole(actor, 'member');
  const requests = new Map<string, SubscriptionRequest>();
  for (const request of input.subscriptions) {
    const name = checkChannelName(request.name);
    if (request.color !== undefined) checkColor('add.color', request.color);
    if (!requests.has(name.toLowerCase())) requests.set(name.toLowerCase(), { ...request, name });
  }
  const existing: StreamRow[] = [];
  const missing: SubscriptionRequest[] = [];
  for (const request of requests.values()) {
    const stream = streamByName(ctx.db, request.name);
    if (stream) existing.push(stream);
    else missing.push(request);
  }
  const blueprint: ChannelBlueprint | null =
    missing.length > 0 ? prepareChannelCreation(ctx, actor, input.creation) : null;

  const principals = input.principals ?? [];
  const subscribingOthers = principals.length > 0 && namesOthers(ctx, actor, principals);
  // Archived channels take no subscribers; Zulip reports them like hidden ones.
  const unauthorized = existing.filter((s) => s.is_archived || !hasContentAccess(ctx, actor, s));
  if (unauthorized.length > 0 && input.authorizationErrorsFatal) {
    throw badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  }
  const authorized = existing.filter((s) => !unauthorized.includes(s));
  if (subscribingOthers && authorized.some((s) => !canAddSubscribers(ctx, actor, s))) {
    throw insufficientPermission();
  }
  const targets = subscribingOthers ? resolvePrincipals(ctx, actor, principals) : [actor];

  return ctx.transaction((tx) => {
    const created: StreamRow[] = [];
    for (const request of missing) {
      const id = insertChannel(
        ctx,
        tx,
        actor,
        request.name,
        normalizeDescription(request.description ?? ''),
        blueprint!,
      );
      created.push(streamById(ctx.db, id)!);
    }
    const colors = new Map<number, string>();
    for (const stream of [...authorized, ...created]) {
      const color = requests.get(stream.name.toLowerCase())?.color;
      if (color) colors.set(stream.id, color);
    }
    const { added, already } = addSubscriptions(
      ctx,
      tx,
      [...authorized, ...created],
      targets,
      colors,
    );
    const response: Record<string, unknown> = {
      subscribed: byUser(added),
      already_subscribed: byUser(already),
    };
    if (!input.authorizationErrorsFatal) response.unauthorized = unauthorized.map((s) => s.name);
    // Hearth sends no Notification Bot messages (see the report for issue 3).
    if (input.sendNewSubscriptionMessages) response.new_subscription_messages_sent = false;
    return response;
  });
}

/**
 * Zulip's bulk_remove_subscriptions for each user and channel: the channel
 * counts as read, the user is told (and forgets a channel they can no longer
 * see), and everyone else who sees the subscribers gets peer_remove.
 */
export function removeSubscriptions(
  ctx: AppContext,
  tx: Tx,
  streams: StreamRow[],
  users: UserRow[],
): { removed: SubscriptionChange[]; notSubscribed: SubscriptionChange[] } {
  const removed: SubscriptionChange[] = [];
  const notSubscribed: SubscriptionChange[] = [];
  const markedRead = new Map<number, number[]>();
  for (const user of users) {
    for (const stream of streams) {
      if (!isSubscribed(ctx, stream.id, user.id)) {
        notSubscribed.push({ user, stream });
        continue;
      }
      const ids = markConversationRead(ctx.db, user.id, { kind: 'channel', id: stream.id });
      if (ids.length > 0) markedRead.set(user.id, [...(markedRead.get(user.id) ?? []), ...ids]);
      deactivateSubscription(ctx.db, stream.id, user.id);
      removed.push({ user, stream });
    }
  }
  for (const user of users) {
    const mine = removed.filter((r) => r.user.id === user.id).map((r) => r.stream);
    if (mine.length === 0) continue;
    tx.emit({
      type: 'subscription',
      users: [user.id],
      payload: {
        type: 'subscription',
        op: 'remove',
        subscriptions: mine.map((s) => ({ name: s.name, stream_id: s.id })),
      } satisfies EventBody<'subscription', 'remove'>,
    });
    const read = markedRead.get(user.id);
    if (read) {
      tx.emit({
        type: 'update_message_flags',
        users: [user.id],
        payload: {
          type: 'update_message_flags',
          op: 'add',
          operation: 'add',
          flag: 'read',
          messages: read.sort((a, b) => a - b),
          all: false,
        } satisfies EventBody<'update_message_flags', 'add'>,
      });
    }
    for (const stream of mine) {
      if (!hasMetadataAccess(ctx, user, stream)) emitChannelGone(tx, stream.id, [user.id]);
    }
  }
  for (const stream of streams) {
    const userIds = removed.filter((r) => r.stream.id === stream.id).map((r) => r.user.id);
    emitPeerChange(ctx, tx, 'peer_remove', stream, userIds);
  }
  emitAccessLost(ctx, tx, streamsByUser(removed), (streamId) => subscriberIds(ctx.db, streamId));
  return { removed, notSubscribed };
}

/** DELETE /users/me/subscriptions */
export function unsubscribe(
  ctx: AppContext,
  actor: UserRow,
  names: string[],
  principals: Principals | undefined,
) {
  const targets =
    principals && principals.length > 0 ? resolvePrincipals(ctx, actor, principals) : [actor];
  const othersToo = targets.some(
    (t) => t.id !== actor.id && !(t.is_bot && t.bot_owner_id === actor.id),
  );
  const streams = new Map<number, StreamRow>();
  const missing: string[] = [];
  for (const raw of names) {
    const name = checkChannelName(raw);
    const stream = streamByName(ctx.db, name);
    if (stream) streams.set(stream.id, stream);
    else missing.push(name);
  }
  if (othersToo && !canRemoveSubscribers(ctx, actor, [...streams.values()])) {
    throw insufficientPermission();
  }
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  return ctx.transaction((tx) => {
    const { removed, notSubscribed } = removeSubscriptions(ctx, tx, [...streams.values()], targets);
    return {
      removed: removed.map((r) => r.stream.name),
      not_removed: notSubscribed.map((r) => r.stream.name),
    };
  });
}

/**
 * PATCH /users/me/subscriptions: POST's subscribing (without settings for
 * channels it creates) and DELETE's unsubscribing of the caller in one
 * transaction, their answers merged (Zulip's compose_views).
 */
export function changeOwnSubscriptions(
  ctx: AppContext,
  actor: UserRow,
  add: SubscriptionRequest[],
  remove: string[],
) {
  if (add.length === 0 && remove.length === 0) {
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  }
  return ctx.transaction(() => ({
    ...subscribe(ctx, actor, {
      subscriptions: add,
      principals: undefined,
      authorizationErrorsFatal: true,
      creation: plainChannelOptions,
      sendNewSubscriptionMessages: true,
    }),
    ...unsubscribe(ctx, actor, remove, undefined),
  }));
}
