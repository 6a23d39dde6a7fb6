import type { AppContext } from '../core/context.js';
import {
  ApiError,
  badRequest,
  invalidApiKey,
  malformedApiKey,
  missingArgument,
  notLoggedIn,
  realmDeactivated,
  userDeactivated,
} from '../core/errors.js';
import type { Db } from '../db/open.js';
import { getRealm, type RealmRow } from '../db/queries/realm.js';
import { type UserRow, userByApiKey } from '../db/queries/users.js';
import { tableVersion } from '../db/write-versions.js';
import { BotType } from '../shared/roles.js';
import { apiEmail } from '../users/index.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const INVALID_BASIC_HEADER = 'Invalid authorization header for basic auth';

/** Zulip's answer to a Basic header it cannot read: 401 with the challenge. */
const invalidBasicHeader = () =>
  new ApiError(INVALID_BASIC_HEADER, {
    code: 'UNAUTHORIZED',
    status: 401,
    headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
  });

/** Parses `Authorization: Basic base64(email:api_key)`. */
export function parseBasicAuth(
  header: string | undefined,
): { email: string; apiKey: string } | null {
  if (!header) return null;
  const [scheme = '', credentials, ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'basic') {
    throw badRequest('This endpoint requires HTTP basic authentication.');
  }
  if (!credentials || rest.length > 0 || !BASE64.test(credentials)) throw invalidBasicHeader();
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidBasicHeader();
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1).trim() };
}

/** Credentials that were given and were wrong or unreadable (not missing, not deactivated). */
const isCredentialFailure = (error: unknown) =>
  error instanceof ApiError &&
  (error.code === 'INVALID_API_KEY' || error.message === INVALID_BASIC_HEADER);

/**
 * The account a Basic header names (its e-mail, as given), for counting the
 * header's failures; '' when it names none.
 */
function claimedAccount(header: string | undefined): string {
  try {
    return parseBasicAuth(header)?.email.trim().toLowerCase().slice(0, 254) ?? '';
  } catch {
    return '';
  }
}

/**
 * The user a request from `clientAddress` acts as. The key identifies the
 * account; the e-mail must be that account's API e-mail or its real one
 * (clients use either). Wrong credentials count against the address and the
 * account they name (rate-limit.ts); a right key always authenticates, and
 * makes the address known for the account.
 */
export function authenticate(
  ctx: AppContext,
  header: string | undefined,
  clientAddress: string,
): UserRow {
  const user = ctx.rateLimiter.checkCredential(
    clientAddress,
    () => claimedAccount(header),
    () => checkCredentials(ctx, header),
    isCredentialFailure,
  );
  ctx.rateLimiter.noteAuthenticated(clientAddress, user.email_key);
  return user;
}

/**
 * The account an integration URL (/api/v1/external/...) posts as. Tools
 * carry the key in the URL (`?api_key=`), as Zulip's webhook_view reads it;
 * those that can only send HTTP Basic credentials use the Authorization
 * header like any client. Any active account's key is accepted, as in
 * Zulip; wrong keys count against the address's failed attempts.
 */
export function authenticateWebhook(
  ctx: AppContext,
  apiKey: string | undefined,
  header: string | undefined,
  clientAddress: string,
): UserRow {
  if (apiKey === undefined) {
    if (header === undefined) throw missingArgument('api_key');
    return authenticate(ctx, header, clientAddress);
  }
  return ctx.rateLimiter.checkCredential(
    clientAddress,
    // A key in the URL names no account.
    () => '',
    () => {
      const key = apiKey.trim();
      const user = key ? userOfKey(ctx.db, key) : undefined;
      if (!user) throw invalidApiKey();
      if (realmOf(ctx.db).deactivated) throw realmDeactivated();
      if (!user.is_active) throw userDeactivated();
      return user;
    },
    isCredentialFailure,
  );
}

/**
 * Users by API key and the organization row, read once and kept until a
 * query module writes the users or realm table (db/write-versions.ts): a
 * key regenerated, a role or e-mail changed, a deactivation. Every request
 * authenticates, and the query was 8% of a send's CPU. Nothing is kept
 * while a transaction is open, since it could still roll back, nor where
 * writes are not tracked (the version is then NaN).
 */
interface AuthCache {
  usersVersion: number;
  realmVersion: number;
  users: Map<string, UserRow>;
  realm: RealmRow | undefined;
  /**
   * Authorization headers already found to name their user (key and e-mail
   * checked): a long-polling client repeats the same header many times a
   * second, and decoding it was most of what authentication still cost.
   * Emptied with `users` and on any realm write (the e-mail domain).
   */
  byHeader: Map<string, UserRow>;
}

