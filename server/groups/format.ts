import type { AppContext, Tx } from '../core/context.js';
import {
  activeDirectMembers,
  directSubgroups,
  type UserGroupRow,
} from '../db/queries/user-groups.js';
import { activeUserIds } from '../db/queries/users.js';
import { memoisePayload } from '../events/hub.js';
import type { EventQueue } from '../events/queue.js';
import type {
  EventBody,
  EventFields,
  GroupSettingValue,
  UserGroup,
} from '../shared/zulip-api/index.js';
import {
  apiGroupSetting,
  type GroupPermission,
  groupPermissionNames,
  storedPermissions,
} from './settings.js';

/** A group as GET /user_groups, register and `user_group` add events show it. */
export function formatGroup(ctx: AppContext, group: UserGroupRow): UserGroup {
  const permissions = storedPermissions(group);
  const settings = {} as Record<GroupPermission, GroupSettingValue>;
  for (const name of groupPermissionNames) settings[name] = apiGroupSetting(ctx, permissions[name]);
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: activeDirectMembers(ctx.db, group.id),
    direct_subgroup_ids: directSubgroups(ctx.db, group.id),
    is_system_group: group.is_system_group === 1,
    date_created: group.date_created,
    creator_id: group.creator_id,
    deactivated: group.deactivated === 1,
    ...settings,
  };
}

/** The one queue option the group events below depend on. */
const seesDeactivatedGroups = (queue: EventQueue) =>
  queue.options.capabilities.include_deactivated_groups ? 1 : 0;

/**
 * Every group is visible to the whole organization, so `user_group` events go
 * to every active user. Clients that did not declare include_deactivated_groups
 * never learn of deactivated groups: they get `remove` on deactivation, `add`
 * on reactivation and nothing about a group while it is deactivated. `event`
 * is the event less its `type`, one per `op`.
 */
export function emitGroupEvent(
  ctx: AppContext,
  tx: Tx,
  group: UserGroupRow,
  event: EventFields<'user_group'>,
): void {
  const deactivated = group.deactivated === 1;
  tx.emit({
    type: 'user_group',
    users: activeUserIds(ctx.db),
    payload: memoisePayload(seesDeactivatedGroups, (queue) =>
      deactivated && !queue.options.capabilities.include_deactivated_groups
        ? null
        : ({ type: 'user_group', ...event } satisfies EventBody<'user_group'>),
    ),
  });
}

/** Deactivation and reactivation: `update` for clients that see deactivated groups. */
export function emitActivationChange(
  ctx: AppContext,
  tx: Tx,
  group: UserGroupRow,
  deactivated: boolean,
): void {
  const asAdded = deactivated ? null : formatGroup(ctx, group);
  tx.emit({
    type: 'user_group',
    users: activeUserIds(ctx.db),
    payload: memoisePayload(seesDeactivatedGroups, (queue) => {
      if (queue.options.capabilities.include_deactivated_groups) {
        return {
          type: 'user_group',
          op: 'update',
          group_id: group.id,
          data: { deactivated },
        } satisfies EventBody<'user_group', 'update'>;
      }
      return deactivated
        ? ({ type: 'user_group', op: 'remove', group_id: group.id } satisfies EventBody<
            'user_group',
            'remove'
          >)
        : ({ type: 'user_group', op: 'add', group: asAdded! } satisfies EventBody<
            'user_group',
            'add'
          >);
    }),
  });
}
