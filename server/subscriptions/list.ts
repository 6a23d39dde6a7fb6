/** Reading subscriptions: a user's channels with their settings, and one subscription's status. */
import {
  accessChannelById,
  formatChannel,
  formatSubscription,
  hasMetadataAccess,
  isSubscribed,
  weeklyTraffic,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import {
  allStreams,
  subscriberCounts,
  subscribersByStream,
  subscriptionsOfUser,
} from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { accessUserById } from '../users/index.js';

export const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const x = String(a.name);
  const y = String(b.name);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Zulip's gather_subscriptions_helper: the user's active subscriptions, the
 * former ones whose channel they may still see, and the visible channels
 * they never subscribed to, each sorted by name.
 */
export function gatherSubscriptions(
  ctx: AppContext,
  user: UserRow,
  opts: { includeSubscribers: boolean; includeArchived: boolean },
) {
  const subs = new Map(subscriptionsOfUser(ctx.db, user.id).map((s) => [s.stream_id, s]));
  const subscribers = opts.includeSubscribers ? subscribersByStream(ctx.db) : null;
  const traffic = weeklyTraffic(ctx);
  const counts = subscribers
    ? new Map([...subscribers].map(([id, list]) => [id, list.length]))
    : subscriberCounts(ctx.db);
  const subscriptions: Record<string, unknown>[] = [];
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: Record<string, unknown>[] = [];
  for (const stream of allStreams(ctx.db)) {
    if (stream.is_archived && !opts.includeArchived) continue;
    const sub = subs.get(stream.id);
    const list = subscribers ? (subscribers.get(stream.id) ?? []) : undefined;
    if (sub?.active) {
      subscriptions.push({
        ...formatSubscription(ctx, stream, sub, list, counts),
        stream_weekly_traffic: traffic(stream),
      });
    } else if (hasMetadataAccess(ctx, user, stream)) {
      const dict = sub
        ? formatSubscription(ctx, stream, sub, list, counts)
        : { ...formatChannel(ctx, stream, counts), ...(list ? { subscribers: list } : {}) };
      dict.stream_weekly_traffic = traffic(stream);
      (sub ? unsubscribed : neverSubscribed).push(dict);
    }
  }
  return {
    subscriptions: subscriptions.sort(byName),
    unsubscribed: unsubscribed.sort(byName),
    never_subscribed: neverSubscribed.sort(byName),
  };
}

/** GET /users/me/subscriptions */
export function listSubscriptions(ctx: AppContext, user: UserRow, includeSubscribers: boolean) {
  const { subscriptions } = gatherSubscriptions(ctx, user, {
    includeSubscribers,
    includeArchived: false,
  });
  return { subscriptions };
}

/** GET /users/{user_id}/subscriptions/{stream_id} */
export function subscriptionStatus(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  streamId: number,
) {
  const target = accessUserById(ctx, userId);
  accessChannelById(ctx, actor, streamId, { requireContentAccess: false });
  return { is_subscribed: isSubscribed(ctx, streamId, target.id) };
}
