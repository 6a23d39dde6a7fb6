import { mutesOf } from '../db/queries/muted-users.js';
import type { StateProvider } from '../events/state-provider.js';

/** POST /register's `muted_users`: `{id, timestamp}` for each user muted. */
export const mutedUsersState: StateProvider = {
  fetchTypes: ['muted_users'],
  fetch: (ctx, user) => ({ muted_users: mutesOf(ctx.db, user.id) }),
};
