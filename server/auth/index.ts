/** API-key authentication of requests (also integration URLs' `?api_key=`), browser sessions (the chat and the admin UI in a browser), POST /fetch_api_key, JWT login and the demo logins. */
export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
export {
  authenticate,
  authenticateWebhook,
  checkIncomingWebhookAccess,
  knownCaller,
} from './authenticate.js';
export {
  authenticateBrowserSession,
  CSRF_COOKIE,
  CSRF_HEADER,
  endBrowserSession,
  hasSessionCookie,
  keepingBrowserSession,
  readCookie,
  SESSION_COOKIE,
  type StartedSession,
  startBrowserSession,
} from './browser-session.js';
export { checkJwtKey, jwtFetchApiKey, setJwtKey } from './jwt.js';
