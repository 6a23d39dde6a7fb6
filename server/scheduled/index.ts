/** Scheduled messages and reminders: create, edit, list, delete and delivery. */
export { deliverDue } from './delivery.js';
export { scheduledMessagesOverview } from './overview.js';
export { createReminder, listReminders, removeReminder } from './reminders.js';
export {
  deliverDueScheduledMessages,
  editScheduledMessage,
  listScheduledMessages,
  removeScheduledMessage,
  scheduleMessage,
} from './scheduled-messages.js';
export { remindersState, scheduledMessagesState } from './state.js';
