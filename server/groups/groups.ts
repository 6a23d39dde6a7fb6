import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { allStreams } from '../db/queries/streams.js';
import {
  activeDirectMembers,
  activeRecursiveMembers,
  addGroupMember,
  addSubgroup,
  allGroups,
  directSubgroups,
  directSupergroups,
  groupById,
  groupByName,
  insertGroup,
  recursiveSubgroups,
  removeGroupMember,
  removeSubgroup,
  setGroupDeactivated,
  setGroupDescription,
  setGroupName,
  setGroupPermissions,
  type UserGroupRow,
} from '../db/queries/user-groups.js';
import { type UserRow, userById } from '../db/queries/users.js';
import {
  normalizeGroupSetting,
  sameGroupSetting,
  settingMismatch,
} from '../shared/group-setting-change.js';
import type { StoredGroupSetting } from '../shared/group-settings.js';
import { userHasGroupSetting } from '../shared/group-settings.js';
import { MAX_USER_GROUP_NAME_LENGTH } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { groupSettingNames } from '../shared/realm-settings.js';
import { isGuest } from '../shared/roles.js';
import { accessReadableUser } from '../users/index.js';
import { emitActivationChange, emitGroupEvent, formatGroup } from './format.js';
import {
  apiGroupSetting,
  checkGroupSetting,
  type GroupPermission,
  type GroupSettingInput,
  groupPermissionNames,
  hasGroupPermission,
  newGroupDefaults,
  settingUsesGroup,
  storedPermissions,
} from './settings.js';

/* ---------- callers and access (Zulip's decorators and access_user_group_*) ---------- */

/** Zulip's require_member_or_admin. */
function requireMemberOrAdmin(user: UserRow): void {
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

const insufficientPermission = () => badRequest('Insufficient permission');
const deactivatedGroup = () => badRequest('User group is deactivated.');

/** Zulip's get_user_group_by_id_in_realm. */
function groupForAccess(
  ctx: AppContext,
  groupId: number,
  opts: { allowDeactivated: boolean },
): UserGroupRow {
  const group = groupById(ctx.db, groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated && !opts.allowDeactivated) throw deactivatedGroup();
  return group;
}

/** Realm setting can_manage_all_groups (never guests). */
const canManageAllGroups = (ctx: AppContext, user: UserRow) =>
  !isGuest(user) && userHasGroupSetting(ctx, user, loadRealm(ctx).settings.can_manage_all_groups);

/**
 * Zulip's access_user_group_for_update: system groups are never edited;
 * can_manage_all_groups and the group's can_manage_group allow everything,
 * otherwise the named setting decides.
 */
function accessGroupForUpdate(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  setting: GroupPermission,
  opts: { allowDeactivated: boolean },
): UserGroupRow {
  const group = groupForAccess(ctx, groupId, opts);
  if (group.is_system_group) throw insufficientPermission();
  if (canManageAllGroups(ctx, user)) return group;
  if (hasGroupPermission(ctx, user, group, 'can_manage_group')) return group;
  if (setting !== 'can_manage_group' && hasGroupPermission(ctx, user, group, setting)) return group;
  throw insufficientPermission();
}

/** Zulip's user_ids_to_users (active accounts only). */
function activeUsersByIds(ctx: AppContext, ids: number[]): UserRow[] {
  return ids.map((id) => {
    const user = userById(ctx.db, id);
    if (!user?.is_active) throw badRequest(`Invalid user ID: ${id}`);
    return user;
  });
}

/** Zulip's check_user_group_name. */
function checkGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
    if (name.startsWith(prefix)) {
      throw badRequest(`User group name cannot start with '${prefix}'.`);
    }
  }
  return name;
}

function checkNameFree(ctx: AppContext, name: string): void {
  if (groupByName(ctx.db, name)) throw badRequest(`User group '${name}' already exists.`);
}

/* ---------- reading ---------- */

/** GET /user_groups */
export function listUserGroups(
  ctx: AppContext,
  user: UserRow,
  includeDeactivated: boolean,
): { user_groups: Record<string, unknown>[] } {
  requireMemberOrAdmin(user);
  return {
    user_groups: allGroups(ctx.db)
      .filter((g) => includeDeactivated || !g.deactivated)
      .map((g) => formatGroup(ctx, g)),
  };
}

/** GET /user_groups/{id}/members */
export function getUserGroupMembers(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  directOnly: boolean,
): { members: number[] } {
  requireMemberOrAdmin(user);
  const group = groupForAccess(ctx, groupId, { allowDeactivated: false });
  return {
    members: directOnly
      ? activeDirectMembers(ctx.db, group.id)
      : activeRecursiveMembers(ctx.db, group.id),
  };
}

