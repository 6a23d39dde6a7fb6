/**
 * Messages: sending (recipients, mentions, delivery), editing and moving,
 * deleting (also whole topics), fetching with narrows, edit history, message dicts and events, widget submessages.
 */
export type { MessageTarget } from './addressee.js';
export { parseJsonExactIntegers, parseRecipientList } from './addressee.js';
export { normalizeContent } from './content.js';
export { deleteMessage } from './delete.js';
export { deleteTopic } from './delete-topic.js';
export { updateMessage } from './edit.js';
export { checkCanEditContent } from './edit-plan.js';
export { getMessage, getMessages, matchesNarrow } from './fetch.js';
export { getMessageHistory } from './history.js';
export { userForEmail } from './recipients.js';
export { renderPreview } from './render-preview.js';
export type { ReportType } from './report.js';
export { REPORT_REASONS, reportMessage } from './report.js';
export type { MessageRequest, SendInput } from './send.js';
export {
  deliverMessage,
  prepareMessage,
  sendInternalChannelMessage,
  sendInternalDirectMessage,
  sendMessage,
} from './send.js';
export { recentPrivateConversationsState } from './state.js';
export type { SubmessageInput } from './submessage.js';
export { addSubmessage } from './submessage.js';
