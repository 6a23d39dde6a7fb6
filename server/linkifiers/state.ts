import { allLinkifiers } from '../db/queries/realm-linkifiers.js';
import type { StateProvider } from '../events/state-provider.js';

/**
 * POST /register's `realm_linkifiers`: every linkifier, in the order they
 * apply, for clients that declared `linkifier_url_template`; the others get
 * an empty list, as in Zulip.
 */
export const realmLinkifiersState: StateProvider = {
  fetchTypes: ['realm_linkifiers'],
  fetch: (ctx, _user, options) => ({
    realm_linkifiers: options.capabilities.linkifier_url_template ? allLinkifiers(ctx.db) : [],
  }),
};

/**
 * The legacy `realm_filters` triples; templates with RFC 6570 syntax cannot
 * be expressed as them, so clients get [] (Zulip's clients read realm_linkifiers).
 */
export const realmFiltersState: StateProvider = {
  fetchTypes: ['realm_filters'],
  fetch: () => ({ realm_filters: [] }),
};
