import type { AppContext, Tx } from '../core/context.js';
import { profileValuesOf } from '../db/queries/profile-values.js';
import { channelPeerIds, dmPeerIds } from '../db/queries/user-access.js';
import { directGroupsOf } from '../db/queries/user-groups.js';
import { activeUserIds, type UserRow, userById } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';
import { realmUserUpdate } from '../shared/realm-user-update.js';
import { isGuest } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import {
  canAccessAllUsers,
  conversationPeerIds,
  INACCESSIBLE_USER_NAME,
  inaccessibleUserDict,
  userAccessRestricted,
  userIdsWhoCanAccess,
  usersSeeingEveryone,
} from '../user-access/index.js';
import { emitAnonymousSettingsOf } from './anonymous-settings.js';
import { formatUser, groupProfileValues } from './format.js';
import { groupEventPayload } from './group-event-payload.js';

/**
 * Who hears realm_user events, under Zulip's limited user access for guests:
 * only those who may see the user (`user-access/`). The builders of the
 * events stay with the operations; these functions only choose audiences.
 */

/** The audience of a realm_user `update` about `userId` (Zulip's get_user_ids_who_can_access_user). */
export const realmUserUpdateAudience = (ctx: AppContext, userId: number): number[] =>
  userIdsWhoCanAccess(ctx, userId);

/** realm_user `add` with `userId`'s dict as each recipient may see it. */
export function emitPersonAddTo(ctx: AppContext, tx: Tx, userId: number, users: number[]): void {
  if (users.length === 0) return;
  const realm = loadRealm(ctx);
  let subject: { user: UserRow; profileValues: ReturnType<typeof groupProfileValues> } | undefined;
  tx.emit({
    type: 'realm_user',
    users,
    payload: (queue) => {
      // Read once, at delivery; only the formatting depends on the viewer.
      subject ??= {
        user: userById(ctx.db, userId)!,
        profileValues: groupProfileValues(profileValuesOf(ctx.db, userId)),
      };
      const viewer = userById(ctx.db, queue.userId) ?? null;
      const person = formatUser(subject.user, viewer, {
        emailDomain: realm.row.email_domain,
        profileValues: subject.profileValues,
      });
      return { type: 'realm_user', op: 'add', person } satisfies EventBody<'realm_user', 'add'>;
    },
  });
}

/**
 * A new account (Zulip's notify_created_user): everyone who may see it gets
 * its dict; when access is limited, guests get an "Unknown user" add
 * instead, which clients declaring user_list_incomplete do not get at all.
 */
export function emitPersonCreated(ctx: AppContext, tx: Tx, userId: number): void {
  const user = userById(ctx.db, userId)!;
  const everyone = activeUserIds(ctx.db);
  if (user.is_bot || !userAccessRestricted(ctx)) {
    emitPersonAddTo(ctx, tx, userId, everyone);
    return;
  }
  const withAccess: number[] = [];
  const withoutAccess: number[] = [];
  for (const id of everyone) {
    const viewer = userById(ctx.db, id)!;
    // As Zulip, this assumes the setting is everyone or members: guests lack access.
    (canAccessAllUsers(ctx, viewer) ? withAccess : withoutAccess).push(id);
  }
  emitPersonAddTo(ctx, tx, userId, withAccess);
  if (withoutAccess.length > 0) {
    const placeholder = inaccessibleUserDict(ctx, userId);
    tx.emit({
      type: 'realm_user',
      users: withoutAccess,
      payload: (queue) =>
        queue.options.capabilities.user_list_incomplete
          ? null
          : ({
              type: 'realm_user',
              op: 'add',
              person: placeholder,
            } satisfies EventBody<'realm_user', 'add'>),
    });
  }
}

/** realm_user `remove` telling `users` that `userId` is now an unknown user to them. */
function emitPersonHidden(tx: Tx, userId: number, users: number[]): void {
  if (users.length === 0) return;
  tx.emit({
    type: 'realm_user',
    users,
    payload: {
      type: 'realm_user',
      op: 'remove',
      person: { user_id: userId, full_name: INACCESSIBLE_USER_NAME },
    } satisfies EventBody<'realm_user', 'remove'>,
  });
}

/** Whom each of some users shared a conversation with, taken before their subscriptions change. */
export type PeersBefore = Map<number, Set<number>>;

export function peersBeforeChange(ctx: AppContext, userIds: Iterable<number>): PeersBefore | null {
  if (!userAccessRestricted(ctx)) return null;
  const before: PeersBefore = new Map();
  for (const id of userIds) before.set(id, conversationPeerIds(ctx, id));
  return before;
}

const union = (sets: Iterable<Iterable<number>>) => {
  const all = new Set<number>();
  for (const set of sets) for (const id of set) all.add(id);
  return all;
};

