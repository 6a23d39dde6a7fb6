import { z } from 'zod';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { groupById, groupByName } from '../db/queries/user-groups.js';
import { userById } from '../db/queries/users.js';
import type { StoredGroupSetting } from './group-settings.js';
import type { GroupSettingValue } from './realm.js';

/**
 * Group-valued settings on the wire, shared by channels and the organization:
 * the value forms, the `{new, old}` change form, and Zulip's
 * parse_group_setting_value / access_user_group_for_setting checks.
 */

/** A group-setting value on the wire: a group id or an anonymous group. */
export const groupSettingValueSchema = z.union([
  z.int(),
  z.object({ direct_members: z.array(z.int()), direct_subgroups: z.array(z.int()) }).strict(),
]);
export type GroupSettingInput = z.infer<typeof groupSettingValueSchema>;

/** PATCH form: the new value, and optionally the value the client believes is current. */
export const groupSettingChangeSchema = z
  .object({ new: groupSettingValueSchema, old: groupSettingValueSchema.optional() })
  .strict();
export type GroupSettingChange = z.infer<typeof groupSettingChangeSchema>;

/** Zulip's parse_group_setting_value: one subgroup alone is that group, nothing is Nobody. */
export function normalizeGroupSetting(
  ctx: AppContext,
  input: GroupSettingInput,
): GroupSettingValue {
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
 * parse_group_setting_value plus access_user_group_for_setting: groups and
 * users must exist; role:internet is never allowed, role:everyone only where
 * `allowEverybody`. Returns the stored form (system groups by name).
 */
export function checkGroupSettingValue(
  ctx: AppContext,
  setting: string,
  input: GroupSettingInput,
  options: {
    allowEverybody: boolean;
    /** Zulip's allowed_system_groups, which implies require_system_group here. */
    allowedSystemGroups?: readonly string[];
    /** User-group settings name a deactivated group as such; others call it invalid. */
    deactivatedGroup?: () => Error;
  },
): StoredGroupSetting {
  const deactivated = (fallback: () => Error) => (options.deactivatedGroup ?? fallback)();
  const value = normalizeGroupSetting(ctx, input);
  if (typeof value === 'number') {
    const group = groupById(ctx.db, value);
    if (!group) throw badRequest('Invalid user group');
    if (group.deactivated) throw deactivated(() => badRequest('Invalid user group'));
    if (options.allowedSystemGroups && !group.is_system_group) throw systemGroupRequired(setting);
    if (group.name === 'role:internet') {
      throw badRequest(`'${setting}' setting cannot be set to 'role:internet' group.`);
    }
    if (group.name === 'role:everyone' && !options.allowEverybody) {
      throw badRequest(`'${setting}' setting cannot be set to 'role:everyone' group.`);
    }
    if (options.allowedSystemGroups && !options.allowedSystemGroups.includes(group.name)) {
      throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    }
    // System groups are stored by name, as the defaults are.
    return group.is_system_group ? group.name : value;
  }
  if (options.allowedSystemGroups) throw systemGroupRequired(setting);
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  for (const id of members) {
    const user = userById(ctx.db, id);
    if (!user?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  }
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  for (const id of subgroups) {
    const group = groupById(ctx.db, id);
    if (!group) throw badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw deactivated(() => badRequest(`Invalid user group ID: ${id}`));
  }
  return { direct_members: members, direct_subgroups: subgroups };
}

const systemGroupRequired = (setting: string) =>
  badRequest(`'${setting}' must be a system user group.`);

/** Zulip's are_both_group_setting_values_equal (anonymous groups compare as sets). */
export function sameGroupSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
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

/** Has the `old` the client sent (if any) gone stale against `current`? */
export function checkOldGroupSetting(
  ctx: AppContext,
  change: GroupSettingChange,
  current: GroupSettingValue,
): void {
  if (
    change.old !== undefined &&
    !sameGroupSetting(normalizeGroupSetting(ctx, change.old), current)
  ) {
    throw settingMismatch();
  }
}
