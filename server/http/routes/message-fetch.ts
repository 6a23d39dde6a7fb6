import type { Route } from '../route.js';

/** GET /messages, GET /messages/{id}, /messages/matches_narrow */
export const messageFetchRoutes: Route[] = [];
