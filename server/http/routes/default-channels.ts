import { addDefaultChannel, removeDefaultChannel } from '../../default-channels/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** /default_streams */
export const defaultChannelRoutes = [
  route({
    method: 'POST',
    path: '/default_streams',
    api: '/default_streams',
    params: { stream_id: p.int() },
    handler: (ctx, user, params) => addDefaultChannel(ctx, user, params.stream_id),
  }),
  route({
    method: 'DELETE',
    path: '/default_streams',
    api: '/default_streams',
    params: { stream_id: p.int() },
    handler: (ctx, user, params) => removeDefaultChannel(ctx, user, params.stream_id),
  }),
];
