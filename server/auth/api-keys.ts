import type { AppContext } from '../core/context.js';
import {
  ApiError,
  authenticationFailed,
  realmDeactivated,
  userDeactivated,
} from '../core/errors.js';
import { defaultRules, type RateLimiter } from '../core/rate-limit.js';
import { allUsers, recordFirstLogin, type UserRow, userByEmailKey } from '../db/queries/users.js';
import { verifyPassword } from '../shared/credentials.js';
import { loadRealm } from '../shared/realm.js';
import { apiEmail } from '../users/index.js';

function keyResponse(ctx: AppContext, user: UserRow) {
  const realm = loadRealm(ctx);
  return { api_key: user.api_key, email: apiEmail(user, realm.row.email_domain), user_id: user.id };
}

/** Zulip's order: a deactivated organization first, then a deactivated account. */
export function checkAccountUsable(ctx: AppContext, user: UserRow): void {
  if (loadRealm(ctx).row.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
}

/**
 * POST /fetch_api_key: e-mail and password for the API key. Failures count
 * per username and against the client address's failed authentications.
 */
export function fetchApiKey(
  ctx: AppContext,
  limiter: RateLimiter,
  username: string,
  password: string,
  clientAddress: string,
) {
  return limiter.authenticationAttempt(
    clientAddress,
    () => checkPassword(ctx, limiter, username, password),
    (err) => err instanceof ApiError && err.code === 'AUTHENTICATION_FAILED',
  );
}

async function checkPassword(
  ctx: AppContext,
  limiter: RateLimiter,
  username: string,
  password: string,
) {
  const key = `password:${username.trim().toLowerCase()}`;
  // Only failed attempts count; once over the limit even a right password waits.
  // (hit() on a full window throws RATE_LIMIT_HIT without recording anything.)
  if (limiter.enabled && limiter.peek(key, defaultRules.passwordAttempts).remaining === 0) {
    limiter.hit(key, defaultRules.passwordAttempts);
  }

  const user = userByEmailKey(ctx.db, username.trim().toLowerCase());
  const ok = user && !user.is_bot && (await verifyPassword(password, user.password_hash));
  if (!user || !ok) {
    limiter.hit(key, defaultRules.passwordAttempts);
    throw authenticationFailed();
  }
  checkAccountUsable(ctx, user);
  recordFirstLogin(ctx.db, user.id, ctx.now());
  return keyResponse(ctx, user);
}

function requireDevMode(ctx: AppContext): void {
  if (!ctx.config.demo) {
    throw new ApiError('This endpoint is only available in demo mode (start Hearth with --demo).', {
      code: 'BAD_REQUEST',
    });
  }
}

/** POST /dev_fetch_api_key (demo mode only): any user's key by e-mail, no password. */
export function devFetchApiKey(ctx: AppContext, username: string) {
  requireDevMode(ctx);
  const user = userByEmailKey(ctx.db, username.trim().toLowerCase());
  // Zulip answers an unknown username as it answers a wrong password.
  if (!user) throw authenticationFailed();
  checkAccountUsable(ctx, user);
  return keyResponse(ctx, user);
}

/** GET /dev_list_users (demo mode only). */
export function devListUsers(ctx: AppContext) {
  requireDevMode(ctx);
  const users = allUsers(ctx.db).filter((u) => u.is_active && !u.is_bot);
  return {
    direct_admins: users
      .filter((u) => u.role <= 200)
      .map((u) => ({
        email: u.delivery_email,
        realm_uri: ctx.config.externalUrl,
        realm_url: ctx.config.externalUrl,
      })),
    direct_users: users
      .filter((u) => u.role > 200)
      .map((u) => ({
        email: u.delivery_email,
        realm_uri: ctx.config.externalUrl,
        realm_url: ctx.config.externalUrl,
      })),
  };
}
