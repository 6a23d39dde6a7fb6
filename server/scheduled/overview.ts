import type { AppContext } from '../core/context.js';
import { allPendingScheduledMessages } from '../db/queries/scheduled-messages.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';

/**
 * The admin UI's overview of everyone's pending scheduled messages: who,
 * where and when. A direct message's text stays private to its sender.
 */
export function scheduledMessagesOverview(ctx: AppContext, actor: UserRow) {
  requireRole(actor, 'admin');
  return allPendingScheduledMessages(ctx.db).map((row) => ({
    scheduled_message_id: row.id,
    sender_id: row.sender_id,
    type: row.type,
    stream_id: row.stream_id,
    recipient_ids:
      row.type === 'private' ? (JSON.parse(row.recipient_ids ?? '[]') as number[]) : [],
    topic: row.type === 'stream' ? row.topic : null,
    content: row.type === 'stream' ? row.content : null,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  }));
}
