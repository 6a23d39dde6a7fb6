import {
  CSRF_COOKIE,
  endBrowserSession,
  SESSION_COOKIE,
  startBrowserSession,
} from '../../auth/index.js';
import { outsideApi, WHY } from '../api-link.js';
import { p } from '../params.js';
import { AnswerWithHeaders, publicRoute, type RequestInfo } from '../route.js';

/**
 * The session cookie is HttpOnly (page scripts never see it); the CSRF
 * cookie is for the page to read and echo. Both SameSite=Lax: another
 * site's requests do not carry them, a link followed to the chat does.
 * Secure by the one rule of RequestInfo.secureCookies (over TLS, or an https
 * external URL); not on this machine's plain-http loopback, where a browser
 * would drop a Secure cookie.
 */
function cookies(
  request: RequestInfo,
  session: { token: string; csrfToken: string; maxAgeSeconds: number } | null,
): string[] {
  const secure = request.secureCookies ? '; Secure' : '';
  const maxAge = session?.maxAgeSeconds ?? 0;
  const common = `Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
  return [
    `${SESSION_COOKIE}=${session?.token ?? ''}; ${common}; HttpOnly`,
    `${CSRF_COOKIE}=${session?.csrfToken ?? ''}; ${common}`,
  ];
}

/** Nothing about a session may be cached by the browser or anything in between. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * POST /chat/session: log in with e-mail and password (the same checks,
 * limits and errors as POST /fetch_api_key); sets the session and CSRF
 * cookies and answers the user's id and the CSRF token. DELETE
 * /chat/session: log out, ending the session server-side; it clears the
 * cookies even when there was no live session.
 */
export const chatSessionRoutes = [
  publicRoute({
    method: 'POST',
    path: '/chat/session',
    api: outsideApi(WHY.hearthOnly),
    atRoot: true,
    auth: 'none',
    params: { username: p.str(), password: p.str() },
    handler: async (ctx, _user, params, request) => {
      const session = await startBrowserSession(ctx, params.username, params.password, request.ip);
      return new AnswerWithHeaders(
        { user_id: session.user.id, csrf_token: session.csrfToken },
        { ...NO_STORE, 'Set-Cookie': cookies(request, session) },
      );
    },
  }),
  publicRoute({
    method: 'DELETE',
    path: '/chat/session',
    api: outsideApi(WHY.hearthOnly),
    atRoot: true,
    auth: 'none',
    params: {},
    handler: (ctx, _user, _params, request) => {
      endBrowserSession(ctx, {
        cookie: request.cookie,
        method: 'DELETE',
        csrfToken: request.csrfToken,
      });
      return new AnswerWithHeaders({}, { ...NO_STORE, 'Set-Cookie': cookies(request, null) });
    },
  }),
];
