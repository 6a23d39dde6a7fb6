import type { AppContext } from '../core/context.js';
import { badRequest, ownerRequired } from '../core/errors.js';
import { setRealmDescription, setRealmName, setRealmSettings } from '../db/queries/realm.js';
import { streamById } from '../db/queries/streams.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import {
  checkGroupSettingValue,
  checkOldGroupSetting,
  type GroupSettingChange,
  sameGroupSetting,
} from '../shared/group-setting-change.js';
import type { StoredGroupSetting } from '../shared/group-settings.js';
import { apiGroupSettingValue, type GroupSettingValue, loadRealm } from '../shared/realm.js';
import type { RealmSettingName, RealmSettings } from '../shared/realm-settings.js';
import { isOwner, requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';

/** Limits that take a positive number of seconds or "unlimited" (null). */
export const timeLimitSettings = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;
export type TimeLimitSetting = (typeof timeLimitSettings)[number];

/** Group-valued settings PATCH /realm accepts. */
export const realmGroupSettings = [
  'can_access_all_users_group',
  'can_add_custom_emoji_group',
  'can_add_subscribers_group',
  'can_create_bots_group',
  'can_create_groups',
  'can_create_private_channel_group',
  'can_create_public_channel_group',
  'can_create_web_public_channel_group',
  'can_create_write_only_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'can_mention_many_users_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_set_delete_message_policy_group',
  'can_set_topics_policy_group',
  'can_summarize_topics_group',
  'create_multiuse_invite_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
] as const satisfies readonly RealmSettingName[];
export type RealmGroupSetting = (typeof realmGroupSettings)[number];

/** Zulip's allow_everyone_group=True for these; the rest refuse role:everyone. */
const everyoneAllowed = new Set<RealmGroupSetting>([
  'can_access_all_users_group',
  'can_delete_own_message_group',
  'can_mention_many_users_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
]);

/**
 * Zulip's allowed_system_groups (with require_system_group): who may see all
 * users is everyone or members, nothing finer (the web app relies on members
 * always seeing everyone). Zulip Cloud sells it on a plan; Hearth has none.
 */
const allowedSystemGroups: Partial<Record<RealmGroupSetting, readonly string[]>> = {
  can_access_all_users_group: ['role:everyone', 'role:members'],
};

/** Only owners may change these (Zulip's update_realm). */
const ownerOnlyGroups = new Set<RealmGroupSetting>([
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
]);

/** Zulip's do_set_realm_property sends these as `update_dict` for historical reasons. */
const updateDictSettings = new Set<string>([
  'allow_message_editing',
  'message_content_edit_limit_seconds',
]);

export interface RealmUpdateInput {
  name?: string;
  description?: string;
  allow_message_editing?: boolean;
  allow_edit_history?: boolean;
  message_edit_history_visibility_policy?: RealmSettings['message_edit_history_visibility_policy'];
  mandatory_topics?: boolean;
  topics_policy?: RealmSettings['topics_policy'];
  emails_restricted_to_domains?: boolean;
  enable_read_receipts?: boolean;
  welcome_message_custom_text?: string;
  waiting_period_threshold?: number;
  moderation_request_channel_id?: number;
  limits: Partial<Record<TimeLimitSetting, number | string>>;
  groups: Partial<Record<RealmGroupSetting, GroupSettingChange>>;
}

/** Zulip's parse_message_time_limit_setting: "unlimited" is null, else a positive integer. */
function parseTimeLimit(setting: string, raw: number | string): number | null {
  if (raw === 'unlimited') return null;
  if (typeof raw === 'string' || raw <= 0) {
    throw badRequest(`Bad value for '${setting}': ${raw}`);
  }
  return raw;
}

/**
 * Message reports go to a private channel (Zulip's check in update_realm);
 * -1 turns reporting off.
 */
function checkModerationRequestChannel(ctx: AppContext, streamId: number): void {
  if (streamId === -1) return;
  const stream = streamById(ctx.db, streamId);
  if (!stream || stream.is_archived) throw badRequest('Invalid channel ID');
  if (!stream.invite_only) throw badRequest('Moderation request channel must be private.');
}

type RealmUpdate = Omit<EventBody<'realm', 'update'>, 'type'>;
type RealmUpdateDict = Omit<EventBody<'realm', 'update_dict'>, 'type'>;
type Event = RealmUpdate | RealmUpdateDict;

/**
 * PATCH /realm (Zulip's update_realm): admins only, some settings owners
 * only; every change is validated first, then written in one transaction
 * with one event each to every active user. Returns what changed (strings
 * as "updated").
 */
export function updateRealm(
  ctx: AppContext,
  actor: UserRow,
  input: RealmUpdateInput,
): Record<string, unknown> {
  requireRole(actor, 'admin');
  const needsOwner =
    input.emails_restricted_to_domains !== undefined ||
    input.waiting_period_threshold !== undefined ||
    Object.entries(input.groups).some(
      ([name, change]) => change !== undefined && ownerOnlyGroups.has(name as RealmGroupSetting),
    );
  if (needsOwner && !isOwner(actor)) throw ownerRequired();

  const realm = loadRealm(ctx);
  const current = realm.settings;
  const overrides: Record<string, unknown> = JSON.parse(realm.row.settings || '{}');
  const data: Record<string, unknown> = {};
  const events: Event[] = [];
  const setPlain = (name: RealmSettingName, value: unknown) => {
    if (current[name] === value) return;
    overrides[name] = value;
    data[name] = typeof value === 'string' ? 'updated' : value;
    // A setting's value type goes with its name, which the types here do not pair.
    events.push(
      updateDictSettings.has(name)
        ? {
            op: 'update_dict',
            property: 'default',
            data: { [name]: value } as RealmUpdateDict['data'],
          }
        : { op: 'update', property: name, value: value as RealmUpdate['value'] },
    );
  };

  // Validation that can fail comes before any change is planned.
  const limits: [TimeLimitSetting, number | null][] = [];
  for (const setting of timeLimitSettings) {
    const raw = input.limits[setting];
    if (raw !== undefined) limits.push([setting, parseTimeLimit(setting, raw)]);
  }
  const groups: [RealmGroupSetting, StoredGroupSetting, GroupSettingValue][] = [];
  for (const setting of realmGroupSettings) {
    const change = input.groups[setting];
    if (!change) continue;
    const currentValue = apiGroupSettingValue(ctx, current[setting]);
    const stored = checkGroupSettingValue(ctx, setting, change.new, {
      allowEverybody: everyoneAllowed.has(setting),
      allowedSystemGroups: allowedSystemGroups[setting],
    });
    checkOldGroupSetting(ctx, change, currentValue);
    const value = apiGroupSettingValue(ctx, stored);
    if (!sameGroupSetting(currentValue, value)) groups.push([setting, stored, value]);
  }

  let name: string | null = null;
  if (input.name !== undefined && input.name !== realm.row.name) {
    if (input.name.trim() === '') throw badRequest("Organization name can't be empty.");
    name = input.name;
  }
  if (input.moderation_request_channel_id !== undefined) {
    checkModerationRequestChannel(ctx, input.moderation_request_channel_id);
  }
  const description =
    input.description !== undefined && input.description !== realm.row.description
      ? input.description
      : null;

  for (const setting of [
    'allow_message_editing',
    'allow_edit_history',
    'message_edit_history_visibility_policy',
    'emails_restricted_to_domains',
    'enable_read_receipts',
    'welcome_message_custom_text',
    'waiting_period_threshold',
    'moderation_request_channel_id',
  ] as const) {
    if (input[setting] !== undefined) setPlain(setting, input[setting]);
  }
  for (const [setting, value] of limits) setPlain(setting, value);

  // mandatory_topics is the legacy form of topics_policy; both change together.
  const topicsPolicy =
    input.topics_policy ??
    (input.mandatory_topics === undefined
      ? undefined
      : input.mandatory_topics
        ? 'disable_empty_topic'
        : 'allow_empty_topic');
  const currentPolicy = current.mandatory_topics ? 'disable_empty_topic' : current.topics_policy;
  if (topicsPolicy !== undefined && topicsPolicy !== currentPolicy) {
    const mandatory = topicsPolicy === 'disable_empty_topic';
    overrides.topics_policy = topicsPolicy;
    overrides.mandatory_topics = mandatory;
    if (input.topics_policy !== undefined) data.topics_policy = 'updated';
    if (input.mandatory_topics !== undefined) data.mandatory_topics = mandatory;
    events.push({
      op: 'update_dict',
      property: 'default',
      data: { topics_policy: topicsPolicy, mandatory_topics: mandatory },
    });
  }

  for (const [setting, stored, value] of groups) {
    overrides[setting] = stored;
    data[setting] = value;
    events.push({
      op: 'update_dict',
      property: 'default',
      data: { [setting]: value } as RealmUpdateDict['data'],
    });
  }

  if (name === null && description === null && events.length === 0) return data;
  ctx.transaction((tx) => {
    const users = activeUserIds(ctx.db);
    if (name !== null) {
      setRealmName(ctx.db, name);
      data.name = 'updated';
      tx.emit({
        type: 'realm',
        users,
        payload: {
          type: 'realm',
          op: 'update',
          property: 'name',
          value: name,
        } satisfies EventBody<'realm', 'update'>,
      });
    }
    if (description !== null) {
      setRealmDescription(ctx.db, description);
      data.description = 'updated';
      tx.emit({
        type: 'realm',
        users,
        payload: {
          type: 'realm',
          op: 'update',
          property: 'description',
          value: description,
        } satisfies EventBody<'realm', 'update'>,
      });
    }
    setRealmSettings(ctx.db, JSON.stringify(overrides));
    for (const event of events)
      tx.emit({
        type: 'realm',
        users,
        payload: { type: 'realm', ...event } satisfies EventBody<'realm', 'update' | 'update_dict'>,
      });
  });
  return data;
}
