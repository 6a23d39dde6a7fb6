export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
export { authenticate } from './authenticate.js';
