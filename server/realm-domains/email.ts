import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { allRealmDomains } from '../db/queries/realm-domains.js';
import { loadRealm } from '../shared/realm.js';

/**
 * Zulip's email_allowed_for_realm for an organization that restricts
 * accounts to its allowed domains: no `+` in the local part, and a domain
 * that is allowed, or a subdomain of one that allows subdomains. Nothing is
 * checked while emails_restricted_to_domains is off.
 */
export function checkEmailAllowedInRealm(ctx: AppContext, email: string): void {
  if (!loadRealm(ctx).settings.emails_restricted_to_domains) return;
  const at = email.lastIndexOf('@');
  const username = email.slice(0, Math.max(at, 0)).toLowerCase();
  let domain = email.slice(at + 1).toLowerCase();
  if (username.includes('+')) throw badRequest('Email addresses containing + are not allowed.');
  const rows = allRealmDomains(ctx.db);
  if (rows.some((r) => r.domain === domain)) return;
  const withSubdomains = new Set(rows.filter((r) => r.allow_subdomains === 1).map((r) => r.domain));
  // a.b.example.com matches b.example.com, example.com, com, in that order.
  while (domain !== '') {
    const dot = domain.indexOf('.');
    domain = dot === -1 ? '' : domain.slice(dot + 1);
    if (withSubdomains.has(domain)) return;
  }
  throw badRequest(`Email '${email}' not allowed in this organization`);
}
