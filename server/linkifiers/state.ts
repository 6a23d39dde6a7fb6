import { allLinkifiers } from '../db/queries/realm-linkifiers.js';
import type { StateProvider } from '../events/state-provider.js';

/** POST /register's `realm_linkifiers`: every linkifier, in the order they apply. */
export const realmLinkifiersState: StateProvider = {
  fetchTypes: ['realm_linkifiers'],
  fetch: (ctx) => ({ realm_linkifiers: allLinkifiers(ctx.db) }),
};

/**
 * The legacy `realm_filters` triples; templates with RFC 6570 syntax cannot
 * be expressed as them, so clients get [] (Zulip's clients read realm_linkifiers).
 */
export const realmFiltersState: StateProvider = {
  fetchTypes: ['realm_filters'],
  fetch: () => ({ realm_filters: [] }),
};
