/** Reading subscriptions: a user's channels with their settings, and one subscription's status. */
import {
  accessChannelById,
  channelJson,
  formattedChannels,
  hasMetadataAccess,
  isSubscribed,
  subscriptionJson,
  weeklyTraffic,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { streamById, subscribedStreamIds, subscriptionsOfUser } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { JsonText, jsonFieldsOf, SerialisedFields } from '../shared/json-fields.js';
import { accessReadableUser } from '../users/index.js';

interface NamedJson {
  name: string;
  json: string;
}

const byName = (a: NamedJson, b: NamedJson) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const jsonList = (entries: NamedJson[]) =>
  new JsonText(
    `[${entries
      .sort(byName)
      .map((e) => e.json)
      .join(',')}]`,
  );

/**
 * Zulip's gather_subscriptions_helper: the user's active subscriptions, the
 * former ones whose channel they may still see, and the visible channels
 * they never subscribed to, each sorted by name. Written as JSON from the
 * channels' kept JSON: only the user's own settings are serialised here.
 */
export function gatherSubscriptions(
  ctx: AppContext,
  user: UserRow,
  opts: { includeSubscribers: boolean; includeArchived: boolean },
): { subscriptions: JsonText; unsubscribed: JsonText; never_subscribed: JsonText } {
  const subs = new Map(subscriptionsOfUser(ctx.db, user.id).map((s) => [s.stream_id, s]));
  const subscribed = new Set([...subs.values()].filter((s) => s.active).map((s) => s.stream_id));
  const traffic = weeklyTraffic(ctx);
  const subscriptions: NamedJson[] = [];
  const unsubscribed: NamedJson[] = [];
  const neverSubscribed: NamedJson[] = [];
  for (const channel of formattedChannels(ctx)) {
    const stream = channel.row;
    if (stream.is_archived && !opts.includeArchived) continue;
    const sub = subs.get(stream.id);
    const list = opts.includeSubscribers ? channel.subscribersJson : undefined;
    if (sub?.active) {
      subscriptions.push({
        name: stream.name,
        json: subscriptionJson(channel, traffic(stream), sub, list),
      });
    } else if (hasMetadataAccess(ctx, user, stream, subscribed)) {
      const json = sub
        ? subscriptionJson(channel, traffic(stream), sub, list)
        : channelJson(channel, traffic(stream), list === undefined ? '' : `,"subscribers":${list}`);
      (sub ? unsubscribed : neverSubscribed).push({ name: stream.name, json });
    }
  }
  return {
    subscriptions: jsonList(subscriptions),
    unsubscribed: jsonList(unsubscribed),
    never_subscribed: jsonList(neverSubscribed),
  };
}

/** GET /users/me/subscriptions */
export function listSubscriptions(
  ctx: AppContext,
  user: UserRow,
  includeSubscribers: boolean,
): SerialisedFields {
  const { subscriptions } = gatherSubscriptions(ctx, user, {
    includeSubscribers,
    includeArchived: false,
  });
  return new SerialisedFields(jsonFieldsOf({ subscriptions }));
}

/** GET /users/{user_id}/subscriptions/{stream_id} */
export function subscriptionStatus(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  streamId: number,
) {
  const target = accessReadableUser(ctx, actor, userId);
  accessChannelById(ctx, actor, streamId, { requireContentAccess: false });
  return { is_subscribed: isSubscribed(ctx, streamId, target.id) };
}

/**
 * GET /users/{user_id}/channels (Zulip's get_subscribed_channels_backend):
 * the ids of the channels the user is subscribed to that the caller may
 * see (metadata access).
 */
export function subscribedChannelIds(ctx: AppContext, actor: UserRow, userId: number) {
  const target = accessReadableUser(ctx, actor, userId);
  const ids = subscribedStreamIds(ctx.db, target.id).filter((id) => {
    const stream = streamById(ctx.db, id);
    return stream !== undefined && !stream.is_archived && hasMetadataAccess(ctx, actor, stream);
  });
  return { subscribed_channel_ids: ids };
}
