import type { ScheduledMessageRow } from '../db/queries/scheduled-messages.js';
import { topicShownAs } from '../shared/topics.js';

/**
 * The scheduled-message object of GET /scheduled_messages, events and POST
 * /register; `emptyTopicName` replaces the empty topic for clients without
 * the empty_topic_name capability (null: shown as it is).
 */
export function formatScheduledMessage(
  row: ScheduledMessageRow,
  emptyTopicName: string | null,
): Record<string, unknown> {
  const isChannel = row.type === 'stream';
  return {
    scheduled_message_id: row.id,
    type: row.type,
    to: isChannel ? row.stream_id : (JSON.parse(row.recipient_ids ?? '[]') as number[]),
    ...(isChannel ? { topic: topicShownAs(row.topic, emptyTopicName) } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}

/** The reminder object of GET /reminders, `reminders` events and POST /register. */
export function formatReminder(row: ScheduledMessageRow): Record<string, unknown> {
  return {
    reminder_id: row.id,
    type: 'private',
    to: JSON.parse(row.recipient_ids ?? '[]') as number[],
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
    reminder_target_message_id: row.reminder_target_message_id,
  };
}
