import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { groupById, groupByName, type UserGroupRow } from '../db/queries/user-groups.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { type GroupSettingValue, resolveGroupSetting } from '../shared/realm.js';
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
  resolveGroupSetting(ctx, value);

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

export type GroupSettingInput = number | { direct_members: number[]; direct_subgroups: number[] };

const deactivatedGroup = () => badRequest('User group is deactivated.');

/** Zulip's parse_group_setting_value: one subgroup alone is that group; empty is Nobody. */
export function normalizeSetting(ctx: AppContext, input: GroupSettingInput): GroupSettingValue {
  if (typeof input === 'number') return input;
  if (input.direct_members.length === 0 && input.direct_subgroups.length === 1) {
    return input.direct_subgroups[0]!;
  }
  if (input.direct_members.length === 0 && input.direct_subgroups.length === 0) {
    return groupByName(ctx.db, 'role:nobody')!.id;
  }
  return input;
}

/**
 * Zulip's access_user_group_for_setting for a user group's settings: groups
 * and users must exist and be active; role:internet is never allowed, and
 * role:everyone only where guests may hold the permission.
 */
export function checkGroupSetting(
  ctx: AppContext,
  setting: GroupPermission,
  input: GroupSettingInput,
): StoredGroupSetting {
  const value = normalizeSetting(ctx, input);
  if (typeof value === 'number') {
    const group = groupById(ctx.db, value);
    if (!group) throw badRequest('Invalid user group');
    if (group.deactivated) throw deactivatedGroup();
    if (group.name === 'role:internet') {
      throw badRequest(`'${setting}' setting cannot be set to 'role:internet' group.`);
    }
    if (group.name === 'role:everyone' && !groupPermissionSettings[setting].allowEveryone) {
      throw badRequest(`'${setting}' setting cannot be set to 'role:everyone' group.`);
    }
    return group.is_system_group ? group.name : value;
  }
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  for (const id of members) {
    const user = userById(ctx.db, id);
    if (!user?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  }
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  for (const id of subgroups) {
    const group = groupById(ctx.db, id);
    if (!group) throw badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw deactivatedGroup();
  }
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Zulip's are_both_group_setting_values_equal (anonymous groups compare as sets). */
export function sameSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sameSet = (x: number[], y: number[]) => {
    const sx = new Set(x);
    const sy = new Set(y);
    return sx.size === sy.size && [...sx].every((v) => sy.has(v));
  };
  return (
    sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups)
  );
}

/** Zulip's PreviousSettingValueMismatchedError. */
export const settingMismatch = () =>
  new ApiError("'old' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });

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
