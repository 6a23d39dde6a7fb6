export { devFetchApiKey, devListUsers, fetchApiKey } from './api-keys.js';
