import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import {
  deleteScheduledMessage,
  dueReminders,
  insertReminder,
  markScheduledMessageDelivered,
  markScheduledMessageFailed,
  pendingRemindersOf,
  reminderOf,
  type ScheduledMessageRow,
} from '../db/queries/scheduled-messages.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { prepareMessage } from '../messages/index.js';
import { accessMessage } from '../narrow/index.js';
import type { EventBody, EventFields } from '../shared/zulip-api/index.js';
import { formatReminder } from './format.js';
import { sendNotificationBotDm } from './notification-bot.js';
import { reminderContent } from './reminder-content.js';
import { checkInFuture } from './scheduled-messages.js';

/**
 * Reminders (Zulip's ScheduledMessage.REMIND): at the chosen time,
 * Notification Bot sends their owner a direct message about a message they
 * could see. They share the scheduled_messages table and the delivery job
 * with scheduled messages, but never show up among them, nor they among these.
 */

export interface ReminderInput {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note: string | undefined;
  clientName: string;
}

const reminderNotFound = () => new ApiError('Reminder does not exist', { status: 404 });

/** Reminders are private to their owner: events go to the owner's queues only. */
function emitToOwner(tx: Tx, ownerId: number, event: EventFields<'reminders'>): void {
  tx.emit({
    type: 'reminders',
    users: [ownerId],
    payload: { type: 'reminders', ...event } satisfies EventBody<'reminders'>,
  });
}

/** POST /reminders */
export function createReminder(
  ctx: AppContext,
  user: UserRow,
  input: ReminderInput,
): { reminder_id: number } {
  checkInFuture(ctx, input.scheduledDeliveryTimestamp);
  const { message, stream } = accessMessage(ctx, user, input.messageId);
  const note = input.note || null;
  // Zulip checks (and renders) the reminder as a direct message from the
  // owner to themself, though Notification Bot will be the one sending it.
  const draft = prepareMessage(ctx, user, {
    target: { type: 'private', recipients: { ids: [user.id] } },
    content: reminderContent(ctx, message, stream, note),
    clientName: input.clientName,
  });
  return ctx.transaction((tx) => {
    const id = insertReminder(ctx.db, user.id, {
      recipient_ids: [user.id],
      content: draft.content,
      rendered_content: draft.rendered.html,
      scheduled_timestamp: input.scheduledDeliveryTimestamp,
      sending_client: input.clientName,
      target_message_id: message.id,
      note,
    });
    const row = reminderOf(ctx.db, user.id, id)!;
    emitToOwner(tx, user.id, { op: 'add', reminders: [formatReminder(row)] });
    return { reminder_id: id };
  });
}

/** GET /reminders: the undelivered ones (failed included), soonest first. */
export function listReminders(
  ctx: AppContext,
  user: UserRow,
): { reminders: Record<string, unknown>[] } {
  return { reminders: pendingRemindersOf(ctx.db, user.id).map(formatReminder) };
}

/** DELETE /reminders/{reminder_id} */
export function removeReminder(ctx: AppContext, user: UserRow, id: number): Record<string, never> {
  if (!reminderOf(ctx.db, user.id, id)) throw reminderNotFound();
  return ctx.transaction((tx) => {
    deleteScheduledMessage(ctx.db, id);
    emitToOwner(tx, user.id, { op: 'remove', reminder_id: id });
    return {};
  });
}

/**
 * Sends one due reminder, written again from the message as it is now; if
 * the owner can no longer see it, the text saved with the reminder is sent.
 */
function deliverReminder(ctx: AppContext, row: ScheduledMessageRow): boolean {
  try {
    ctx.transaction((tx) => {
      const owner = userById(ctx.db, row.sender_id);
      if (!owner?.is_active) throw badRequest('Account is deactivated');
      let content = row.content;
      try {
        const { message, stream } = accessMessage(ctx, owner, row.reminder_target_message_id!);
        content = reminderContent(ctx, message, stream, row.reminder_note);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
      const messageId = sendNotificationBotDm(ctx, tx, owner, content);
      markScheduledMessageDelivered(ctx.db, row.id, messageId);
      emitToOwner(tx, owner.id, { op: 'remove', reminder_id: row.id });
    });
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) ctx.log.error('reminder delivery failed', err);
    const reason = err instanceof ApiError ? err.message : 'Internal server error';
    // Unlike a scheduled message, a failed reminder sends no notice and no event (Zulip).
    ctx.transaction(() => markScheduledMessageFailed(ctx.db, row.id, reason));
    return false;
  }
}

/** Sends every reminder whose time has come (part of the scheduler's pass). */
export function deliverDueReminders(ctx: AppContext): { delivered: number; failed: number } {
  const due = dueReminders(ctx.db, Math.floor(ctx.now() / 1000));
  let delivered = 0;
  for (const row of due) if (deliverReminder(ctx, row)) delivered++;
  return { delivered, failed: due.length - delivered };
}
