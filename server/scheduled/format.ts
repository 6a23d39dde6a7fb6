import type { ScheduledMessageRow } from '../db/queries/scheduled-messages.js';
import { topicShownAs } from '../shared/topics.js';
import type { Reminder, ScheduledMessage } from '../shared/zulip-api/index.js';

/**
 * The scheduled-message object of GET /scheduled_messages, events and POST
 * /register; `emptyTopicName` replaces the empty topic for clients without
 * the empty_topic_name capability (null: shown as it is).
 */
export function formatScheduledMessage(
  row: ScheduledMessageRow,
  emptyTopicName: string | null,
): ScheduledMessage {
  const isChannel = row.type === 'stream';
  return {
    scheduled_message_id: row.id,
    type: row.type,
    // A channel message's row always has its channel (the rows share one table with DMs).
    to: isChannel ? row.stream_id! : (JSON.parse(row.recipient_ids ?? '[]') as number[]),
    ...(isChannel ? { topic: topicShownAs(row.topic, emptyTopicName) } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}

/** The reminder object of GET /reminders, `reminders` events and POST /register. */
export function formatReminder(row: ScheduledMessageRow): Reminder {
  return {
    reminder_id: row.id,
    type: 'private',
    to: JSON.parse(row.recipient_ids ?? '[]') as number[],
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
    // Every reminder row names its message (the column is null for scheduled messages).
    reminder_target_message_id: row.reminder_target_message_id!,
  };
}
