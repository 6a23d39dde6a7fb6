import type { AppContext, Tx } from '../core/context.js';
import { systemGroupIdsOf } from '../db/queries/user-groups.js';
import { activeUserIds } from '../db/queries/users.js';
import { syncSystemGroups } from '../shared/roles.js';

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
      payload: { type: 'user_group', op, group_id: groupId, user_ids: [userId] },
    });
  for (const id of before) if (!after.includes(id)) announce('remove_members', id);
  for (const id of after) if (!before.includes(id)) announce('add_members', id);
}
