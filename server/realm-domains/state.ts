import { allRealmDomains } from '../db/queries/realm-domains.js';
import type { StateProvider } from '../events/state-provider.js';
import { realmDomainList } from './domains.js';

/** POST /register's `realm_domains`: the allowed domains, in the order they were added. */
export const realmDomainsState: StateProvider = {
  fetchTypes: ['realm_domains'],
  fetch: (ctx) => ({ realm_domains: realmDomainList(allRealmDomains(ctx.db)) }),
};
