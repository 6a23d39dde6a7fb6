import type { ScheduledMessageRow } from '../db/queries/scheduled-messages.js';

/** The scheduled-message object of GET /scheduled_messages, events and POST /register. */
export function formatScheduledMessage(row: ScheduledMessageRow): Record<string, unknown> {
  const isChannel = row.type === 'stream';
  return {
    scheduled_message_id: row.id,
    type: row.type,
    to: isChannel ? row.stream_id : (JSON.parse(row.recipient_ids ?? '[]') as number[]),
    ...(isChannel ? { topic: row.topic } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}
