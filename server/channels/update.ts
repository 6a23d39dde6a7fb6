import { accessChannelFolder } from '../channel-folders/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest, insufficientPermission, ownerRequired } from '../core/errors.js';
import { setStreamFolder } from '../db/queries/channel-folders.js';
import {
  addDefaultStream,
  isDefaultStream,
  removeDefaultStream,
} from '../db/queries/default-streams.js';
import {
  activeSubscriptionCount,
  channelNameKey,
  renameStream,
  type StreamRow,
  setStreamArchived,
  setStreamDescription,
  setStreamPermissions,
  setStreamPrivacy,
  setStreamRetentionDays,
  setStreamTopicsPolicy,
  streamById,
} from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { renderContent } from '../markdown/index.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { type GroupSettingValue, loadRealm, resolveGroupSetting } from '../shared/realm.js';
import { isAdmin, isOwner } from '../shared/roles.js';
import { accessChannelToAdminister } from './channels.js';
import {
  canCreateChannel,
  canSetTopicsPolicy,
  checkNewChannelName,
  emitDefaultStreams,
  normalizeDescription,
  parseRetentionDays,
  parseTopicsPolicy,
  type TopicsPolicy,
  webPublicChannelsEnabled,
} from './create.js';
import {
  defaultChannelCannotBePrivate,
  invalidParameters,
  webPublicChannelsDisabled,
} from './errors.js';
import {
  channelAudience,
  emitChannelGone,
  emitChannelRevealed,
  emitChannelUnarchived,
  emitChannelUpdate,
  usersExcept,
} from './events.js';
import {
  checkChannelGroupSetting,
  type GroupSettingChange,
  normalizeGroupSetting,
  sameGroupSetting,
  settingMismatch,
} from './group-permissions.js';
import {
  type ChannelPermission,
  channelPermission,
  channelPermissionDefaults,
  hasContentAccess,
} from './rules.js';

export interface ChannelUpdateInput {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  topicsPolicy?: string;
  /** undefined: not given; null: no folder. */
  folderId?: number | null;
  groupSettings: Partial<Record<ChannelPermission, GroupSettingChange>>;
}

/** Settings whose groups also grant metadata access (Zulip's stream_permission_group_settings_granting_metadata_access). */
const metadataGranting = new Set<ChannelPermission>([
  'can_administer_channel_group',
  'can_add_subscribers_group',
  'can_subscribe_group',
]);

/** Changing these needs content access too (Zulip's ..._requiring_content_access). */
const contentAccessRequired = new Set<ChannelPermission>([
  'can_add_subscribers_group',
  'can_subscribe_group',
]);

const deletePolicySettings = new Set<ChannelPermission>([
  'can_delete_any_message_group',
  'can_delete_own_message_group',
]);

/** The legacy stream_post_policy that can_send_message_group implies. */
function legacyPostPolicy(value: StoredGroupSetting): number {
  if (value === 'role:administrators') return 2;
  if (value === 'role:fullmembers') return 3;
  if (value === 'role:moderators') return 4;
  return 1;
}

interface PlannedGroupChange {
  setting: ChannelPermission;
  stored: StoredGroupSetting;
  value: GroupSettingValue;
}

interface Plan {
  privacy: {
    inviteOnly: boolean;
    historyPublicToSubscribers: boolean;
    isWebPublic: boolean;
  } | null;
  isDefault: boolean | null;
  retention: { days: number | null } | null;
  unarchive: boolean;
  topicsPolicy: TopicsPolicy | null;
  description: string | null;
  newName: string | null;
  folder: { id: number | null } | null;
  groups: PlannedGroupChange[];
}

