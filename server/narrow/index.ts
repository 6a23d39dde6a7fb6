export {
  accessMessage,
  canAccessMessage,
  channelMessageHolders,
  hasReceived,
  invalidMessage,
  usersWithMessageAccess,
  usersWithMetadataAccess,
} from './access.js';
export type { Anchor, NarrowTerm } from './narrow.js';
export {
  fetchMessageWindow,
  messagesMatchingNarrow,
  narrowQueueFilter,
  nearOfNarrow,
  parseAnchor,
  parseNarrow,
  searchOfNarrow,
} from './narrow.js';
export type { SearchQuery } from './search-highlight.js';
export { highlightContent, highlightTopic } from './search-highlight.js';
