import { accessChannelFolder } from '../channel-folders/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest, insufficientPermission, ownerRequired } from '../core/errors.js';
import { setStreamFolder } from '../db/queries/channel-folders.js';
import { addDefaultStream, defaultStreamIds } from '../db/queries/default-streams.js';
import { insertStream, streamById, streamByName } from '../db/queries/streams.js';
import { allUsers, type UserRow } from '../db/queries/users.js';
import { renderContent } from '../markdown/index.js';
import type { StoredGroupSetting } from '../shared/group-settings.js';
import { userHasGroupSetting } from '../shared/group-settings.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, isGuest, isOwner } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import {
  defaultChannelCannotBePrivate,
  invalidParameters,
  webPublicChannelsDisabled,
} from './errors.js';
import { channelAudience, emitChannelCreated } from './events.js';
import { checkChannelGroupSetting, type GroupSettingInput } from './group-permissions.js';
import {
  type ChannelPermission,
  channelExists,
  channelPermissionDefaults,
  checkChannelName,
} from './rules.js';

export const topicsPolicies = [
  'inherit',
  'allow_empty_topic',
  'disable_empty_topic',
  'empty_topic_only',
] as const;
export type TopicsPolicy = (typeof topicsPolicies)[number];

/** The settings a request may give the channels it creates. */
export interface ChannelCreationOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers: boolean | undefined;
  /** Raw: "realm_default", "unlimited" or a positive number of days. */
  messageRetentionDays: string | number;
  topicsPolicy: string | undefined;
  groupSettings: Partial<Record<ChannelPermission, GroupSettingInput>>;
  folderId: number | null | undefined;
}

/** What a channel created without any setting gets (a public channel, the organization's defaults). */
export const plainChannelOptions: ChannelCreationOptions = {
  inviteOnly: false,
  isWebPublic: false,
  isDefaultStream: false,
  historyPublicToSubscribers: undefined,
  messageRetentionDays: 'realm_default',
  topicsPolicy: undefined,
  groupSettings: {},
  folderId: undefined,
};

/** Validated creation settings, ready to insert any number of channels with. */
export interface ChannelBlueprint {
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: TopicsPolicy;
  permissions: Record<ChannelPermission, StoredGroupSetting>;
  /** The channel folder the new channels go into, if any. */
  folderId: number | null;
}

/** Zulip's parse_message_retention_days for channels. */
export function parseRetentionDays(raw: string | number): number | null {
  if (raw === 'realm_default') return null;
  if (raw === 'unlimited') return -1;
  const days = typeof raw === 'number' ? raw : Number.NaN;
  if (!Number.isSafeInteger(days) || days <= 0) {
    throw badRequest(`Bad value for 'message_retention_days': ${raw}`);
  }
  return days;
}

/** Accepts `inherit` as sent by form clients and `"inherit"` as JSON. */
export function parseTopicsPolicy(raw: string): TopicsPolicy {
  let value = raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'string') value = parsed;
  } catch {
    // Not JSON: the bare value.
  }
  if ((topicsPolicies as readonly string[]).includes(value)) return value as TopicsPolicy;
  throw badRequest('Invalid topics_policy');
}

export const canSetTopicsPolicy = (ctx: AppContext, user: UserRow) =>
  userHasGroupSetting(ctx, user, loadRealm(ctx).settings.can_set_topics_policy_group);

const canSetDeleteMessagePolicy = (ctx: AppContext, user: UserRow) =>
  userHasGroupSetting(ctx, user, loadRealm(ctx).settings.can_set_delete_message_policy_group);

/** Zulip's user_profile.can_create_private_streams() and friends. */
export function canCreateChannel(
  ctx: AppContext,
  user: UserRow,
  kind: 'private' | 'public' | 'web_public',
): boolean {
  const settings = loadRealm(ctx).settings;
  const setting =
    kind === 'private'
      ? settings.can_create_private_channel_group
      : kind === 'public'
        ? settings.can_create_public_channel_group
        : settings.can_create_web_public_channel_group;
  return userHasGroupSetting(ctx, user, setting);
}

export const webPublicChannelsEnabled = (ctx: AppContext) =>
  loadRealm(ctx).settings.enable_spectator_access;

/** Group settings that only someone allowed to set the delete policy may give. */
const deletePolicySettings: readonly ChannelPermission[] = [
  'can_delete_any_message_group',
  'can_delete_own_message_group',
];

/**
 * Zulip's check_channel_creation_permissions and the group-setting checks of
 * list_to_streams: everything that can refuse a creation, before anything
 * is written.
 */
