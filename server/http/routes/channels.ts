import type { Route } from '../route.js';

/** /streams, /channels/create, /get_stream_id, /users/me/{stream_id}/topics */
export const channelRoutes: Route[] = [];