/** GET /user_groups/{id}/members/{user_id} */
export function isUserGroupMember(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  userId: number,
  directOnly: boolean,
): { is_user_group_member: boolean } {
  requireMemberOrAdmin(user);
  const group = groupForAccess(ctx, groupId, { allowDeactivated: false });
  const target = accessReadableUser(ctx, user, userId, { allowBots: true });
  const members = directOnly
    ? activeDirectMembers(ctx.db, group.id)
    : activeRecursiveMembers(ctx.db, group.id);
  return { is_user_group_member: members.includes(target.id) };
}

/** GET /user_groups/{id}/subgroups */
export function getUserGroupSubgroups(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  directOnly: boolean,
): { subgroups: number[] } {
  requireMemberOrAdmin(user);
  const group = groupForAccess(ctx, groupId, { allowDeactivated: false });
  return {
    subgroups: directOnly
      ? directSubgroups(ctx.db, group.id)
      : recursiveSubgroups(ctx.db, group.id),
  };
}

/* ---------- creating ---------- */

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  subgroups: number[] | undefined;
  settings: Partial<Record<GroupPermission, GroupSettingInput>>;
}

/** POST /user_groups/create */
export function createUserGroup(
  ctx: AppContext,
  user: UserRow,
  input: NewUserGroup,
): { group_id: number } {
  // Zulip's require_user_group_create_permission (can_create_groups; never guests).
  if (isGuest(user) || !userHasGroupSetting(ctx, user, loadRealm(ctx).settings.can_create_groups)) {
    throw insufficientPermission();
  }
  const members = activeUsersByIds(ctx, input.members);
  const name = checkGroupName(input.name);
  const permissions = newGroupDefaults(user.id);
  for (const setting of groupPermissionNames) {
    const value = input.settings[setting];
    if (value !== undefined) permissions[setting] = checkGroupSetting(ctx, setting, value);
  }
  return ctx.transaction((tx) => {
    checkNameFree(ctx, name);
    const id = insertGroup(ctx.db, {
      name,
      description: input.description,
      is_system_group: false,
      date_created: Math.floor(ctx.now() / 1000),
      creator_id: user.id,
    });
    setGroupPermissions(ctx.db, id, JSON.stringify(permissions));
    for (const member of members) addGroupMember(ctx.db, id, member.id);
    const created = groupById(ctx.db, id)!;
    emitGroupEvent(ctx, tx, created, { op: 'add', group: formatGroup(ctx, created) });
    if (input.subgroups && input.subgroups.length > 0) {
      const subgroups = checkSubgroupsToAdd(ctx, groupById(ctx.db, id)!, input.subgroups);
      for (const sub of subgroups) addSubgroup(ctx.db, id, sub.id);
      emitGroupEvent(ctx, tx, groupById(ctx.db, id)!, {
        op: 'add_subgroups',
        group_id: id,
        direct_subgroup_ids: subgroups.map((g) => g.id),
      });
    }
    return { group_id: id };
  });
}

/* ---------- members and subgroups ---------- */

/** The groups to add as subgroups of `group`: existing, active, new, and no cycles. */
function checkSubgroupsToAdd(ctx: AppContext, group: UserGroupRow, ids: number[]): UserGroupRow[] {
  const subgroups = potentialSubgroups(ctx, ids);
  const existing = new Set(directSubgroups(ctx.db, group.id));
  for (const sub of subgroups) {
    if (existing.has(sub.id)) {
      throw badRequest(`User group ${sub.id} is already a subgroup of this group.`);
    }
  }
  for (const sub of subgroups) {
    if (sub.id === group.id || recursiveSubgroups(ctx.db, sub.id).includes(group.id)) {
      throw badRequest(
        `User group ${group.id} is already a subgroup of one of the passed subgroups.`,
      );
    }
  }
  return subgroups;
}

/** Zulip's lock_subgroups_with_respect_to_supergroup checks on the subgroups. */
function potentialSubgroups(ctx: AppContext, ids: number[]): UserGroupRow[] {
  const groups = [...new Set(ids)].map((id) => {
    const group = groupById(ctx.db, id);
    if (!group) throw badRequest(`Invalid user group ID: ${id}`);
    return group;
  });
  for (const group of groups) if (group.deactivated) throw deactivatedGroup();
  return groups;
}

export interface MembershipChange {
  add?: number[];
  delete?: number[];
  addSubgroups?: number[];
  deleteSubgroups?: number[];
}

