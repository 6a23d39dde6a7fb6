import type { Route } from '../route.js';

/** PATCH/DELETE /messages/{id}, GET /messages/{id}/history, reactions, typing */
export const messageEditRoutes: Route[] = [];
