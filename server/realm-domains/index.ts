/**
 * Allowed e-mail domains for new accounts: adding, changing and removing
 * them (owners), the realm_domains event and state, and the check account
 * creation makes while emails_restricted_to_domains is on.
 */
export { addRealmDomain, removeRealmDomain, updateRealmDomain } from './domains.js';
export { checkEmailAllowedInRealm } from './email.js';
export { listRealmDomains, realmDomainsState } from './state.js';
