/** Scheduled messages: create, edit, list, delete and delivery. */
export {
  deliverDueScheduledMessages,
  editScheduledMessage,
  listScheduledMessages,
  removeScheduledMessage,
  scheduleMessage,
} from './scheduled-messages.js';
export { scheduledMessagesState } from './state.js';
