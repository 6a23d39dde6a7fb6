/** Per-user message flags: bits to sparse rows (the only writer), read watermarks, unread counts, POST /messages/flags, /flags/narrow and mark-as-read. */
export {
  markAllAsRead,
  markMessagesFromSenderRead,
  markStreamAsRead,
  markTopicAsRead,
} from './mark-read.js';
export {
  currentFlags,
  flagRowsOf,
  forgetMessageFlags,
  forgetUserFlags,
  MENTION_BITS,
  markHistorical,
  storeNewMessageFlags,
  storeUserFlags,
} from './overrides.js';
export { overrideRowsForMessages, writeImportedFlagRow } from './portable.js';
export { readReceipts } from './read-receipts.js';
export { markConversationRead } from './read-state.js';
export { FlagReader } from './reader.js';
export { flagStateProviders } from './state.js';
export { unreadMsgs } from './unread.js';
export { updateMessageFlags, updateMessageFlagsForNarrow } from './update.js';