/** POST /user_groups/{id}/members */
export function updateUserGroupMembers(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  change: MembershipChange,
): Record<string, never> {
  requireMemberOrAdmin(user);
  const nothing = (list: number[] | undefined) => !list || list.length === 0;
  if (
    nothing(change.add) &&
    nothing(change.delete) &&
    nothing(change.addSubgroups) &&
    nothing(change.deleteSubgroups)
  ) {
    throw badRequest(
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
  }
  return ctx.transaction((tx) => {
    if (change.add?.length) addMembers(ctx, tx, user, groupId, change.add);
    if (change.delete?.length) removeMembers(ctx, tx, user, groupId, change.delete);
    if (change.addSubgroups?.length) addSubgroups(ctx, tx, user, groupId, change.addSubgroups);
    if (change.deleteSubgroups?.length) {
      removeSubgroups(ctx, tx, user, groupId, change.deleteSubgroups);
    }
    return {};
  });
}

type Tx = Parameters<Parameters<AppContext['transaction']>[0]>[0];

/** Joining oneself needs can_join_group (or can_add_members_group). */
function addMembers(ctx: AppContext, tx: Tx, user: UserRow, groupId: number, ids: number[]): void {
  const self = ids.length === 1 && ids[0] === user.id;
  const group = accessWithFallback(
    ctx,
    user,
    groupId,
    self ? 'can_join_group' : null,
    'can_add_members_group',
  );
  const users = activeUsersByIds(ctx, ids);
  const existing = new Set(activeDirectMembers(ctx.db, group.id));
  for (const member of users) {
    if (existing.has(member.id)) {
      throw badRequest(`User ${member.id} is already a member of this group`);
    }
  }
  const added = [...new Set(users.map((u) => u.id))];
  for (const id of added) addGroupMember(ctx.db, group.id, id);
  emitGroupEvent(ctx, tx, group, { op: 'add_members', group_id: group.id, user_ids: added });
}

/** Leaving oneself needs can_leave_group (or can_remove_members_group). */
function removeMembers(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  groupId: number,
  ids: number[],
): void {
  const users = activeUsersByIds(ctx, ids);
  const self = ids.length === 1 && ids[0] === user.id;
  const group = accessWithFallback(
    ctx,
    user,
    groupId,
    self ? 'can_leave_group' : null,
    'can_remove_members_group',
  );
  const existing = new Set(activeDirectMembers(ctx.db, group.id));
  for (const id of ids) {
    if (!existing.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
  }
  const removed = [...new Set(users.map((u) => u.id))];
  for (const id of removed) removeGroupMember(ctx.db, group.id, id);
  emitGroupEvent(ctx, tx, group, { op: 'remove_members', group_id: group.id, user_ids: removed });
}

function accessWithFallback(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  first: GroupPermission | null,
  setting: GroupPermission,
): UserGroupRow {
  if (first) {
    try {
      return accessGroupForUpdate(ctx, user, groupId, first, { allowDeactivated: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return accessGroupForUpdate(ctx, user, groupId, setting, { allowDeactivated: true });
}

function addSubgroups(ctx: AppContext, tx: Tx, user: UserRow, groupId: number, ids: number[]) {
  const group = accessGroupForUpdate(ctx, user, groupId, 'can_add_members_group', {
    allowDeactivated: true,
  });
  const subgroups = checkSubgroupsToAdd(ctx, group, ids);
  for (const sub of subgroups) addSubgroup(ctx.db, group.id, sub.id);
  emitGroupEvent(ctx, tx, group, {
    op: 'add_subgroups',
    group_id: group.id,
    direct_subgroup_ids: subgroups.map((g) => g.id),
  });
}

function removeSubgroups(ctx: AppContext, tx: Tx, user: UserRow, groupId: number, ids: number[]) {
  const group = accessGroupForUpdate(ctx, user, groupId, 'can_manage_group', {
    allowDeactivated: true,
  });
  const subgroups = potentialSubgroups(ctx, ids);
  const existing = new Set(directSubgroups(ctx.db, group.id));
  for (const sub of subgroups) {
    if (!existing.has(sub.id)) {
      throw badRequest(`User group ${sub.id} is not a subgroup of this group.`);
    }
  }
  for (const sub of subgroups) removeSubgroup(ctx.db, group.id, sub.id);
  emitGroupEvent(ctx, tx, group, {
    op: 'remove_subgroups',
    group_id: group.id,
    direct_subgroup_ids: subgroups.map((g) => g.id),
  });
}

/** POST /user_groups/{id}/subgroups (bots may call it since level 496). */
export function updateUserGroupSubgroups(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  change: { add?: number[]; delete?: number[] },
): Record<string, never> {
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  if (!change.add?.length && !change.delete?.length) {
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  }
  return ctx.transaction((tx) => {
    if (change.add?.length) addSubgroups(ctx, tx, user, groupId, change.add);
    if (change.delete?.length) removeSubgroups(ctx, tx, user, groupId, change.delete);
    return {};
  });
}

/* ---------- updating, deactivating ---------- */

export interface GroupUpdate {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<
    Record<GroupPermission, { new: GroupSettingInput; old?: GroupSettingInput | undefined }>
  >;
}

/** PATCH /user_groups/{id} */
export function updateUserGroup(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  update: GroupUpdate,
): Record<string, never> {
  requireMemberOrAdmin(user);
  if (
    update.name === undefined &&
    update.description === undefined &&
    update.deactivated === undefined &&
    Object.values(update.settings).every((v) => v === undefined)
  ) {
    throw badRequest('No new data supplied');
  }
  return ctx.transaction((tx) => {
    let group = accessGroupForUpdate(ctx, user, groupId, 'can_manage_group', {
      allowDeactivated: true,
    });
    const reload = () => {
      group = groupById(ctx.db, group.id)!;
    };
    if (update.name !== undefined && update.name !== group.name) {
      const name = checkGroupName(update.name);
      checkNameFree(ctx, name);
      setGroupName(ctx.db, group.id, name);
      emitGroupEvent(ctx, tx, group, { op: 'update', group_id: group.id, data: { name } });
      reload();
    }
    if (update.description !== undefined && update.description !== group.description) {
      setGroupDescription(ctx.db, group.id, update.description);
      emitGroupEvent(ctx, tx, group, {
        op: 'update',
        group_id: group.id,
        data: { description: update.description },
      });
      reload();
    }
    if (update.deactivated === false && group.deactivated) {
      setGroupDeactivated(ctx.db, group.id, false);
      reload();
      emitActivationChange(ctx, tx, group, false);
    }
    for (const setting of groupPermissionNames) {
      const change = update.settings[setting];
      if (change === undefined) continue;
      const stored = storedPermissions(group);
      const current = apiGroupSetting(ctx, stored[setting]);
      const requested = normalizeGroupSetting(ctx, change.new);
      if (
        change.old !== undefined &&
        !sameGroupSetting(normalizeGroupSetting(ctx, change.old), current)
      ) {
        throw settingMismatch();
      }
      if (sameGroupSetting(current, requested)) continue;
      const value: StoredGroupSetting = checkGroupSetting(ctx, setting, change.new);
      setGroupPermissions(ctx.db, group.id, JSON.stringify({ ...stored, [setting]: value }));
      reload();
      emitGroupEvent(ctx, tx, group, {
        op: 'update',
        group_id: group.id,
        data: { [setting]: apiGroupSetting(ctx, value) },
      });
    }
    return {};
  });
}

/** Zulip's access_user_group_for_deactivation: where the group is still used. */
function objectionsTo(ctx: AppContext, group: UserGroupRow): Record<string, unknown>[] {
  const objections: Record<string, unknown>[] = [];
  const supergroups = directSupergroups(ctx.db, group.id).filter((id) => {
    const g = groupById(ctx.db, id);
    return g !== undefined && !g.deactivated;
  });
  if (supergroups.length > 0) {
    objections.push({ type: 'subgroup', supergroup_ids: supergroups });
  }
  for (const stream of allStreams(ctx.db)) {
    if (stream.is_archived) continue;
    const permissions = JSON.parse(stream.permissions) as Record<string, unknown>;
    const settings = Object.keys(permissions)
      .filter((name) => settingUsesGroup(permissions[name], group))
      .sort();
    if (settings.length > 0) {
      objections.push({ type: 'channel', channel_id: stream.id, settings });
    }
  }
  for (const other of allGroups(ctx.db)) {
    if (other.deactivated) continue;
    const permissions = storedPermissions(other);
    const settings = groupPermissionNames.filter((name) =>
      settingUsesGroup(permissions[name], group),
    );
    if (settings.length > 0) {
      objections.push({ type: 'user_group', group_id: other.id, settings });
    }
  }
  const realmSettings = loadRealm(ctx).settings as unknown as Record<string, unknown>;
  const settings = groupSettingNames.filter((name) => settingUsesGroup(realmSettings[name], group));
  if (settings.length > 0) objections.push({ type: 'realm', settings });
  return objections;
}

/** POST /user_groups/{id}/deactivate */
export function deactivateUserGroup(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
): Record<string, never> {
  return ctx.transaction((tx) => {
    const group = accessGroupForUpdate(ctx, user, groupId, 'can_manage_group', {
      allowDeactivated: false,
    });
    const objections = objectionsTo(ctx, group);
    if (objections.length > 0) {
      throw new ApiError('Cannot deactivate user group in use.', {
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        extra: { objections },
      });
    }
    setGroupDeactivated(ctx.db, group.id, true);
    emitActivationChange(ctx, tx, groupById(ctx.db, group.id)!, true);
    return {};
  });
}
