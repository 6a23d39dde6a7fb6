import { CHAT_SESSION_COOKIE, startChatSession } from '../../auth/index.js';
import { AnswerWithHeaders, publicRoute, type RequestInfo, route } from '../route.js';

/**
 * HttpOnly: page scripts never see it (an injected script could not carry
 * it off). SameSite=Strict: no other site's page makes the browser send it.
 * Secure whenever the request came over https (RequestInfo.secureCookies);
 * not on this machine's plain-http loopback, where a browser may drop a
 * Secure cookie, which would leave the chat's images broken.
 */
function cookie(info: RequestInfo, value: string, maxAgeSeconds: number): string {
  const secure = info.secureCookies ? '; Secure' : '';
  return `${CHAT_SESSION_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

/** Nothing about a session may be cached by the browser or anything in between. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * POST /chat/session (Basic auth, as the API): the chat's image credentials,
 * a cookie the /user_uploads routes accept. DELETE /chat/session clears it;
 * it needs no credentials, so logging out works after a key changed.
 */
export const chatSessionRoutes = [
  route({
    method: 'POST',
    path: '/chat/session',
    atRoot: true,
    params: {},
    handler: (ctx, user, _params, info) => {
      const session = startChatSession(ctx, user);
      return new AnswerWithHeaders(
        {},
        { ...NO_STORE, 'Set-Cookie': cookie(info, session.value, session.maxAgeSeconds) },
      );
    },
  }),
  publicRoute({
    method: 'DELETE',
    path: '/chat/session',
    atRoot: true,
    auth: 'none',
    params: {},
    handler: (_ctx, _user, _params, info) =>
      new AnswerWithHeaders({}, { ...NO_STORE, 'Set-Cookie': cookie(info, '', 0) }),
  }),
];
