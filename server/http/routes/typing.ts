import { sendEditTyping, sendTyping } from '../../typing/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const _messageId = p.int({ min: 0 });

/** POST /typing, POST /messages/{id}/typing */
export const typingRoutes = [
  route({
    method: 'POST',
    path: '/typing',
    api: '/typing',
    differences: {
      'to is string':
        "read as text: ids as a JSON list or zulip-js's bare id, or e-mails, as Zulip's older view read them (extract_private_recipients); Zulip's current one reads a JSON list of ids",
    },
    // Zulip's send_notification_backend, in its order; `private` is no typing type there.
    params: {
      to: p.str().optional(),
      op: p.oneOf(['start', 'stop'] as const),
      type: p.oneOf(['direct', 'stream', 'channel'] as const).default('direct'),
      stream_id: p.int().optional(),
      topic: p.str().alias('subject').optional(),
    },
    handler: (ctx, user, params) =>
      sendTyping(ctx, user, {
        type: params.type,
        op: params.op,
        to: params.to,
        streamId: params.stream_id,
        topic: params.topic,
      }),
  }),
  route({
    method: 'POST',
    path: '/messages/:message_id(^\\d+)/typing',
    api: '/messages/{message_id}/typing',
    params: { message_id: p.int(), op: p.oneOf(['start', 'stop'] as const) },
    handler: (ctx, user, params) => sendEditTyping(ctx, user, params.message_id, params.op),
  }),
];
