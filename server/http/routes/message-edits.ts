import {
  deleteMessage,
  getMessageHistory,
  REPORT_REASONS,
  type ReportType,
  reportMessage,
  updateMessage,
} from '../../messages/index.js';
import { MAX_REPORT_MESSAGE_EXPLANATION_LENGTH } from '../../shared/limits.js';
import { p } from '../params.js';
import { route } from '../route.js';

const messageId = p.int({ min: 0 });

/** PATCH/DELETE /messages/{id}, GET /messages/{id}/history, POST /messages/{id}/report (the messages area) */
export const messageEditRoutes = [
  route({
    method: 'PATCH',
    path: '/messages/:message_id(^\\d+)',
    api: '/messages/{message_id}',
    // In the (alphabetical) order of Zulip's update_message_backend.
    params: {
      content: p.str().optional(),
      message_id: messageId,
      prev_content_sha256: p.str().optional(),
      propagate_mode: p
        .oneOf(['change_one', 'change_later', 'change_all'] as const)
        .default('change_one'),
      send_notification_to_new_thread: p.bool().default(true),
      send_notification_to_old_thread: p.bool().default(false),
      stream_id: p.int({ min: 0 }).optional(),
      topic: p.str().alias('subject').optional(),
    },
    handler: (ctx, user, params) =>
      updateMessage(ctx, user, {
        messageId: params.message_id,
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        sendNotificationToOldThread: params.send_notification_to_old_thread,
        sendNotificationToNewThread: params.send_notification_to_new_thread,
        prevContentSha256: params.prev_content_sha256,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/messages/:message_id(^\\d+)',
    api: '/messages/{message_id}',
    params: { message_id: messageId },
    handler: (ctx, user, params) => deleteMessage(ctx, user, params.message_id),
  }),
  route({
    method: 'POST',
    path: '/messages/:message_id(^\\d+)/report',
    api: '/messages/{message_id}/report',
    params: {
      message_id: messageId,
      // Zulip's report_message_backend order.
      description: p.str({ maxLength: MAX_REPORT_MESSAGE_EXPLANATION_LENGTH }).default(''),
      report_type: p.oneOf(Object.keys(REPORT_REASONS) as ReportType[]),
    },
    handler: (ctx, user, params) =>
      reportMessage(ctx, user, {
        messageId: params.message_id,
        reportType: params.report_type,
        description: params.description,
      }),
  }),
  route({
    method: 'GET',
    path: '/messages/:message_id(^\\d+)/history',
    api: '/messages/{message_id}/history',
    params: { message_id: messageId, allow_empty_topic_name: p.bool().default(false) },
    handler: (ctx, user, params) =>
      getMessageHistory(ctx, user, params.message_id, params.allow_empty_topic_name),
  }),
];
