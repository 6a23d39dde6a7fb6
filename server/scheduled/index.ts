/** Scheduled messages and reminders: create, edit, list, delete and delivery. */
export { deliverDue } from './delivery.js';
export { scheduledMessagesOverview } from './overview.js';
export { createReminder, listReminders, removeReminder } from './reminders.js';
export type { ScheduledTarget } from './scheduled-messages.js';
export {
  deliverDueScheduledMessages,
  editScheduledMessage,
  listScheduledMessages,
  parseScheduledTarget,
  removeScheduledMessage,
  scheduleMessage,
} from './scheduled-messages.js';
export { remindersState, scheduledMessagesState } from './state.js';
