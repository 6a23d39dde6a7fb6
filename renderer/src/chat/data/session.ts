import { ApiError, ZulipApi } from './api.js';

/**
 * Logging in and staying logged in, as Zulip's web app does: a browser
 * session. `POST /chat/session` (e-mail and password) sets an HttpOnly
 * session cookie, which no script here can read, and the CSRF cookie, whose
 * token every call echoes (ZulipApi's `csrfToken`). Nothing is kept in
 * localStorage or sessionStorage; the session ends at log-out, when it
 * expires on the server, or when the user's key or password changes.
 */

/** The server's CSRF cookie (server/auth/browser-session.ts). */
export const CSRF_COOKIE = 'hearth_csrf';

/**
 * Where earlier versions kept the API key itself. A page that finds it
 * drops it, unused, and asks to log in: a session must rest on the
 * password, and a key that lay in page storage may have been copied.
 */
export const LEGACY_CREDENTIALS_KEY = 'hearth-chat-credentials';

/** The page's cookies (never touched at import: the data layer runs in node tests). */
function pageCookies(): string {
  try {
    return globalThis.document?.cookie ?? '';
  } catch {
    return '';
  }
}

/** The session's CSRF token, or null when this browser has no session. */
export function csrfTokenFromCookie(): string | null {
  for (const pair of pageCookies().split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === CSRF_COOKIE) {
      const value = pair.slice(eq + 1).trim();
      return value === '' ? null : value;
    }
  }
  return null;
}

/**
 * Whether the browser holds a session (the server may still find it
 * expired: the first call then answers 401 and the page logs out).
 */
export const hasSession = () => csrfTokenFromCookie() !== null;

/** The page's API client: same origin, the session's cookie and CSRF token. */
export const sessionApi = () => new ZulipApi({ csrfToken: csrfTokenFromCookie });

/**
 * Drops an API key an earlier version saved; true when there was one (the
 * login page then says why it asks again).
 */
export function dropLegacyCredentials(): boolean {
  try {
    const storage = globalThis.localStorage;
    if (!storage || storage.getItem(LEGACY_CREDENTIALS_KEY) === null) return false;
    storage.removeItem(LEGACY_CREDENTIALS_KEY);
    return true;
  } catch {
    // Storage blocked by the browser's privacy settings: nothing was saved there.
    return false;
  }
}

/** `POST /chat/session`: logs in; resolves with the user's id. */
export async function logIn(
  email: string,
  password: string,
  api: ZulipApi = sessionApi(),
): Promise<{ userId: number }> {
  const answer = await api.callAtRoot<{ user_id: number }>('POST', '/chat/session', {
    username: email,
    password,
  });
  return { userId: answer.user_id };
}

/**
 * Forgets the session in this page: the server has ended it (a 401), or the
 * user logged out. The CSRF cookie goes, so a reload shows the login page.
 */
export function forgetSession(): void {
  try {
    if (globalThis.document) {
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is newer than the browsers the chat supports (Firefox, older Safari)
      globalThis.document.cookie = `${CSRF_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
    }
  } catch {
    // No document (node tests).
  }
}

/**
 * `DELETE /chat/session`: ends the session on the server (which clears both
 * cookies). A failure to reach the server still forgets it here.
 */
export async function logOut(api: ZulipApi): Promise<void> {
  try {
    await api.callAtRoot('DELETE', '/chat/session');
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  } finally {
    forgetSession();
  }
}
