import type { AppContext } from '../core/context.js';
import { groupById, groupByName, isRecursiveMember } from '../db/queries/user-groups.js';
import type { UserRow } from '../db/queries/users.js';
import { Role } from './roles.js';

/**
 * A group-setting value as stored: a system group's name (defaults), a group
 * id, or an anonymous group of direct members and subgroups.
 */
export type StoredGroupSetting =
  | string
  | number
  | { direct_members: number[]; direct_subgroups: number[] };

/** System-group membership follows from the role alone: no query needed. */
const roleGroups: Record<string, (role: number) => boolean> = {
  'role:internet': () => true,
  'role:everyone': () => true,
  'role:members': (role) => role <= Role.member,
  'role:fullmembers': (role) => role <= Role.member,
  'role:moderators': (role) => role <= Role.moderator,
  'role:administrators': (role) => role <= Role.administrator,
  'role:owners': (role) => role === Role.owner,
  'role:nobody': () => false,
};

function inGroup(ctx: AppContext, user: Pick<UserRow, 'id' | 'role'>, groupId: number): boolean {
  const group = groupById(ctx.db, groupId);
  if (!group || group.deactivated) return false;
  const byRole = group.is_system_group ? roleGroups[group.name] : undefined;
  if (byRole) return byRole(user.role);
  return isRecursiveMember(ctx.db, groupId, user.id);
}

/** Is `user` in the set of users that a group-setting value describes? */
export function userHasGroupSetting(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'role'>,
  value: StoredGroupSetting,
): boolean {
  if (typeof value === 'string') {
    const byRole = roleGroups[value];
    if (byRole) return byRole(user.role);
    const group = groupByName(ctx.db, value);
    return group ? inGroup(ctx, user, group.id) : false;
  }
  if (typeof value === 'number') return inGroup(ctx, user, value);
  if (value.direct_members.includes(user.id)) return true;
  return value.direct_subgroups.some((id) => inGroup(ctx, user, id));
}
