import type { AppContext } from '../core/context.js';
import { allGroups } from '../db/queries/user-groups.js';
import { tableMemo } from '../db/table-memo.js';
import type { StateProvider } from '../events/state-provider.js';
import { JsonText } from '../shared/json-fields.js';
import { formatGroup } from './format.js';

/**
 * realm_user_groups is the same for everyone: kept as JSON, with and without
 * the deactivated groups, until a write to the groups, their members or
 * subgroups, or users (a deactivated user leaves the member lists).
 */
const serialisedGroups = tableMemo(
  ['user_groups', 'user_group_members', 'user_group_subgroups', 'users'],
  (ctx: AppContext) => {
    const groups = allGroups(ctx.db).map((g) => ({
      deactivated: g.deactivated === 1,
      json: JSON.stringify(formatGroup(ctx, g)),
    }));
    const list = (entries: typeof groups) =>
      new JsonText(`[${entries.map((g) => g.json).join(',')}]`);
    return { all: list(groups), active: list(groups.filter((g) => !g.deactivated)) };
  },
);

export const userGroupsState: StateProvider = {
  fetchTypes: ['realm_user_groups'],
  fetch(ctx, _user, options) {
    const groups = serialisedGroups(ctx);
    return {
      realm_user_groups: options.capabilities.include_deactivated_groups
        ? groups.all
        : groups.active,
    };
  },
};
