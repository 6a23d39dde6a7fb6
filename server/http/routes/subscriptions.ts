import type { Route } from '../route.js';

/** /users/me/subscriptions and friends */
export const subscriptionRoutes: Route[] = [];
