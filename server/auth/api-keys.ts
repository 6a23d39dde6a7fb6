import type { AppContext } from '../core/context.js';
import {
  ApiError,
  authenticationFailed,
  realmDeactivated,
  userDeactivated,
} from '../core/errors.js';
import type { RateLimiter } from '../core/rate-limit.js';
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
 * POST /fetch_api_key: e-mail and password for the API key. Wrong passwords
 * count against the username from the client's address and from all
 * addresses (rate-limit.ts); someone else's failures never lock out an
 * address the account already uses.
 */
export function fetchApiKey(
  ctx: AppContext,
  limiter: RateLimiter,
  username: string,
  password: string,
  clientAddress: string,
) {
  const normalized = username.trim().toLowerCase();
  return limiter.checkPassword(
    clientAddress,
    normalized,
    () => checkPassword(ctx, normalized, password),
    (err) => err instanceof ApiError && err.code === 'AUTHENTICATION_FAILED',
  );
}

async function checkPassword(ctx: AppContext, username: string, password: string) {
  const user = userByEmailKey(ctx.db, username);
  // Bots have no password; their hash (none) is checked all the same, so an
  // unknown or passwordless account costs what a wrong password does.
  const hash = user && !user.is_bot ? user.password_hash : null;
  const ok = await verifyPassword(password, hash);
  if (!user || !ok) throw authenticationFailed();
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
