import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import {
  type StreamRow,
  type SubscriptionRow,
  streamById,
  streamByName,
  subscriberCount,
  subscriptionOf,
} from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { MAX_CHANNEL_NAME_LENGTH } from '../shared/limits.js';
import { firstUnprintablePosition } from '../shared/printable.js';
import { loadRealm, resolveGroupSetting } from '../shared/realm.js';
import type { RealmSettings } from '../shared/realm-settings.js';
import { isAdmin, isGuest } from '../shared/roles.js';
import type { Stream, Subscription } from '../shared/zulip-api/index.js';
import { cannotPostInChannel } from './errors.js';

/** Channel-level permission settings and Zulip's defaults for new channels. */
export const channelPermissionDefaults = {
  can_add_subscribers_group: 'role:nobody',
  can_administer_channel_group: 'role:nobody',
  can_create_topic_group: 'role:everyone',
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:nobody',
  can_move_messages_out_of_channel_group: 'role:nobody',
  can_move_messages_within_channel_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_resolve_topics_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
} satisfies Record<string, StoredGroupSetting>;

export type ChannelPermission = keyof typeof channelPermissionDefaults;

type StoredPermissions = Partial<Record<ChannelPermission, StoredGroupSetting>>;

export function channelPermission(stream: StreamRow, name: ChannelPermission): StoredGroupSetting {
  return storedPermissionOf(JSON.parse(stream.permissions) as StoredPermissions, name);
}

const storedPermissionOf = (stored: StoredPermissions, name: ChannelPermission) =>
  stored[name] ?? channelPermissionDefaults[name];

export function hasChannelPermission(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'role'>,
  stream: StreamRow,
  name: ChannelPermission,
): boolean {
  return userHasGroupSetting(ctx, user, channelPermission(stream, name));
}

/**
 * Zulip's rule for channel actions that also have an organization-wide
 * setting: administrators, members of the organization's group, or of the
 * channel's own group or of its administrators group.
 */
export function hasOrganizationOrChannelPermission(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'role'>,
  stream: StreamRow,
  organizationSetting: GroupSettingName,
  channelSetting: ChannelPermission,
): boolean {
  if (isAdmin(user)) return true;
  if (userHasGroupSetting(ctx, user, loadRealm(ctx).settings[organizationSetting])) return true;
  return (
    hasChannelPermission(ctx, user, stream, channelSetting) ||
    hasChannelPermission(ctx, user, stream, 'can_administer_channel_group')
  );
}

/** Organization settings whose value is a group setting. */
type GroupSettingName = Extract<keyof RealmSettings, `can_${string}_group`>;

export const isSubscribed = (ctx: AppContext, streamId: number, userId: number) =>
  subscriptionOf(ctx.db, streamId, userId)?.active === 1;

/**
 * Zulip's user_has_metadata_access: may the user know the channel exists and
 * see its settings? Lists pass the user's `subscribedIds` (active
 * subscriptions) rather than a query per channel.
 */
export function hasMetadataAccess(
  ctx: AppContext,
  user: UserRow,
  stream: StreamRow,
  subscribedIds?: ReadonlySet<number>,
): boolean {
  if (stream.is_web_public) return true;
  if (subscribedIds ? subscribedIds.has(stream.id) : isSubscribed(ctx, stream.id, user.id))
    return true;
  if (isGuest(user)) return false;
  if (!stream.invite_only) return true;
  if (isAdmin(user)) return true;
  return (
    hasChannelPermission(ctx, user, stream, 'can_administer_channel_group') ||
    hasChannelPermission(ctx, user, stream, 'can_add_subscribers_group') ||
    hasChannelPermission(ctx, user, stream, 'can_subscribe_group')
  );
}

/** Zulip's user_has_content_access: may the user read the channel's messages? */
export function hasContentAccess(ctx: AppContext, user: UserRow, stream: StreamRow): boolean {
  if (stream.is_web_public) return true;
  if (isSubscribed(ctx, stream.id, user.id)) return true;
  if (isGuest(user)) return false;
  if (!stream.invite_only) return true;
  return (
    hasChannelPermission(ctx, user, stream, 'can_subscribe_group') ||
    hasChannelPermission(ctx, user, stream, 'can_add_subscribers_group')
  );
}

export const invalidChannelId = () => badRequest('Invalid channel ID');

/**
 * The channel, or "Invalid channel ID" whether it is missing, archived or
 * hidden, so that callers cannot probe for private channels.
 */
export function accessChannelById(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
  opts: { requireContentAccess?: boolean; allowArchived?: boolean } = {},
): StreamRow {
  const stream = streamById(ctx.db, streamId);
  if (!stream) throw invalidChannelId();
  if (stream.is_archived && !opts.allowArchived) throw invalidChannelId();
  const ok =
    (opts.requireContentAccess ?? true)
      ? hasContentAccess(ctx, user, stream)
      : hasMetadataAccess(ctx, user, stream);
  if (!ok) throw invalidChannelId();
  return stream;
}

export function accessChannelByName(ctx: AppContext, user: UserRow, name: string): StreamRow {
  const stream = streamByName(ctx.db, name.trim());
  if (!stream || stream.is_archived || !hasContentAccess(ctx, user, stream)) {
    throw badRequest(`Invalid channel name '${name}'`);
  }
  return stream;
}

