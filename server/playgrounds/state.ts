import { allPlaygrounds } from '../db/queries/realm-playgrounds.js';
import type { StateProvider } from '../events/state-provider.js';

/** POST /register's `realm_playgrounds`: every playground, oldest first. */
export const realmPlaygroundsState: StateProvider = {
  fetchTypes: ['realm_playgrounds'],
  fetch: (ctx) => ({ realm_playgrounds: allPlaygrounds(ctx.db) }),
};
