import type { AppContext, Tx } from '../core/context.js';
import { directGroupsOf, systemGroupIdsOf } from '../db/queries/user-groups.js';
import { activeUserIds } from '../db/queries/users.js';
import { syncSystemGroups } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { emitAnonymousSettingsOf } from './anonymous-settings.js';
import { groupEventPayload } from './group-event-payload.js';

/**
 * Puts a user into the system groups their role implies and tells everyone,
 * as Zulip does when it creates a user or changes a role: `user_group`
 * `remove_members` for each group left, `add_members` for each joined, so
 * clients' `realm_user_groups` stay what a fresh register says. (System
 * groups are never deactivated, so every client gets these.)
 */
export function joinSystemGroups(ctx: AppContext, tx: Tx, userId: number, role: number): void {
  const before = systemGroupIdsOf(ctx.db, userId);
  syncSystemGroups(ctx.db, userId, role);
  const after = systemGroupIdsOf(ctx.db, userId);
  const users = activeUserIds(ctx.db);
  const announce = (op: 'add_members' | 'remove_members', groupId: number) =>
    tx.emit({
      type: 'user_group',
      users,
      payload: {
        type: 'user_group',
        op,
        group_id: groupId,
        user_ids: [userId],
      } satisfies EventBody<'user_group', 'add_members' | 'remove_members'>,
    });
  for (const id of before) if (!after.includes(id)) announce('remove_members', id);
  for (const id of after) if (!before.includes(id)) announce('add_members', id);
}

/**
 * A reactivated user is a member of their groups again: clients dropped
 * them from every group and anonymous-group setting at deactivation (Zulip's
 * feature level 303), so each group's `add_members` and each such setting's
 * new value bring them back, as Zulip's do_reactivate_user sends. Deactivated
 * groups only to clients that keep those.
 */
export function announceGroupReturn(ctx: AppContext, tx: Tx, userId: number): void {
  const users = activeUserIds(ctx.db);
  for (const { group_id: groupId, deactivated } of directGroupsOf(ctx.db, userId)) {
    const event = {
      type: 'user_group',
      op: 'add_members',
      group_id: groupId,
      user_ids: [userId],
    } satisfies EventBody<'user_group', 'add_members'>;
    tx.emit({
      type: 'user_group',
      users,
      payload: groupEventPayload(deactivated, event),
    });
  }
  emitAnonymousSettingsOf(ctx, tx, userId, users);
}
