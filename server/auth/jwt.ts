import { decodeJwt, jwtVerify } from 'jose';
import type { AppContext } from '../core/context.js';
import { ApiError, authenticationFailed, badRequest } from '../core/errors.js';
import { setRealmJwtKey } from '../db/queries/realm.js';
import { recordFirstLogin, type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { MAX_JWT_KEY_BYTES, MIN_JWT_KEY_BYTES } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import { apiEmail, getUser } from '../users/index.js';
import { checkAccountUsable } from './api-keys.js';

/*
 * POST /jwt/fetch_api_key (Zulip's jwt_fetch_api_key): whoever holds the
 * organization's JWT key vouches for an e-mail address and gets that
 * account's API key. Only HS256 with the owner's key is accepted; `none`,
 * other algorithms, a wrong signature, an `exp` in the past or an `nbf` in
 * the future are all "Bad JSON web token", as in Zulip.
 */

const ALGORITHMS = ['HS256'];

const JWT_DISABLED = 'JWT authentication is not enabled for this organization';
const NO_TOKEN = 'No JSON web token passed in request';
const BAD_TOKEN = 'Bad JSON web token';
const NO_EMAIL = 'No email specified in JSON web token claims';

/** Token failures that count against the client address's failed authentications. */
const isTokenFailure = (error: unknown) =>
  error instanceof ApiError &&
  (error.code === 'AUTHENTICATION_FAILED' ||
    error.message === BAD_TOKEN ||
    error.message === NO_EMAIL);

/** A key the organization may use: long enough for HS256 and not absurdly long. */
export function checkJwtKey(key: string): string {
  const bytes = Buffer.byteLength(key, 'utf8');
  if (key.trim() === '') throw badRequest('The JWT key must not be empty');
  if (bytes < MIN_JWT_KEY_BYTES) {
    throw badRequest(`The JWT key must be at least ${MIN_JWT_KEY_BYTES} bytes long`);
  }
  if (bytes > MAX_JWT_KEY_BYTES) {
    throw badRequest(`The JWT key must be at most ${MAX_JWT_KEY_BYTES} bytes long`);
  }
  return key;
}

/**
 * Sets (or with null removes, which turns JWT login off) the organization's
 * JWT key. Owners only; `actor` null is the server operator (command line).
 */
export function setJwtKey(ctx: AppContext, actor: UserRow | null, key: string | null) {
  if (actor) requireRole(actor, 'owner');
  const value = key === null ? null : checkJwtKey(key);
  ctx.transaction(() => {
    setRealmJwtKey(ctx.db, value);
  });
  return { jwt_enabled: value !== null };
}

/** The e-mail a token claims, unverified: only to count the token's failure against it. */
function claimedEmail(token: string): string {
  try {
    const email = decodeJwt(token).email;
    return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
  } catch {
    return '';
  }
}

/**
 * POST /jwt/fetch_api_key. Bad tokens and unknown addresses count against
 * the client address and the e-mail claimed; only those get RATE_LIMIT_HIT
 * once the budget is used up: a token signed with the key always works.
 */
export async function jwtFetchApiKey(
  ctx: AppContext,
  token: string,
  includeProfile: boolean,
  clientAddress: string,
) {
  const { account, result } = await ctx.rateLimiter.checkCredential(
    clientAddress,
    () => claimedEmail(token),
    () => exchangeToken(ctx, token, includeProfile),
    isTokenFailure,
  );
  ctx.rateLimiter.noteAuthenticated(clientAddress, account.email_key);
  return result;
}

async function exchangeToken(ctx: AppContext, token: string, includeProfile: boolean) {
  const realm = loadRealm(ctx);
  const key = realm.row.jwt_key;
  if (key === null) throw badRequest(JWT_DISABLED);
  if (token === '') throw badRequest(NO_TOKEN);

  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(token, new TextEncoder().encode(key), {
      algorithms: ALGORITHMS,
      currentDate: new Date(ctx.now()),
    });
    claims = verified.payload;
  } catch {
    // jose's errors (malformed, algorithm, signature, exp, nbf, claim types) all mean one thing here.
    throw badRequest(BAD_TOKEN);
  }
  const email = claims.email;
  if (email === undefined || email === null) throw badRequest(NO_EMAIL);

  // Zulip looks the account up by its real address; an address no account has
  // (or a claim that is no address at all) is answered as a wrong password is.
  const user =
    typeof email === 'string' ? userByEmailKey(ctx.db, email.trim().toLowerCase()) : null;
  if (!user) throw authenticationFailed();
  checkAccountUsable(ctx, user);
  recordFirstLogin(ctx.db, user.id, ctx.now());

  // An imported stub's first login replaced its date_joined just now.
  const account = userById(ctx.db, user.id)!;
  const result: Record<string, unknown> = {
    api_key: account.api_key,
    email: apiEmail(account, realm.row.email_domain),
  };
  if (includeProfile) {
    result.user = getUser(ctx, account, account, {
      includeCustomProfileFields: false,
    });
  }
  return { account, result };
}
