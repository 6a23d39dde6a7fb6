import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { UserGroupRow } from '../db/queries/user-groups.js';
import type { UserRow } from '../db/queries/users.js';
import { checkGroupSettingValue, type GroupSettingInput } from '../shared/group-setting-change.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { apiGroupSettingValue, type GroupSettingValue } from '../shared/realm.js';
import { isGuest } from '../shared/roles.js';

/** The group-valued settings of a user group, with Zulip's configuration for each. */
export const groupPermissionSettings = {
  can_add_members_group: { allowEveryone: false },
  can_join_group: { allowEveryone: false },
  can_leave_group: { allowEveryone: true },
  can_manage_group: { allowEveryone: false },
  can_mention_group: { allowEveryone: true },
  can_remove_members_group: { allowEveryone: false },
} as const;
export type GroupPermission = keyof typeof groupPermissionSettings;
export const groupPermissionNames = Object.keys(groupPermissionSettings) as GroupPermission[];

/** A system group's settings (and anything missing from a stored row). */
const systemGroupDefaults: Record<GroupPermission, StoredGroupSetting> = {
  can_add_members_group: 'role:nobody',
  can_join_group: 'role:nobody',
  can_leave_group: 'role:everyone',
  can_manage_group: 'role:nobody',
  can_mention_group: 'role:everyone',
  can_remove_members_group: 'role:nobody',
};

/** A new group's settings when the request leaves them out: the creator manages it. */
export function newGroupDefaults(creatorId: number): Record<GroupPermission, StoredGroupSetting> {
  const creator = { direct_members: [creatorId], direct_subgroups: [] };
  return {
    ...systemGroupDefaults,
    can_add_members_group: creator,
    can_manage_group: creator,
  };
}

export function storedPermissions(
  group: UserGroupRow,
): Record<GroupPermission, StoredGroupSetting> {
  const overrides = JSON.parse(group.permissions) as Partial<Record<string, StoredGroupSetting>>;
  const out = { ...systemGroupDefaults };
  for (const name of groupPermissionNames) {
    const value = overrides[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The API form of a setting: a group id or an anonymous group. */
export const apiGroupSetting = (ctx: AppContext, value: StoredGroupSetting): GroupSettingValue =>
  apiGroupSettingValue(ctx, value);

/**
 * Zulip's user_has_permission_for_group_setting: guests never hold a
 * setting that may not be set to role:everyone.
 */
export function hasGroupPermission(
  ctx: AppContext,
  user: UserRow,
  group: UserGroupRow,
  setting: GroupPermission,
): boolean {
  if (!groupPermissionSettings[setting].allowEveryone && isGuest(user)) return false;
  return userHasGroupSetting(ctx, user, storedPermissions(group)[setting]);
}

export type { GroupSettingInput } from '../shared/group-setting-change.js';

const deactivatedGroup = () => badRequest('User group is deactivated.');

/**
 * Zulip's access_user_group_for_setting for a user group's settings: the
 * shared check, with role:everyone only where guests may hold the permission
 * and Zulip's own message for a deactivated group.
 */
export function checkGroupSetting(
  ctx: AppContext,
  setting: GroupPermission,
  input: GroupSettingInput,
): StoredGroupSetting {
  return checkGroupSettingValue(ctx, setting, input, {
    allowEverybody: groupPermissionSettings[setting].allowEveryone,
    deactivatedGroup,
  });
}

/** Does a stored setting value name this group, directly or as an anonymous group's subgroup? */
export function settingUsesGroup(value: unknown, group: UserGroupRow): boolean {
  if (typeof value === 'number') return value === group.id;
  if (typeof value === 'string') return value === group.name;
  if (value && typeof value === 'object' && 'direct_subgroups' in value) {
    const subgroups = (value as { direct_subgroups: unknown }).direct_subgroups;
    return Array.isArray(subgroups) && subgroups.includes(group.id);
  }
  return false;
}
