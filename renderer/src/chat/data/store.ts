import type { ZulipApi } from './api.js';
import type { ChatStore } from './model.js';

/**
 * The chat's store: registers an event queue, applies events, keeps the
 * unread counts and the feed's message list, and re-registers when the
 * queue is lost. STUB: replaced by the data-layer implementation.
 */
export function createChatStore(_api: ZulipApi): ChatStore {
  throw new Error('createChatStore: not implemented yet');
}