/** Every check of Zulip's update_stream_backend, in its order, before anything is written. */
function plan(ctx: AppContext, actor: UserRow, stream: StreamRow, input: ChannelUpdateInput): Plan {
  const realm = loadRealm(ctx);
  const currentlyDefault = isDefaultStream(ctx.db, stream.id);
  const inviteOnly = input.isPrivate ?? stream.invite_only === 1;
  const isWebPublic = input.isWebPublic ?? stream.is_web_public === 1;
  const isDefault = input.isDefaultStream ?? currentlyDefault;
  const historyPublic =
    input.historyPublicToSubscribers ??
    (input.isPrivate !== undefined ? !input.isPrivate : stream.history_public_to_subscribers === 1);

  if (isWebPublic && !historyPublic) throw invalidParameters();
  if (isWebPublic && inviteOnly) throw invalidParameters();
  if (!inviteOnly && !historyPublic) throw invalidParameters();
  if (inviteOnly && isDefault) throw defaultChannelCannotBePrivate();
  if (!inviteOnly && realm.settings.moderation_request_channel_id === stream.id) {
    throw badRequest('Moderation request channel must be private.');
  }
  if (input.isPrivate !== undefined) {
    if (!hasContentAccess(ctx, actor, stream)) {
      throw badRequest('Channel content access is required.');
    }
    if (!canCreateChannel(ctx, actor, input.isPrivate ? 'private' : 'public')) {
      throw insufficientPermission();
    }
  }
  if (input.isWebPublic) {
    if (!webPublicChannelsEnabled(ctx)) throw webPublicChannelsDisabled();
    if (!canCreateChannel(ctx, actor, 'web_public')) throw insufficientPermission();
  }
  const privacyGiven =
    input.isPrivate !== undefined ||
    input.isWebPublic !== undefined ||
    input.historyPublicToSubscribers !== undefined;

  if (input.isDefaultStream !== undefined && !isAdmin(actor)) {
    throw badRequest('You do not have permission to change default channels.');
  }
  let retention: Plan['retention'] = null;
  if (input.messageRetentionDays !== undefined) {
    if (!isOwner(actor)) throw ownerRequired();
    retention = { days: parseRetentionDays(input.messageRetentionDays) };
  }
  const unarchive = input.isArchived === false;
  if (unarchive) {
    if (!stream.is_archived) throw badRequest('Channel is not currently deactivated');
    if (stream.invite_only && activeSubscriptionCount(ctx.db, stream.id) === 0) {
      throw badRequest('Channel is private and have no subscribers');
    }
  }
  let topicsPolicy: TopicsPolicy | null = null;
  if (input.topicsPolicy !== undefined) {
    topicsPolicy = parseTopicsPolicy(input.topicsPolicy);
    if (!canSetTopicsPolicy(ctx, actor)) throw insufficientPermission();
  }
  let newName: string | null = null;
  if (input.newName !== undefined) {
    newName = input.newName.trim();
    if (newName === stream.name) throw badRequest('Channel already has that name.');
    // A change of case only keeps the name's slot.
    if (channelNameKey(newName) !== channelNameKey(stream.name)) checkNewChannelName(ctx, newName);
  }
  if (input.folderId !== undefined && input.folderId !== null) {
    accessChannelFolder(ctx, input.folderId);
  }

  const groups: PlannedGroupChange[] = [];
  for (const setting of Object.keys(channelPermissionDefaults) as ChannelPermission[]) {
    const change = input.groupSettings[setting];
    if (!change) continue;
    const current = resolveGroupSetting(ctx, channelPermission(stream, setting));
    const stored = checkChannelGroupSetting(ctx, setting, change.new);
    const value = resolveGroupSetting(ctx, stored);
    if (
      change.old !== undefined &&
      !sameGroupSetting(normalizeGroupSetting(ctx, change.old), current)
    ) {
      throw settingMismatch();
    }
    if (sameGroupSetting(current, value)) continue;
    if (contentAccessRequired.has(setting) && !hasContentAccess(ctx, actor, stream)) {
      throw badRequest('Channel content access is required.');
    }
    if (
      deletePolicySettings.has(setting) &&
      stored !== 'role:nobody' &&
      !canSetDeletePolicy(ctx, actor)
    ) {
      throw insufficientPermission();
    }
    groups.push({ setting, stored, value });
  }

  return {
    privacy: privacyGiven
      ? { inviteOnly, historyPublicToSubscribers: historyPublic, isWebPublic }
      : null,
    isDefault:
      input.isDefaultStream !== undefined && input.isDefaultStream !== currentlyDefault
        ? input.isDefaultStream
        : null,
    retention,
    unarchive,
    topicsPolicy:
      topicsPolicy !== null && topicsPolicy !== stream.topics_policy ? topicsPolicy : null,
    description: input.description !== undefined ? normalizeDescription(input.description) : null,
    newName,
    // Zulip tells the change even when the folder stays the same.
    folder: input.folderId === undefined ? null : { id: input.folderId },
    groups,
  };
}

const canSetDeletePolicy = (ctx: AppContext, actor: UserRow) =>
  isAdmin(actor) ||
  userHasGroupSetting(ctx, actor, loadRealm(ctx).settings.can_set_delete_message_policy_group);

/**
 * A change of who may see the channel: those who newly may get the channel
 * and its subscribers, those who still may an update, those who no longer
 * may are told it is gone.
 */
