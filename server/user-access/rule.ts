import type { AppContext } from '../core/context.js';
import { activeNonGuestIds, channelPeerIds, dmPeerIds } from '../db/queries/user-access.js';
import { activeUserIds, type UserRow, userById } from '../db/queries/users.js';
import { userHasGroupSetting } from '../shared/group-settings.js';
import { loadRealm, resolveGroupSetting } from '../shared/realm.js';
import { isGuest } from '../shared/roles.js';

/**
 * Zulip's limited user access for guests (zerver/lib/users.py). When the
 * organization's can_access_all_users_group is not "everyone" (it may only be
 * everyone or members), a guest outside it sees only the users who share a
 * channel subscription or a DM conversation with them, every bot, and
 * themselves; the rest appear as "Unknown user" (`placeholder.ts`).
 */

type Person = Pick<UserRow, 'id' | 'role'>;

/** Zulip's all_users_accessible_by_everyone_in_realm, negated. */
export function userAccessRestricted(ctx: AppContext): boolean {
  const setting = loadRealm(ctx).settings.can_access_all_users_group;
  return resolveGroupSetting(ctx, setting) !== resolveGroupSetting(ctx, 'role:everyone');
}

/** Zulip's check_user_can_access_all_users: everyone but guests outside the setting's group. */
export function canAccessAllUsers(ctx: AppContext, viewer: Person): boolean {
  if (!isGuest(viewer)) return true;
  return userHasGroupSetting(ctx, viewer, loadRealm(ctx).settings.can_access_all_users_group);
}

/**
 * Zulip's get_accessible_user_ids: the viewer and the humans sharing a
 * conversation with them (callers treat bots as always accessible). Register
 * counts deactivated DM partners too; channel peers must be active.
 */
export function accessibleUserIds(
  ctx: AppContext,
  viewerId: number,
  opts: { includeDeactivated?: boolean } = {},
): Set<number> {
  return conversationPeerIds(ctx, viewerId, opts).add(viewerId);
}

/**
 * Everyone sharing a channel subscription or a DM conversation with
 * `userId` (Zulip's get_subscribers_of_target_user_subscriptions with
 * get_users_involved_in_dms_with_target_users), bots included.
 */
export function conversationPeerIds(
  ctx: AppContext,
  userId: number,
  opts: { includeDeactivated?: boolean } = {},
): Set<number> {
  const ids = new Set<number>(channelPeerIds(ctx.db, userId));
  for (const id of dmPeerIds(ctx.db, userId, opts.includeDeactivated ?? false)) ids.add(id);
  return ids;
}

/** Active users who are not guests: they see everyone whatever the setting. */
export const usersSeeingEveryone = (ctx: AppContext) => activeNonGuestIds(ctx.db);

/**
 * A function telling whether `viewer` may see a user, for checking many:
 * always true for viewers who see everyone (Zulip's get_inaccessible_user_ids).
 */
export function userAccessCheck(
  ctx: AppContext,
  viewer: Person,
): (user: Pick<UserRow, 'id' | 'is_bot'>) => boolean {
  if (canAccessAllUsers(ctx, viewer)) return () => true;
  let accessible: Set<number> | undefined;
  return (user) => {
    if (user.is_bot || user.id === viewer.id) return true;
    accessible ??= accessibleUserIds(ctx, viewer.id);
    return accessible.has(user.id);
  };
}

/** userAccessCheck by user id (ids of no user pass: callers look them up themselves). */
export function userIdAccessCheck(ctx: AppContext, viewer: Person): (userId: number) => boolean {
  const check = userAccessCheck(ctx, viewer);
  return (userId) => {
    const user = userById(ctx.db, userId);
    return !user || check(user);
  };
}

/** Zulip's check_can_access_user. */
export function canAccessUser(
  ctx: AppContext,
  viewer: Person,
  target: Pick<UserRow, 'id' | 'is_bot'>,
): boolean {
  return userAccessCheck(ctx, viewer)(target);
}

/**
 * Zulip's get_user_ids_who_can_access_user: the active users who may see
 * `targetId`, the audience of events about them (realm_user updates,
 * presence). Everyone active unless access is restricted and the target is
 * a human.
 */
export function userIdsWhoCanAccess(ctx: AppContext, targetId: number): number[] {
  const target = userById(ctx.db, targetId);
  if (!target || target.is_bot || !userAccessRestricted(ctx)) return activeUserIds(ctx.db);
  const ids = conversationPeerIds(ctx, targetId).add(targetId);
  for (const id of activeNonGuestIds(ctx.db)) ids.add(id);
  return [...ids];
}

/**
 * Of `userIds`, those who may not see `targetId` (Zulip's user_ids_without_access_to_sender):
 * empty when nothing is restricted.
 */
export function userIdsWithoutAccessTo(
  ctx: AppContext,
  targetId: number,
  userIds: Iterable<number>,
): Set<number> {
  const target = userById(ctx.db, targetId);
  if (!target || target.is_bot || !userAccessRestricted(ctx)) return new Set();
  const canAccess = new Set(userIdsWhoCanAccess(ctx, targetId));
  const without = new Set<number>();
  for (const id of userIds) if (!canAccess.has(id)) without.add(id);
  return without;
}
