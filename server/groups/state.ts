import { allGroups, directMembers, directSubgroups } from '../db/queries/user-groups.js';
import type { StateProvider } from '../events/state-provider.js';
import { resolveGroupSetting } from '../shared/realm.js';

const groupPermissionDefaults: Record<string, string> = {
  can_add_members_group: 'role:administrators',
  can_join_group: 'role:nobody',
  can_leave_group: 'role:everyone',
  can_manage_group: 'role:nobody',
  can_mention_group: 'role:everyone',
  can_remove_members_group: 'role:administrators',
};

export const userGroupsState: StateProvider = {
  fetchTypes: ['realm_user_groups'],
  fetch(ctx, _user, options) {
    const groups = allGroups(ctx.db).filter(
      (g) => !g.deactivated || options.capabilities.include_deactivated_groups,
    );
    return {
      realm_user_groups: groups.map((g) => {
        const overrides = JSON.parse(g.permissions) as Record<string, unknown>;
        const permissions: Record<string, unknown> = {};
        for (const [name, fallback] of Object.entries(groupPermissionDefaults)) {
          permissions[name] = resolveGroupSetting(ctx, overrides[name] ?? fallback);
        }
        return {
          id: g.id,
          name: g.name,
          description: g.description,
          members: directMembers(ctx.db, g.id),
          direct_subgroup_ids: directSubgroups(ctx.db, g.id),
          is_system_group: g.is_system_group === 1,
          date_created: g.date_created,
          creator_id: g.creator_id,
          deactivated: g.deactivated === 1,
          ...permissions,
        };
      }),
    };
  },
};
