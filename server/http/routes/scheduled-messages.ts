import { z } from 'zod';
import {
  editScheduledMessage,
  listScheduledMessages,
  removeScheduledMessage,
  scheduleMessage,
} from '../../scheduled/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const scheduledMessageId = p.int({ min: 0 });
const messageType = p.oneOf(['direct', 'private', 'stream', 'channel'] as const);
/** A channel id, or a list of user ids (a bare integer is one recipient). */
const target = p.json(z.union([z.number().int(), z.array(z.number().int()).min(1)]));

/** POST/GET /scheduled_messages, PATCH/DELETE /scheduled_messages/{id} */
export const scheduledMessageRoutes = [
  route({
    method: 'GET',
    path: '/scheduled_messages',
    params: {},
    handler: (ctx, user) => listScheduledMessages(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/scheduled_messages',
    params: {
      type: messageType,
      to: target,
      content: p.str(),
      topic: p.str().alias('subject').optional(),
      scheduled_delivery_timestamp: p.int(),
      scheduled_message_id: scheduledMessageId.optional(),
      read_by_sender: p.bool().optional(),
    },
    handler: (ctx, user, params, request) =>
      scheduleMessage(ctx, user, {
        type: params.type,
        to: params.to,
        content: params.content,
        topic: params.topic,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        scheduledMessageId: params.scheduled_message_id,
        readBySender: params.read_by_sender,
        clientName: request.clientName,
      }),
  }),
  route({
    method: 'PATCH',
    path: '/scheduled_messages/:scheduled_message_id(^\\d+)',
    params: {
      scheduled_message_id: scheduledMessageId,
      type: messageType.optional(),
      to: target.optional(),
      content: p.str().optional(),
      topic: p.str().alias('subject').optional(),
      scheduled_delivery_timestamp: p.int().optional(),
    },
    handler: (ctx, user, params, request) =>
      editScheduledMessage(ctx, user, params.scheduled_message_id, {
        type: params.type,
        to: params.to,
        content: params.content,
        topic: params.topic,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        clientName: request.clientName,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/scheduled_messages/:scheduled_message_id(^\\d+)',
    params: { scheduled_message_id: scheduledMessageId },
    handler: (ctx, user, params) => removeScheduledMessage(ctx, user, params.scheduled_message_id),
  }),
];
