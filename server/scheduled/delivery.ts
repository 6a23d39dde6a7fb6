import type { AppContext } from '../core/context.js';
import { deliverDueReminders } from './reminders.js';
import { deliverDueScheduledMessages } from './scheduled-messages.js';

export interface DeliveryCounts {
  delivered: number;
  failed: number;
}

/**
 * One pass of the scheduler (the cron job; tests call it with a fake
 * clock): every due scheduled message, then every due reminder.
 */
export function deliverDue(ctx: AppContext): {
  scheduledMessages: DeliveryCounts;
  reminders: DeliveryCounts;
} {
  return {
    scheduledMessages: deliverDueScheduledMessages(ctx),
    reminders: deliverDueReminders(ctx),
  };
}