/** Zulip's access_stream_for_send_message. */
export function checkCanPost(ctx: AppContext, sender: UserRow, stream: StreamRow): void {
  // Bots post with their owner's permissions.
  const subject =
    sender.is_bot && sender.bot_owner_id !== null
      ? { id: sender.bot_owner_id, role: ownerRole(ctx, sender.bot_owner_id) ?? sender.role }
      : sender;
  if (!hasChannelPermission(ctx, subject, stream, 'can_send_message_group')) {
    throw cannotPostInChannel();
  }
  const notAuthorized = () => badRequest(`Not authorized to send to channel '${stream.name}'`);
  if (stream.is_archived) throw notAuthorized();
  if (stream.is_web_public) return;
  if (!stream.invite_only && !isGuest(sender)) return;
  if (isSubscribed(ctx, stream.id, sender.id)) return;
  if (
    sender.is_bot &&
    sender.bot_owner_id !== null &&
    isSubscribed(ctx, stream.id, sender.bot_owner_id)
  ) {
    return;
  }
  if (
    !isGuest(sender) &&
    stream.history_public_to_subscribers &&
    (hasChannelPermission(ctx, sender, stream, 'can_subscribe_group') ||
      hasChannelPermission(ctx, sender, stream, 'can_add_subscribers_group'))
  ) {
    return;
  }
  throw notAuthorized();
}

const ownerRole = (ctx: AppContext, ownerId: number) => userById(ctx.db, ownerId)?.role;

/** Channel names: stripped, 1 to MAX_CHANNEL_NAME_LENGTH characters, all printable. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw badRequest("Channel name can't be empty.");
  if ([...name].length > MAX_CHANNEL_NAME_LENGTH) {
    throw badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  const position = firstUnprintablePosition(name);
  if (position !== undefined) {
    throw badRequest(`Invalid character in channel name, at position ${position}.`);
  }
  return name;
}

export const channelExists = (name: string) =>
  new ApiError(`Channel '${name}' already exists`, { code: 'CHANNEL_ALREADY_EXISTS', status: 409 });

/** Legacy stream_post_policy derived from can_send_message_group (1 everyone, 2 admins, 3 full members, 4 moderators). */
function streamPostPolicy(value: StoredGroupSetting): number {
  if (value === 'role:administrators') return 2;
  if (value === 'role:fullmembers') return 3;
  if (value === 'role:moderators') return 4;
  return 1;
}

/**
 * Zulip's stream_to_dict. Lists of channels pass `subscriberCounts`
 * (subscriberCounts in db/queries) rather than a count query per channel.
 */
export function formatChannel(
  ctx: AppContext,
  stream: StreamRow,
  subscriberCounts?: ReadonlyMap<number, number>,
): Stream {
  const stored = JSON.parse(stream.permissions) as StoredPermissions;
  const groups = {} as Pick<Stream, Exclude<ChannelPermission, 'can_create_topic_group'>>;
  for (const name of Object.keys(channelPermissionDefaults) as ChannelPermission[]) {
    // Enforced on send, but not yet part of the channel object in the API reference.
    if (name === 'can_create_topic_group') continue;
    groups[name] = resolveGroupSetting(ctx, storedPermissionOf(stored, name));
  }
  const postPolicy = streamPostPolicy(storedPermissionOf(stored, 'can_send_message_group'));
  return {
    stream_id: stream.id,
    name: stream.name,
    is_archived: stream.is_archived === 1,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only === 1,
    is_web_public: stream.is_web_public === 1,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers === 1,
    topics_policy: stream.topics_policy as Stream['topics_policy'],
    first_message_id: stream.first_message_id,
    folder_id: stream.folder_id,
    is_recently_active: stream.is_recently_active === 1,
    stream_weekly_traffic: null,
    subscriber_count: subscriberCounts
      ? (subscriberCounts.get(stream.id) ?? 0)
      : subscriberCount(ctx.db, stream.id),
    ...groups,
  };
}

const nullableBool = (v: number | null) => (v === null ? null : v === 1);

/** Zulip's subscription dict: the channel plus the user's personal settings. */
export function formatSubscription(
  ctx: AppContext,
  stream: StreamRow,
  sub: SubscriptionRow,
  subscribers?: number[],
  subscriberCounts?: ReadonlyMap<number, number>,
): Subscription {
  const formatted: Subscription = {
    ...formatChannel(ctx, stream, subscriberCounts),
    ...subscriptionSettings(sub),
  };
  if (subscribers) formatted.subscribers = subscribers;
  return formatted;
}

/** The user's own settings of a subscription, in the order they follow the channel's fields. */
export function subscriptionSettings(sub: SubscriptionRow) {
  return {
    color: sub.color,
    is_muted: sub.is_muted === 1,
    in_home_view: sub.is_muted !== 1,
    pin_to_top: sub.pin_to_top === 1,
    desktop_notifications: nullableBool(sub.desktop_notifications),
    audible_notifications: nullableBool(sub.audible_notifications),
    push_notifications: nullableBool(sub.push_notifications),
    email_notifications: nullableBool(sub.email_notifications),
    wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
  };
}

/** The effective topics policy (a channel's "inherit" defers to the organization). */
export function effectiveTopicsPolicy(ctx: AppContext, stream: StreamRow): string {
  if (stream.topics_policy !== 'inherit') return stream.topics_policy;
  const realm = loadRealm(ctx);
  if (realm.settings.mandatory_topics) return 'disable_empty_topic';
  return realm.settings.topics_policy;
}

/** Zulip's palette for new subscriptions. */
export const subscriptionColors = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];

/** The next palette colour the user does not use yet (by channel id once all are used). */
export function pickColor(usedColors: Set<string>, streamId: number): string {
  return (
    subscriptionColors.find((c) => !usedColors.has(c)) ??
    subscriptionColors[streamId % subscriptionColors.length]!
  );
}