const caches = new WeakMap<Db, AuthCache>();

/** Bounds the cache against a stream of made-up keys (each a miss, never stored). */
const MAX_CACHED_KEYS = 100_000;

/**
 * The longest header remembered: a real address (254) and key in base64. A
 * user could otherwise pad their own header (the key is trimmed) into many
 * long entries.
 */
const MAX_CACHED_HEADER_LENGTH = 512;

function authCacheOf(db: Db): AuthCache {
  const usersVersion = tableVersion(db, 'users');
  const realmVersion = tableVersion(db, 'realm');
  let cache = caches.get(db);
  if (!cache) {
    cache = { usersVersion, realmVersion, users: new Map(), realm: undefined, byHeader: new Map() };
    caches.set(db, cache);
  }
  if (cache.usersVersion !== usersVersion) {
    cache.users.clear();
    cache.byHeader.clear();
    cache.usersVersion = usersVersion;
  }
  if (cache.realmVersion !== realmVersion) {
    cache.realm = undefined;
    cache.byHeader.clear();
    cache.realmVersion = realmVersion;
  }
  return cache;
}

const cacheable = (db: Db, cache: AuthCache) =>
  !db.inTransaction && !Number.isNaN(cache.usersVersion);

function userOfKey(db: Db, apiKey: string): UserRow | undefined {
  const cache = authCacheOf(db);
  let user = cache.users.get(apiKey);
  if (!user) {
    user = userByApiKey(db, apiKey);
    if (!user) return undefined;
    if (cacheable(db, cache) && cache.users.size < MAX_CACHED_KEYS) cache.users.set(apiKey, user);
  }
  // Callers own the row they get (some update fields of it after a write).
  return { ...user };
}

function realmOf(db: Db): RealmRow {
  const cache = authCacheOf(db);
  if (cache.realm) return cache.realm;
  const realm = getRealm(db)!;
  if (cacheable(db, cache)) cache.realm = realm;
  return realm;
}

function checkCredentials(ctx: AppContext, header: string | undefined): UserRow {
  const cache = header === undefined ? undefined : authCacheOf(ctx.db);
  const known = cache?.byHeader.get(header!);
  const user = known ? { ...known } : userOfHeader(ctx.db, header);
  const realm = realmOf(ctx.db);
  if (realm.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  if (
    !known &&
    cache &&
    cacheable(ctx.db, cache) &&
    cache.byHeader.size < MAX_CACHED_KEYS &&
    header!.length <= MAX_CACHED_HEADER_LENGTH
  ) {
    cache.byHeader.set(header!, { ...user });
  }
  return user;
}

/**
 * The user an Authorization header is already known to name (a request
 * with it authenticated since the users and realm tables last changed),
 * when that user may act: active, in an active organization, and not an
 * incoming-webhook bot. The cached row itself, not a copy: for the long
 * poll's lean path (http/lean-events.ts), which only reads it. Undefined
 * means "ask `authenticate`", which also answers every refusal.
 */
export function knownCaller(ctx: AppContext, header: string): Readonly<UserRow> | undefined {
  const cache = authCacheOf(ctx.db);
  const user = cache.byHeader.get(header);
  if (!user?.is_active || user.bot_type === BotType.incomingWebhook) return undefined;
  return (cache.realm ?? realmOf(ctx.db)).deactivated ? undefined : user;
}

/** The user whose key and e-mail the header carries, or the error saying why not. */
function userOfHeader(db: Db, header: string | undefined): UserRow {
  const credentials = parseBasicAuth(header);
  if (!credentials) throw notLoggedIn();
  if (!/^[A-Za-z0-9]{32}$/.test(credentials.apiKey)) throw malformedApiKey();
  const user = userOfKey(db, credentials.apiKey);
  if (!user) throw invalidApiKey();
  const realm = realmOf(db);
  const given = credentials.email.trim().toLowerCase();
  if (given !== user.email_key && given !== apiEmail(user, realm.email_domain).toLowerCase()) {
    throw invalidApiKey();
  }
  return user;
}

/**
 * Zulip lets incoming-webhook bots post messages and nothing else: any other
 * endpoint answers as if the key were not valid for it (401, with the
 * challenge), after the deactivation checks.
 */
export function checkIncomingWebhookAccess(user: UserRow, routeAllowsWebhooks: boolean): void {
  if (user.bot_type === BotType.incomingWebhook && !routeAllowsWebhooks) {
    throw new ApiError('This API is not available to incoming webhook bots.', {
      code: 'UNAUTHORIZED',
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
    });
  }
}
