import { addSubmessage, renderPreview, sendMessage } from '../../messages/index.js';
import { undescribed, WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

export const messageRoutes = [
  route({
    method: 'POST',
    path: '/messages',
    api: '/messages',
    differences: {
      'forged is not in the description': WHY.mirroring,
      'sender is not in the description': WHY.mirroring,
      'to is string': WHY.toShapes,
      'to is optional': WHY.toShapes,
      'time is not in the description': WHY.mirroring,
    },
    groupCommit: true,
    allowIncomingWebhooks: true,
    // In the order of Zulip's send_message_backend, which checks them in turn.
    params: {
      forged: p.str().optional(),
      local_id: p.str().optional(),
      content: p.str(),
      queue_id: p.str().optional(),
      read_by_sender: p.bool().optional(),
      sender: p.str().optional(),
      to: p.str().optional(),
      type: p.oneOf(['direct', 'private', 'stream', 'channel'] as const),
      // A forged message's time; only API super-users may forge, so it is only checked.
      time: p.float().optional(),
      topic: p.str().alias('subject').optional(),
    },
    handler: (ctx, user, params, request) =>
      sendMessage(ctx, user, {
        type: params.type,
        to: params.to,
        content: params.content,
        topic: params.topic,
        queueId: params.queue_id,
        localId: params.local_id,
        readBySender: params.read_by_sender,
        clientName: request.clientName,
        forged: params.forged,
        mirrorSender: params.sender,
      }),
  }),
  route({
    method: 'POST',
    path: '/messages/render',
    api: '/messages/render',
    params: { content: p.str() },
    handler: (ctx, user, params) => renderPreview(ctx, user, params.content),
  }),
  route({
    method: 'POST',
    path: '/submessage',
    api: undescribed(WHY.undescribed),
    params: { message_id: p.int(), msg_type: p.str(), content: p.str() },
    handler: (ctx, user, params) =>
      addSubmessage(ctx, user, {
        messageId: params.message_id,
        msgType: params.msg_type,
        content: params.content,
      }),
  }),
];
