/** API-key authentication of requests (also integration URLs' `?api_key=`), the chat's image-credentials cookie, POST /fetch_api_key, JWT login and the demo logins. */
export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
export { authenticate, authenticateWebhook, checkIncomingWebhookAccess } from './authenticate.js';
export {
  authenticateChatSession,
  CHAT_SESSION_COOKIE,
  readCookie,
  startChatSession,
} from './chat-session.js';
export { checkJwtKey, jwtFetchApiKey, setJwtKey } from './jwt.js';
