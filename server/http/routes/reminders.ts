import { createReminder, listReminders, removeReminder } from '../../scheduled/index.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** GET/POST /reminders, DELETE /reminders/{reminder_id} */
export const reminderRoutes = [
  route({
    method: 'GET',
    path: '/reminders',
    api: '/reminders',
    params: {},
    handler: (ctx, user) => listReminders(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/reminders',
    api: '/reminders',
    differences: {
      'message_id is required': WHY.descriptionLax,
      'scheduled_delivery_timestamp is required': WHY.descriptionLax,
    },
    params: {
      message_id: p.int(),
      scheduled_delivery_timestamp: p.int(),
      note: p.str().optional(),
    },
    handler: (ctx, user, params, request) =>
      createReminder(ctx, user, {
        messageId: params.message_id,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        note: params.note,
        clientName: request.clientName,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/reminders/:reminder_id(^\\d+)',
    api: '/reminders/{reminder_id}',
    params: { reminder_id: p.int({ min: 0 }) },
    handler: (ctx, user, params) => removeReminder(ctx, user, params.reminder_id),
  }),
];
