import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  defaultStreamIds,
  isDefaultStream,
  removeDefaultStream,
} from '../db/queries/default-streams.js';
import { setRealmSettings } from '../db/queries/realm.js';
import { channelTopics, receivedChannelTopics } from '../db/queries/stream-topics.js';
import {
  type StreamRow,
  setStreamArchived,
  streamById,
  subscribedStreamIds,
  subscriberIds,
} from '../db/queries/streams.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { JsonText } from '../shared/json-fields.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, isGuest } from '../shared/roles.js';
import { topicForClient } from '../shared/topics.js';
import type { EventBody, ListedStream } from '../shared/zulip-api/index.js';
import { emitDefaultStreams } from './create.js';
import { channelAudience, emitChannelArchived } from './events.js';
import { channelJson, type FormattedChannel, formattedChannels } from './formatted.js';
import {
  accessChannelById,
  accessChannelByName,
  formatChannel,
  hasChannelPermission,
  hasContentAccess,
  hasMetadataAccess,
  invalidChannelId,
} from './rules.js';
import { weeklyTraffic } from './traffic.js';

export interface ListChannelsOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

/** Zulip's get_streams_for_user: the union of the requested sources, sorted by name. */
function channelsFor(
  ctx: AppContext,
  user: UserRow,
  opts: ListChannelsOptions,
): FormattedChannel[] {
  const candidates = formattedChannels(ctx).filter(
    (c) => !(opts.excludeArchived && c.row.is_archived),
  );
  return selectChannels(ctx, user, opts, candidates).sort((a, b) =>
    a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0,
  );
}

function selectChannels(
  ctx: AppContext,
  user: UserRow,
  opts: ListChannelsOptions,
  candidates: FormattedChannel[],
): FormattedChannel[] {
  if (opts.includeAll) {
    const subscribed = new Set(subscribedStreamIds(ctx.db, user.id));
    return candidates.filter((c) => hasMetadataAccess(ctx, user, c.row, subscribed));
  }
  const ownerSubscribed =
    opts.includeOwnerSubscribed && user.is_bot && user.bot_owner_id !== null
      ? new Set(subscribedStreamIds(ctx.db, user.bot_owner_id))
      : null;
  if (opts.includeCanAccessContent) {
    return candidates.filter(
      (c) => hasContentAccess(ctx, user, c.row) || ownerSubscribed?.has(c.row.id) === true,
    );
  }
  const subscribed = opts.includeSubscribed ? new Set(subscribedStreamIds(ctx.db, user.id)) : null;
  // Guests cannot see public channels they are not subscribed to.
  const includePublic = opts.includePublic && !isGuest(user);
  return candidates.filter(
    ({ row: s }) =>
      subscribed?.has(s.id) === true ||
      (includePublic && !s.invite_only) ||
      (opts.includeWebPublic &&
        s.is_web_public === 1 &&
        !s.invite_only &&
        s.history_public_to_subscribers === 1 &&
        !s.is_archived) ||
      ownerSubscribed?.has(s.id) === true,
  );
}

/** GET /streams (and the register `streams`), sorted by name. */
export function listChannels(ctx: AppContext, user: UserRow, opts: ListChannelsOptions) {
  const traffic = weeklyTraffic(ctx);
  const defaults = opts.includeDefault ? new Set(defaultStreamIds(ctx.db)) : null;
  const streams = channelsFor(ctx, user, opts).map((channel) => {
    const dict: ListedStream = {
      ...channel.dict,
      stream_weekly_traffic: traffic(channel.row),
    };
    if (defaults) dict.is_default = defaults.has(channel.row.id);
    return dict;
  });
  return { streams };
}

/** listChannels' `streams` as JSON text, from the channels' kept JSON (POST /register). */
export function listChannelsJson(
  ctx: AppContext,
  user: UserRow,
  opts: ListChannelsOptions,
): { streams: JsonText } {
  const traffic = weeklyTraffic(ctx);
  const defaults = opts.includeDefault ? new Set(defaultStreamIds(ctx.db)) : null;
  const streams = channelsFor(ctx, user, opts).map((channel) =>
    channelJson(
      channel,
      traffic(channel.row),
      defaults ? `,"is_default":${defaults.has(channel.row.id)}` : '',
    ),
  );
  return { streams: new JsonText(`[${streams.join(',')}]`) };
}

