/** API-key authentication of requests, POST /fetch_api_key and the demo logins. */
export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
export { authenticate } from './authenticate.js';