export function prepareChannelCreation(
  ctx: AppContext,
  actor: UserRow,
  options: ChannelCreationOptions,
): ChannelBlueprint {
  const retention = parseRetentionDays(options.messageRetentionDays);
  let topicsPolicy: TopicsPolicy = 'inherit';
  if (options.topicsPolicy !== undefined) {
    topicsPolicy = parseTopicsPolicy(options.topicsPolicy);
    if (topicsPolicy !== 'inherit' && !canSetTopicsPolicy(ctx, actor)) {
      throw insufficientPermission();
    }
  }
  const folderId = options.folderId ?? null;
  if (folderId !== null) accessChannelFolder(ctx, folderId);

  const nobody = channelPermissionDefaults.can_delete_any_message_group;
  const permissions = { ...channelPermissionDefaults } as Record<
    ChannelPermission,
    StoredGroupSetting
  >;
  // Zulip's "channel_creator" default: the creator administers the channel.
  permissions.can_administer_channel_group = { direct_members: [actor.id], direct_subgroups: [] };
  for (const [name, value] of Object.entries(options.groupSettings) as Array<
    [ChannelPermission, GroupSettingInput | undefined]
  >) {
    if (value === undefined) continue;
    const stored = checkChannelGroupSetting(ctx, name, value);
    if (
      deletePolicySettings.includes(name) &&
      stored !== nobody &&
      !canSetDeleteMessagePolicy(ctx, actor)
    ) {
      throw insufficientPermission();
    }
    permissions[name] = stored;
  }

  if (options.inviteOnly && !canCreateChannel(ctx, actor, 'private')) {
    throw insufficientPermission();
  }
  if (!options.inviteOnly && !canCreateChannel(ctx, actor, 'public')) {
    throw insufficientPermission();
  }
  if (options.isDefaultStream && !isAdmin(actor)) throw insufficientPermission();
  if (options.inviteOnly && options.isDefaultStream) {
    throw defaultChannelCannotBePrivate();
  }
  if (options.isWebPublic) {
    if (!webPublicChannelsEnabled(ctx)) throw webPublicChannelsDisabled();
    if (!canCreateChannel(ctx, actor, 'web_public')) throw insufficientPermission();
    // Zulip would store this contradiction; Hearth keeps the privacy invariants.
    if (options.inviteOnly) throw invalidParameters();
  }
  if (retention !== null && !isOwner(actor)) throw ownerRequired();

  return {
    inviteOnly: options.inviteOnly,
    isWebPublic: options.isWebPublic,
    isDefaultStream: options.isDefaultStream,
    // Public channels always share their history; private ones protect it unless asked.
    historyPublicToSubscribers: options.inviteOnly
      ? (options.historyPublicToSubscribers ?? false)
      : true,
    messageRetentionDays: retention,
    topicsPolicy,
    permissions,
    folderId,
  };
}

/** Stripped, valid and not taken (case-insensitively), or the 409 of POST /channels/create. */
export function checkNewChannelName(ctx: AppContext, raw: string): string {
  const name = checkChannelName(raw);
  if (streamByName(ctx.db, name)) throw channelExists(name);
  return name;
}

/** Zulip stores descriptions on one line. */
export const normalizeDescription = (description: string) => description.replaceAll('\n', ' ');

/**
 * Writes one channel and tells everyone who may now see it (Zulip's
 * create_stream_if_needed): the channel has no subscribers yet, so private
 * channels reach administrators and permission-group members here and their
 * subscribers when they are added.
 */
export function insertChannel(
  ctx: AppContext,
  tx: Tx,
  actor: UserRow,
  name: string,
  description: string,
  blueprint: ChannelBlueprint,
): number {
  const streamId = insertStream(ctx.db, {
    name,
    description,
    rendered_description: description === '' ? '' : renderContent(ctx, description),
    invite_only: blueprint.inviteOnly,
    is_web_public: blueprint.isWebPublic,
    history_public_to_subscribers: blueprint.historyPublicToSubscribers,
    date_created: Math.floor(ctx.now() / 1000),
    creator_id: actor.id,
    message_retention_days: blueprint.messageRetentionDays,
    topics_policy: blueprint.topicsPolicy,
    permissions: JSON.stringify(blueprint.permissions),
  });
  if (blueprint.folderId !== null) setStreamFolder(ctx.db, streamId, blueprint.folderId);
  emitChannelCreated(ctx, tx, streamId, channelAudience(ctx, streamById(ctx.db, streamId)!));
  if (blueprint.isDefaultStream) {
    addDefaultStream(ctx.db, streamId);
    emitDefaultStreams(ctx, tx);
  }
  return streamId;
}

/** The `default_streams` event: the full list, to everyone but guests. */
export function emitDefaultStreams(ctx: AppContext, tx: Tx): void {
  const ids = defaultStreamIds(ctx.db);
  const recipients = allUsers(ctx.db)
    .filter((u) => u.is_active && !isGuest(u))
    .map((u) => u.id);
  tx.emit({
    type: 'default_streams',
    users: recipients,
    payload: {
      type: 'default_streams',
      default_streams: ids,
    } satisfies EventBody<'default_streams'>,
  });
}
