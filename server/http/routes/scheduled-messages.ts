import {
  editScheduledMessage,
  listScheduledMessages,
  parseScheduledTarget,
  removeScheduledMessage,
  scheduleMessage,
} from '../../scheduled/index.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

const scheduledMessageId = p.int({ min: 0 });
const messageType = p.oneOf(['direct', 'private', 'stream', 'channel'] as const);
const target = p.custom('json', parseScheduledTarget);

/** POST/GET /scheduled_messages, PATCH/DELETE /scheduled_messages/{id} */
export const scheduledMessageRoutes = [
  route({
    method: 'GET',
    path: '/scheduled_messages',
    api: '/scheduled_messages',
    params: {},
    handler: (ctx, user) => listScheduledMessages(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/scheduled_messages',
    api: '/scheduled_messages',
    differences: {
      'scheduled_message_id is not in the description': WHY.spec,
    },
    // In the order of Zulip's create_scheduled_message_backend; scheduled_message_id is the spec's.
    params: {
      content: p.str(),
      read_by_sender: p.bool().optional(),
      to: target,
      type: messageType,
      scheduled_delivery_timestamp: p.int(),
      topic: p.str().alias('subject').optional(),
      scheduled_message_id: scheduledMessageId.optional(),
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
    api: '/scheduled_messages/{scheduled_message_id}',
    params: {
      scheduled_message_id: scheduledMessageId,
      // Zulip's update_scheduled_message_backend's order.
      content: p.str().optional(),
      type: messageType.optional(),
      scheduled_delivery_timestamp: p.int().optional(),
      to: target.optional(),
      topic: p.str().alias('subject').optional(),
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
    api: '/scheduled_messages/{scheduled_message_id}',
    params: { scheduled_message_id: scheduledMessageId },
    handler: (ctx, user, params) => removeScheduledMessage(ctx, user, params.scheduled_message_id),
  }),
];
