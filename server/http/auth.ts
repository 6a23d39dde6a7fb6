import type { AppContext } from '../context.js';
import { getRealm } from '../db/queries/realm.js';
import { type UserRow, userByApiKey } from '../db/queries/users.js';
import { apiEmail } from '../domain/user-format.js';
import {
  ApiError,
  invalidApiKey,
  notLoggedIn,
  realmDeactivated,
  userDeactivated,
} from '../errors.js';

/** Parses `Authorization: Basic base64(email:api_key)`. */
export function parseBasicAuth(
  header: string | undefined,
): { email: string; apiKey: string } | null {
  if (!header) return null;
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new ApiError('Only Basic authentication is supported.', {
      code: 'UNAUTHORIZED',
      status: 401,
    });
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    throw new ApiError('Invalid authorization header for basic auth', {
      code: 'UNAUTHORIZED',
      status: 401,
    });
  }
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

/**
 * The user a request acts as. The key identifies the account; the e-mail must
 * be that account's API e-mail or its real one (clients use either).
 */
export function authenticate(ctx: AppContext, header: string | undefined): UserRow {
  const credentials = parseBasicAuth(header);
  if (!credentials) throw notLoggedIn();
  const user = credentials.apiKey ? userByApiKey(ctx.db, credentials.apiKey) : undefined;
  if (!user) throw invalidApiKey();
  const realm = getRealm(ctx.db)!;
  const given = credentials.email.trim().toLowerCase();
  if (given !== user.email_key && given !== apiEmail(user, realm.email_domain).toLowerCase()) {
    throw invalidApiKey();
  }
  if (realm.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  return user;
}
