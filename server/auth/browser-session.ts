import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context.js';
import { ApiError, realmDeactivated, userDeactivated } from '../core/errors.js';
import {
  type BrowserSessionRow,
  browserSessionByTokenHash,
  deleteBrowserSession,
  deleteExpiredBrowserSessions,
  insertBrowserSession,
  touchBrowserSession,
} from '../db/queries/browser-sessions.js';
import { getRealm } from '../db/queries/realm.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { fetchApiKey } from './api-keys.js';

/*
 * Browser sessions: how the browser chat and the admin UI in a browser stay
 * logged in, as Zulip's web app does (Django sessions), instead of keeping an
 * API key in the page's storage. Logging in with e-mail and password sets
 *
 * - the session cookie: a random token, HttpOnly (no script reads it),
 *   SameSite=Lax (no other site's request carries it, but following a link
 *   to the chat does), Secure when clients use https; the server keeps only
 *   its SHA-256 (db: browser_sessions);
 * - the CSRF cookie: the session's CSRF token, which the page reads and
 *   echoes in the X-CSRFToken header (Django's double submit, checked here
 *   against the session's own token). Another site cannot read it, and
 *   cannot send a custom header to this origin without CORS, which this
 *   server never grants.
 *
 * Sessions stand for their user on every authenticated route when the
 * request has no Authorization header (Zulip clients with API keys are
 * untouched). Requests that change something (any method but GET and
 * HEAD) must carry the CSRF header; reads need not, so <img> and links to
 * uploads work.
 *
 * A session ends when its user logs out, after SESSION_IDLE_MS unused or
 * SESSION_LIFETIME_MS after it began, and (by triggers on the tables,
 * migration 0016) when the user's API key or password changes, the user is
 * deactivated or the organization is.
 */

export const SESSION_COOKIE = 'hearth_session';
export const CSRF_COOKIE = 'hearth_csrf';
/** Django's and Zulip's web app's header name. */
export const CSRF_HEADER = 'x-csrftoken';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/**
 * Zulip's SESSION_COOKIE_AGE: two weeks after the last page load (it saves
 * the session on each load). Here: two weeks after the last request.
 */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/**
 * Zulip sets no absolute limit. Hearth ends every session 30 days after
 * its log-in (what the chat's image cookie lasted), so a session copied
 * off a machine in daily use still stops; a user types their password
 * about once a month.
 */
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** How stale `last_used_ms` may get before a request writes it (the idle limit's precision). */
const TOUCH_INTERVAL_MS = HOUR_MS;

const TOKEN_BYTES = 32;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Constant-time comparison (hashing first makes the lengths equal). */
function sameText(given: string, expected: string): boolean {
  return timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );
}

export interface StartedSession {
  user: UserRow;
  /** The session cookie's value. */
  token: string;
  csrfToken: string;
  /** How long the cookies should last: the session's absolute limit. */
  maxAgeSeconds: number;
}

/**
 * Logs in with e-mail and password: the same checks, rate limits and
 * errors as POST /fetch_api_key, then a new session. Expired sessions of
 * anyone are swept here, so the table holds only live ones and a few stale.
 */
export async function startBrowserSession(
  ctx: AppContext,
  username: string,
  password: string,
  clientAddress: string,
): Promise<StartedSession> {
  const { user_id } = await fetchApiKey(ctx, ctx.rateLimiter, username, password, clientAddress);
  const user = userById(ctx.db, user_id)!;
  const now = ctx.now();
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const csrfToken = randomBytes(TOKEN_BYTES).toString('base64url');
  ctx.transaction(() => {
    deleteExpiredBrowserSessions(ctx.db, now - SESSION_IDLE_MS, now - SESSION_LIFETIME_MS);
    insertBrowserSession(ctx.db, {
      token_hash: sha256(token),
      csrf_token: csrfToken,
      user_id: user.id,
      created_ms: now,
      last_used_ms: now,
    });
  });
  return { user, token, csrfToken, maxAgeSeconds: SESSION_LIFETIME_MS / 1000 };
}

/**
 * Zulip's 401 for a request of the web app without a live session: the
 * `Session` challenge, which no browser answers with a password prompt.
 */