/**
 * After users joined channels (Zulip's
 * send_user_creation_events_on_adding_subscriptions): subscribers who could
 * not see a joining user get their realm_user `add`, and a joining guest
 * gets an `add` for each subscriber newly shared with them.
 */
export function emitAccessGained(
  ctx: AppContext,
  tx: Tx,
  joined: Map<number, number[]>,
  before: PeersBefore | null,
  subscribersOf: (streamId: number) => number[],
): void {
  if (!before) return;
  const seeEveryone = new Set(usersSeeingEveryone(ctx));
  for (const [userId, streamIds] of joined) {
    const user = userById(ctx.db, userId)!;
    const peers = before.get(userId) ?? new Set<number>();
    const inJoined = union(streamIds.map(subscribersOf));
    const newlySeeing = [...inJoined].filter(
      (id) => !seeEveryone.has(id) && !peers.has(id) && id !== userId,
    );
    emitPersonAddTo(ctx, tx, userId, newlySeeing);
    if (isGuest(user)) {
      for (const id of inJoined) {
        if (!peers.has(id) && id !== userId) emitPersonAddTo(ctx, tx, id, [userId]);
      }
    }
  }
}

/**
 * After users left channels (Zulip's
 * send_user_remove_events_on_removing_subscriptions): subscribers who may
 * no longer see a leaving user get a realm_user `remove`, and a leaving guest
 * gets one for each subscriber they no longer share anything with.
 */
export function emitAccessLost(
  ctx: AppContext,
  tx: Tx,
  left: Map<number, number[]>,
  subscribersOf: (streamId: number) => number[],
): void {
  if (!userAccessRestricted(ctx)) return;
  const seeEveryone = new Set(usersSeeingEveryone(ctx));
  for (const [userId, streamIds] of left) {
    const user = userById(ctx.db, userId)!;
    const peers = conversationPeerIds(ctx, userId);
    const inLeft = union(streamIds.map(subscribersOf));
    emitPersonHidden(
      tx,
      userId,
      [...inLeft].filter((id) => !seeEveryone.has(id) && !peers.has(id) && id !== userId),
    );
    if (isGuest(user)) {
      for (const id of inLeft) {
        if (!peers.has(id) && id !== userId) emitPersonHidden(tx, id, [userId]);
      }
    }
  }
}

/**
 * Those who may not see a deactivated user never hear is_active false, by
 * which clients drop them from user groups; Zulip tells them instead with a
 * user_group `remove_members` per group the user was directly in. As every
 * `user_group` event (groups/), none about a deactivated group reaches
 * clients that did not declare include_deactivated_groups.
 */
function emitGroupsLeftFor(ctx: AppContext, tx: Tx, userId: number, users: number[]): void {
  if (users.length === 0) return;
  for (const group of directGroupsOf(ctx.db, userId)) {
    const event = {
      type: 'user_group',
      op: 'remove_members',
      group_id: group.group_id,
      user_ids: [userId],
    } satisfies EventBody<'user_group', 'remove_members'>;
    tx.emit({
      type: 'user_group',
      users,
      payload: groupEventPayload(group.deactivated, event),
    });
  }
}

/**
 * A deactivation's realm_user events (Zulip's
 * send_events_for_user_deactivation): `update` is_active false to those who
 * still may see the user (everyone unless access is limited; then
 * non-guests and DM partners), `remove` to channel peers who only saw them
 * through a channel; the others hear of the groups and the anonymous-group
 * settings the user leaves. Runs after the account is marked inactive.
 */
export function emitPersonDeactivated(ctx: AppContext, tx: Tx, userId: number): void {
  const update = realmUserUpdate(userId, { is_active: false });
  const user = userById(ctx.db, userId)!;
  if (user.is_bot || !userAccessRestricted(ctx)) {
    tx.emit({ type: 'realm_user', users: activeUserIds(ctx.db), payload: update });
    return;
  }
  const withAccess = new Set(usersSeeingEveryone(ctx));
  for (const id of dmPeerIds(ctx.db, userId, false)) withAccess.add(id);
  withAccess.delete(userId);
  tx.emit({ type: 'realm_user', users: [...withAccess], payload: update });
  // Those who hear is_active false drop the user from groups and settings themselves.
  const withoutAccess = activeUserIds(ctx.db).filter((id) => !withAccess.has(id));
  emitGroupsLeftFor(ctx, tx, userId, withoutAccess);
  emitAnonymousSettingsOf(ctx, tx, userId, withoutAccess);
  emitPersonHidden(
    tx,
    userId,
    channelPeerIds(ctx.db, userId).filter((id) => !withAccess.has(id) && id !== userId),
  );
}
