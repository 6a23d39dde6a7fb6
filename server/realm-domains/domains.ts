import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  countRealmDomains,
  deleteRealmDomain,
  insertRealmDomain,
  type RealmDomainRow,
  realmDomainByName,
  setRealmDomainAllowSubdomains,
} from '../db/queries/realm-domains.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { loadRealm, setRealmSetting } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import type { EventBody, EventFields, RealmDomain } from '../shared/zulip-api/index.js';

const MAX_DOMAIN_LENGTH = 255;

/** Zulip's validate_domain: the reason a (lower-cased) domain is refused, or null. */
export function domainProblem(domain: string): string | null {
  if (domain === '') return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if ([...domain].length > MAX_DOMAIN_LENGTH) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) {
    return 'Domain cannot start or end with a dot (.)';
  }
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) {
      return "Subdomains cannot start or end with a '-'.";
    }
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

const formatDomain = (row: RealmDomainRow): RealmDomain => ({
  domain: row.domain,
  allow_subdomains: row.allow_subdomains === 1,
});

function emitRealmDomains(ctx: AppContext, tx: Tx, payload: EventFields<'realm_domains'>): void {
  tx.emit({
    type: 'realm_domains',
    users: activeUserIds(ctx.db),
    payload: { type: 'realm_domains', ...payload } satisfies EventBody<'realm_domains'>,
  });
}

/** PATCH and DELETE name the domain exactly as stored (Zulip does not lower-case it there). */
function accessRealmDomain(ctx: AppContext, domain: string): RealmDomainRow {
  const row = realmDomainByName(ctx.db, domain);
  if (!row) throw badRequest(`No entry found for domain ${domain}.`);
  return row;
}

/** POST /realm/domains (owners). */
export function addRealmDomain(
  ctx: AppContext,
  actor: UserRow,
  input: { domain: string; allowSubdomains: boolean },
): { new_domain: [number, string] } {
  requireRole(actor, 'owner');
  const domain = input.domain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem !== null) throw badRequest(`Invalid domain: ${problem}`);
  return ctx.transaction((tx) => {
    if (realmDomainByName(ctx.db, domain)) {
      throw badRequest(`The domain ${domain} is already a part of your organization.`);
    }
    const id = insertRealmDomain(ctx.db, domain, input.allowSubdomains);
    emitRealmDomains(ctx, tx, {
      op: 'add',
      realm_domain: { domain, allow_subdomains: input.allowSubdomains },
    });
    return { new_domain: [id, domain] };
  });
}

/** PATCH /realm/domains/{domain} (owners). */
export function updateRealmDomain(
  ctx: AppContext,
  actor: UserRow,
  domain: string,
  allowSubdomains: boolean,
): Record<string, never> {
  requireRole(actor, 'owner');
  ctx.transaction((tx) => {
    const row = accessRealmDomain(ctx, domain);
    setRealmDomainAllowSubdomains(ctx.db, row.id, allowSubdomains);
    emitRealmDomains(ctx, tx, {
      op: 'change',
      realm_domain: formatDomain({ ...row, allow_subdomains: allowSubdomains ? 1 : 0 }),
    });
  });
  return {};
}

/**
 * DELETE /realm/domains/{domain} (owners). Removing the last domain turns
 * emails_restricted_to_domains off, since the restriction means nothing
 * without domains (as Zulip does).
 */
export function removeRealmDomain(
  ctx: AppContext,
  actor: UserRow,
  domain: string,
): Record<string, never> {
  requireRole(actor, 'owner');
  ctx.transaction((tx) => {
    const row = accessRealmDomain(ctx, domain);
    deleteRealmDomain(ctx.db, row.id);
    if (countRealmDomains(ctx.db) === 0 && loadRealm(ctx).settings.emails_restricted_to_domains) {
      setRealmSetting(ctx, tx, 'emails_restricted_to_domains', false);
    }
    emitRealmDomains(ctx, tx, { op: 'remove', domain: row.domain });
  });
  return {};
}

/** The realm_domains list clients see (POST /register). */
export const realmDomainList = (rows: RealmDomainRow[]) => rows.map(formatDomain);