export const sessionRequired = () =>
  new ApiError('Not logged in: API authentication or user session required', {
    code: 'UNAUTHORIZED',
    status: 401,
    headers: { 'WWW-Authenticate': 'Session realm="zulip"' },
  });

/** Zulip's CSRF failure (Django's reasons). */
const csrfFailed = (reason: string) =>
  new ApiError(`CSRF error: ${reason}`, {
    code: 'CSRF_FAILED',
    status: 403,
    extra: { reason },
  });

/** What of a request a session check reads. */
export interface SessionRequest {
  cookie: string | undefined;
  method: string;
  /** The X-CSRFToken header. */
  csrfToken: string | undefined;
  /** Ask for the CSRF header whatever the method (the admin procedures). */
  alwaysCheckCsrf?: boolean;
}

/** Whether the request carries a session cookie at all. */
export const hasSessionCookie = (cookie: string | undefined) =>
  readCookie(cookie, SESSION_COOKIE) !== undefined;

/** The live session the cookie names, or undefined (an expired one is deleted). */
function liveSession(ctx: AppContext, cookie: string | undefined): BrowserSessionRow | undefined {
  const token = readCookie(cookie, SESSION_COOKIE);
  if (!token) return undefined;
  const session = browserSessionByTokenHash(ctx.db, sha256(token));
  if (!session) return undefined;
  const now = ctx.now();
  if (
    now - session.last_used_ms >= SESSION_IDLE_MS ||
    now - session.created_ms >= SESSION_LIFETIME_MS
  ) {
    deleteBrowserSession(ctx.db, session.id);
    return undefined;
  }
  return session;
}

function checkCsrf(session: BrowserSessionRow, request: SessionRequest): void {
  const safe = request.method === 'GET' || request.method === 'HEAD';
  if (safe && !request.alwaysCheckCsrf) return;
  if (!request.csrfToken) throw csrfFailed('CSRF token missing.');
  if (!sameText(request.csrfToken, session.csrf_token)) throw csrfFailed('CSRF token incorrect.');
}

/**
 * The user a request's session stands for. A missing, unknown or expired
 * session is not logged in (and does not count against the address's
 * failed authentications: a page with many images and a stale cookie would
 * otherwise lock its user out); a live one of a deactivated organization
 * gets the answers Basic auth gives.
 */
export function authenticateBrowserSession(ctx: AppContext, request: SessionRequest): UserRow {
  const session = liveSession(ctx, request.cookie);
  if (!session) throw sessionRequired();
  checkCsrf(session, request);
  const user = userById(ctx.db, session.user_id);
  if (!user) throw sessionRequired();
  if (getRealm(ctx.db)?.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  if (ctx.now() - session.last_used_ms >= TOUCH_INTERVAL_MS) {
    touchBrowserSession(ctx.db, session.id, ctx.now());
  }
  return user;
}

/**
 * Logs out: ends the session the cookie names (with its CSRF header, so no
 * other site can log a user out). Without a live session there is nothing
 * to end, which is no error: the cookies are cleared either way.
 */
export function endBrowserSession(ctx: AppContext, request: SessionRequest): void {
  const session = liveSession(ctx, request.cookie);
  if (!session) return;
  checkCsrf(session, request);
  deleteBrowserSession(ctx.db, session.id);
}

/**
 * Runs `write` (inside the caller's transaction) and keeps the session the
 * cookie names alive through it, as Zulip's own password change does
 * (Django's update_session_auth_hash): the triggers end every session of a
 * user whose password changes, and this one comes back unchanged (same
 * token, same CSRF token) so the page that changed it stays logged in while
 * every other browser is logged out. Only a live session of `userId` is kept.
 */
export function keepingBrowserSession<T>(
  ctx: AppContext,
  cookie: string | undefined,
  userId: number,
  write: () => T,
): T {
  const session = liveSession(ctx, cookie);
  const result = write();
  if (session && session.user_id === userId) {
    const { id: _id, ...kept } = session;
    insertBrowserSession(ctx.db, kept);
  }
  return result;
}

/** The value of cookie `name` in a Cookie header, if it is there. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    return pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}
