import type { AppContext } from '../core/context.js';
import { allRealmDomains } from '../db/queries/realm-domains.js';
import type { StateProvider } from '../events/state-provider.js';
import { realmDomainList } from './domains.js';

/** The allowed domains, in the order they were added (the admin UI's list). */
export const listRealmDomains = (ctx: AppContext) => realmDomainList(allRealmDomains(ctx.db));

/** POST /register's `realm_domains`: the allowed domains, in the order they were added. */
export const realmDomainsState: StateProvider = {
  fetchTypes: ['realm_domains'],
  fetch: (ctx) => ({ realm_domains: listRealmDomains(ctx) }),
};