/** GET /streams/{stream_id}: metadata access is enough. */
export function getChannel(ctx: AppContext, user: UserRow, streamId: number) {
  const stream = accessChannelById(ctx, user, streamId, { requireContentAccess: false });
  return {
    stream: { ...formatChannel(ctx, stream), stream_weekly_traffic: weeklyTraffic(ctx)(stream) },
  };
}

/** GET /get_stream_id */
export function getChannelId(ctx: AppContext, user: UserRow, name: string) {
  return { stream_id: accessChannelByName(ctx, user, name).id };
}

/** GET /streams/{stream_id}/members */
export function getChannelMembers(ctx: AppContext, user: UserRow, streamId: number) {
  const stream = accessChannelById(ctx, user, streamId, { requireContentAccess: false });
  return { subscribers: subscriberIds(ctx.db, stream.id) };
}

/**
 * GET /users/me/{stream_id}/topics: newest first, one entry per topic
 * ignoring case (named as in its latest message). With protected history
 * only topics of messages the user received count.
 */
export function getChannelTopics(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
  allowEmptyTopicName: boolean,
) {
  const stream = accessChannelById(ctx, user, streamId);
  const rows = stream.history_public_to_subscribers
    ? channelTopics(ctx.db, stream.id)
    : receivedChannelTopics(ctx.db, stream.id, user.id);
  const byKey = new Map<string, { name: string; max_id: number }>();
  for (const row of [...rows].sort((a, b) => a.max_id - b.max_id)) {
    byKey.set(row.topic.toLowerCase(), { name: row.topic, max_id: row.max_id });
  }
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  const topics = [...byKey.values()]
    .sort((a, b) => b.max_id - a.max_id)
    .map((t) => ({ ...t, name: topicForClient(t.name, emptyName, allowEmptyTopicName) }));
  return { topics };
}

/**
 * Zulip's access_stream_for_delete_or_update_requiring_metadata_access:
 * administrators and the channel's administrators; others who can read the
 * channel learn they may not administer it, the rest that it does not exist.
 * Archived channels are included, so they can be unarchived.
 */
export function accessChannelToAdminister(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
): StreamRow {
  const stream = streamById(ctx.db, streamId);
  if (!stream) throw invalidChannelId();
  if (isAdmin(user)) return stream;
  if (!isGuest(user) && hasChannelPermission(ctx, user, stream, 'can_administer_channel_group')) {
    return stream;
  }
  if (hasContentAccess(ctx, user, stream)) {
    throw badRequest('You do not have permission to administer this channel.');
  }
  throw invalidChannelId();
}

/** The announcement settings that name a channel; archiving a channel clears them. */
const announcementSettings = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
] as const;

/**
 * DELETE /streams/{stream_id} archives the channel (Zulip's
 * do_deactivate_stream): it stops being a default channel or an
 * announcement channel, and everyone who could see it is told.
 */
export function archiveChannel(ctx: AppContext, actor: UserRow, streamId: number) {
  const stream = accessChannelToAdminister(ctx, actor, streamId);
  if (stream.is_archived) throw badRequest('Channel is already deactivated');
  ctx.transaction((tx) => {
    const audience = channelAudience(ctx, stream);
    setStreamArchived(ctx.db, stream.id, true);
    if (isDefaultStream(ctx.db, stream.id)) {
      removeDefaultStream(ctx.db, stream.id);
      emitDefaultStreams(ctx, tx);
    }
    const realm = loadRealm(ctx);
    const cleared: Record<string, number> = {};
    for (const setting of announcementSettings) {
      if (realm.settings[setting] === stream.id) cleared[setting] = -1;
    }
    if (Object.keys(cleared).length > 0) {
      const overrides = JSON.parse(realm.row.settings) as Record<string, unknown>;
      setRealmSettings(ctx.db, JSON.stringify({ ...overrides, ...cleared }));
      tx.emit({
        type: 'realm',
        users: activeUserIds(ctx.db),
        payload: {
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: cleared,
        } satisfies EventBody<'realm', 'update_dict'>,
      });
    }
    emitChannelArchived(tx, stream, audience);
  });
  return {};
}
