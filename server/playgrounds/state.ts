import type { AppContext } from '../core/context.js';
import { allPlaygrounds } from '../db/queries/realm-playgrounds.js';
import type { StateProvider } from '../events/state-provider.js';

/** Every code playground, oldest first (the admin UI's list). */
export const listPlaygrounds = (ctx: AppContext) => allPlaygrounds(ctx.db);

/** POST /register's `realm_playgrounds`: every playground, oldest first. */
export const realmPlaygroundsState: StateProvider = {
  fetchTypes: ['realm_playgrounds'],
  fetch: (ctx) => ({ realm_playgrounds: listPlaygrounds(ctx) }),
};
