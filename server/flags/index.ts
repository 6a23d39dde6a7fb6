export { markAllAsRead, markStreamAsRead, markTopicAsRead } from './mark-read.js';
export { currentFlags, MENTION_BITS, storeUserFlags } from './overrides.js';
export { markConversationRead } from './read-state.js';
export { FlagReader } from './reader.js';
export { unreadMsgs } from './unread.js';
export { updateMessageFlags, updateMessageFlagsForNarrow } from './update.js';
