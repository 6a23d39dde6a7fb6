import {
  addRealmDomain,
  listRealmDomains,
  removeRealmDomain,
  updateRealmDomain,
} from '../../realm-domains/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /realm/domains; `domain` is plain text, not JSON (since feature level 63). */
export const realmDomainRoutes = [
  // Any user may list them (Zulip's list_realm_domains).
  route({
    method: 'GET',
    path: '/realm/domains',
    api: '/realm/domains',
    params: {},
    handler: (ctx) => ({ domains: listRealmDomains(ctx) }),
  }),
  route({
    method: 'POST',
    path: '/realm/domains',
    api: '/realm/domains',
    requires: 'owner',
    params: { domain: p.str(), allow_subdomains: p.bool() },
    handler: (ctx, user, params) =>
      addRealmDomain(ctx, user, {
        domain: params.domain,
        allowSubdomains: params.allow_subdomains,
      }),
  }),
  route({
    method: 'PATCH',
    path: '/realm/domains/:domain',
    api: '/realm/domains/{domain}',
    requires: 'owner',
    params: { domain: p.str(), allow_subdomains: p.bool() },
    handler: (ctx, user, params) =>
      updateRealmDomain(ctx, user, params.domain, params.allow_subdomains),
  }),
  route({
    method: 'DELETE',
    path: '/realm/domains/:domain',
    api: '/realm/domains/{domain}',
    requires: 'owner',
    params: { domain: p.str() },
    handler: (ctx, user, params) => removeRealmDomain(ctx, user, params.domain),
  }),
];
