import { deleteTopic } from '../../messages/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** Whole topics: /streams/{stream_id}/delete_topic */
export const topicRoutes = [
  route({
    method: 'POST',
    path: '/streams/:stream_id(^\\d+)/delete_topic',
    api: '/streams/{stream_id}/delete_topic',
    requires: 'admin',
    params: { stream_id: p.int(), topic_name: p.str() },
    handler: async (ctx, user, params) =>
      deleteTopic(ctx, user, params.stream_id, params.topic_name),
  }),
];
