import { newestReceivedMessageId, starredMessageIds } from '../db/queries/flags.js';
import type { StateProvider } from '../events/state-provider.js';
import { emptyTopicReplacement } from '../shared/topics.js';
import { unreadMsgs } from './unread.js';

const maxMessageIdState: StateProvider = {
  fetchTypes: ['message'],
  fetch: (ctx, user) => ({ max_message_id: newestReceivedMessageId(ctx.db, user.id) }),
};

const unreadMsgsState: StateProvider = {
  fetchTypes: ['message', 'update_message_flags'],
  requiresAll: true,
  fetch: (ctx, user, options) => ({
    unread_msgs: unreadMsgs(ctx.db, user.id, {
      emptyTopicName: emptyTopicReplacement(ctx, options.capabilities.empty_topic_name),
    }),
  }),
};

const starredMessagesState: StateProvider = {
  fetchTypes: ['starred_messages'],
  fetch: (ctx, user) => ({ starred_messages: starredMessageIds(ctx.db, user.id) }),
};

/** max_message_id, unread_msgs and starred_messages. */
export const flagStateProviders: StateProvider[] = [
  maxMessageIdState,
  unreadMsgsState,
  starredMessagesState,
];
