import { allGroups } from '../db/queries/user-groups.js';
import type { StateProvider } from '../events/state-provider.js';
import { formatGroup } from './format.js';

export const userGroupsState: StateProvider = {
  fetchTypes: ['realm_user_groups'],
  fetch(ctx, _user, options) {
    const groups = allGroups(ctx.db).filter(
      (g) => !g.deactivated || options.capabilities.include_deactivated_groups,
    );
    return { realm_user_groups: groups.map((g) => formatGroup(ctx, g)) };
  },
};
