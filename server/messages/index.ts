export { parseRecipientList } from './addressee.js';
export { normalizeContent } from './content.js';
export { deleteMessage } from './delete.js';
export { updateMessage } from './edit.js';
export { getMessage, getMessages, matchesNarrow } from './fetch.js';
export { getMessageHistory } from './history.js';
export { renderPreview } from './render-preview.js';
export type { SendInput } from './send.js';
export {
  deliverMessage,
  prepareMessage,
  sendMessage,
  userForEmail,
} from './send.js';
export { recentPrivateConversationsState } from './state.js';
