import type { Route } from '../route.js';

/** /messages/flags, /messages/flags/narrow, /mark_*_as_read, /user_topics */
export const flagRoutes: Route[] = [];
