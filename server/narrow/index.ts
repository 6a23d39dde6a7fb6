/**
 * Which messages a user may see and which match a narrow: message access,
 * narrow parsing (both wire forms), resolution against the database, the
 * message window around an anchor (GET /messages, POST /messages/flags/narrow),
 * matching given ids (matches_narrow), the register-narrow filter for message
 * events, and search highlighting.
 */
export {
  accessMessage,
  canAccessMessage,
  channelMessageHolders,
  hasReceived,
  invalidMessage,
  usersWithMessageAccess,
  usersWithMetadataAccess,
} from './access.js';
export { messageEventMatchesNarrow, narrowQueueFilter } from './event-filter.js';
export type { NarrowTerm } from './narrow.js';
export {
  checkAnchorExclusion,
  fetchMessageWindow,
  messageMatchesNarrow,
  messagesMatchingNarrow,
  nearOfNarrow,
  searchOfNarrow,
} from './narrow.js';
export type { Anchor } from './parse.js';
export { parseAnchor, parseNarrow } from './parse.js';
export type { SearchQuery } from './search-highlight.js';
export { highlightContent, highlightTopic } from './search-highlight.js';
export { indexSearchBacklog } from './search-indexing.js';