function announceAccessChange(
  ctx: AppContext,
  tx: Tx,
  before: Set<number>,
  streamId: number,
  update: (stream: StreamRow, users: number[]) => void,
): void {
  const stream = streamById(ctx.db, streamId)!;
  const after = channelAudience(ctx, stream);
  const gaining = usersExcept(after, before);
  const losing = usersExcept(before, after);
  update(stream, usersExcept(after, gaining));
  emitChannelRevealed(ctx, tx, stream.id, gaining);
  emitChannelGone(tx, stream.id, losing);
}

/** PATCH /streams/{stream_id} */
export function updateChannel(
  ctx: AppContext,
  actor: UserRow,
  streamId: number,
  input: ChannelUpdateInput,
): Record<string, never> {
  const original = accessChannelToAdminister(ctx, actor, streamId);
  const changes = plan(ctx, actor, original, input);
  ctx.transaction((tx) => {
    const current = () => streamById(ctx.db, streamId)!;
    if (changes.privacy) {
      const before = channelAudience(ctx, current());
      setStreamPrivacy(ctx.db, streamId, changes.privacy);
      announceAccessChange(ctx, tx, before, streamId, (stream, users) =>
        emitChannelUpdate(tx, stream, users, 'invite_only', stream.invite_only === 1, {
          history_public_to_subscribers: stream.history_public_to_subscribers === 1,
          is_web_public: stream.is_web_public === 1,
        }),
      );
    }
    if (changes.isDefault !== null) {
      if (changes.isDefault) addDefaultStream(ctx.db, streamId);
      else removeDefaultStream(ctx.db, streamId);
      emitDefaultStreams(ctx, tx);
    }
    if (changes.retention) {
      setStreamRetentionDays(ctx.db, streamId, changes.retention.days);
      const stream = current();
      emitChannelUpdate(
        tx,
        stream,
        channelAudience(ctx, stream),
        'message_retention_days',
        changes.retention.days,
      );
    }
    if (changes.unarchive) {
      setStreamArchived(ctx.db, streamId, false);
      const stream = current();
      emitChannelUnarchived(ctx, tx, streamId, channelAudience(ctx, stream));
    }
    if (changes.topicsPolicy !== null) {
      setStreamTopicsPolicy(ctx.db, streamId, changes.topicsPolicy);
      const stream = current();
      emitChannelUpdate(
        tx,
        stream,
        channelAudience(ctx, stream),
        'topics_policy',
        changes.topicsPolicy,
      );
    }
    if (changes.description !== null) {
      const rendered = changes.description === '' ? '' : renderContent(ctx, changes.description);
      setStreamDescription(ctx.db, streamId, changes.description, rendered);
      const stream = current();
      emitChannelUpdate(
        tx,
        stream,
        channelAudience(ctx, stream),
        'description',
        changes.description,
        {
          rendered_description: rendered,
        },
      );
    }
    if (changes.newName !== null) {
      const before = current();
      renameStream(ctx.db, streamId, changes.newName);
      emitChannelUpdate(tx, before, channelAudience(ctx, before), 'name', changes.newName);
    }
    if (changes.folder !== null) {
      setStreamFolder(ctx.db, streamId, changes.folder.id);
      const stream = current();
      emitChannelUpdate(tx, stream, channelAudience(ctx, stream), 'folder_id', changes.folder.id);
    }
    for (const group of changes.groups) {
      const stream = current();
      const before = channelAudience(ctx, stream);
      const oldStored = channelPermission(stream, group.setting);
      const permissions = JSON.parse(stream.permissions) as Record<string, StoredGroupSetting>;
      permissions[group.setting] = group.stored;
      setStreamPermissions(ctx.db, streamId, JSON.stringify(permissions));
      const emitUpdate = (s: StreamRow, users: Iterable<number>) =>
        emitChannelUpdate(tx, s, users, group.setting, group.value);
      if (metadataGranting.has(group.setting)) {
        announceAccessChange(ctx, tx, before, streamId, emitUpdate);
      } else {
        emitUpdate(current(), channelAudience(ctx, current()));
      }
      if (group.setting === 'can_send_message_group') {
        const oldPolicy = legacyPostPolicy(oldStored);
        const newPolicy = legacyPostPolicy(group.stored);
        if (oldPolicy !== newPolicy) {
          const audience = channelAudience(ctx, current());
          emitChannelUpdate(tx, current(), audience, 'stream_post_policy', newPolicy);
          emitChannelUpdate(tx, current(), audience, 'is_announcement_only', newPolicy === 2);
        }
      }
    }
  });
  return {};
}
