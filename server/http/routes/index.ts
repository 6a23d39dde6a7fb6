import type { Route } from '../route.js';
import { botRoutes } from './bots.js';
import { eventRoutes } from './events.js';
import { messageRoutes } from './messages.js';
import { serverRoutes } from './server.js';
import { userRoutes } from './users.js';

/** Every endpoint, one file per resource. */
export const allRoutes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...botRoutes,
  ...eventRoutes,
  ...messageRoutes,
];
