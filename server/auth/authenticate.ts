import type { AppContext } from '../core/context.js';
import {
  ApiError,
  badRequest,
  invalidApiKey,
  notLoggedIn,
  realmDeactivated,
  userDeactivated,
} from '../core/errors.js';
import { getRealm } from '../db/queries/realm.js';
import { type UserRow, userByApiKey } from '../db/queries/users.js';
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
 * The user a request from `clientAddress` acts as. The key identifies the
 * account; the e-mail must be that account's API e-mail or its real one
 * (clients use either). Failures count against the address's budget of
 * failed authentications (rate-limit.ts).
 */
export function authenticate(
  ctx: AppContext,
  header: string | undefined,
  clientAddress: string,
): UserRow {
  return ctx.rateLimiter.authenticationAttempt(
    clientAddress,
    () => checkCredentials(ctx, header),
    isCredentialFailure,
  );
}

function checkCredentials(ctx: AppContext, header: string | undefined): UserRow {
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
