/** API-key authentication of requests, POST /fetch_api_key, JWT login and the demo logins. */
export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
export { authenticate, checkIncomingWebhookAccess } from './authenticate.js';
export { checkJwtKey, jwtFetchApiKey, setJwtKey } from './jwt.js';
