import type { AppContext } from '../core/context.js';
import { newestReceivedMessageId, starredMessageIds } from '../db/queries/flags.js';
import { dmGroupMemberIds } from '../db/queries/messages.js';
import { recentDmConversations } from '../db/queries/recent-conversations.js';
import { mutedTopicsList, userTopicsInActiveChannels } from '../db/queries/user-topics.js';
import type { StateOptions, StateProvider } from '../events/state-provider.js';
import { unreadMsgs } from '../flags/index.js';
import { loadRealm } from '../shared/realm.js';

/** The empty topic's name for this client: itself with the capability, else the display name. */
const emptyTopicNameFor = (ctx: AppContext, options: StateOptions) =>
  options.capabilities.empty_topic_name ? null : loadRealm(ctx).settings.empty_topic_display_name;

const maxMessageIdState: StateProvider = {
  fetchTypes: ['message'],
  fetch: (ctx, user) => ({ max_message_id: newestReceivedMessageId(ctx.db, user.id) }),
};

const unreadMsgsState: StateProvider = {
  fetchTypes: ['message', 'update_message_flags'],
  requiresAll: true,
  fetch: (ctx, user, options) => ({
    unread_msgs: unreadMsgs(ctx.db, user.id, { emptyTopicName: emptyTopicNameFor(ctx, options) }),
  }),
};

const starredMessagesState: StateProvider = {
  fetchTypes: ['starred_messages'],
  fetch: (ctx, user) => ({ starred_messages: starredMessageIds(ctx.db, user.id) }),
};

const recentPrivateConversationsState: StateProvider = {
  fetchTypes: ['recent_private_conversations'],
  fetch: (ctx, user) => ({
    recent_private_conversations: recentDmConversations(ctx.db, user.id).map((c) => ({
      max_message_id: c.max_message_id,
      user_ids: dmGroupMemberIds(ctx.db, c.dm_group_id).filter((id) => id !== user.id),
    })),
  }),
};

const userTopicsState: StateProvider = {
  fetchTypes: ['user_topic'],
  fetch: (ctx, user, options) => {
    const emptyName = emptyTopicNameFor(ctx, options);
    return {
      user_topics: userTopicsInActiveChannels(ctx.db, user.id).map((row) => ({
        stream_id: row.stream_id,
        topic_name: row.topic_name === '' && emptyName !== null ? emptyName : row.topic_name,
        last_updated: row.last_updated,
        visibility_policy: row.visibility_policy,
      })),
    };
  },
};

/** Deprecated, but zulip-terminal fetches it; every entry has three elements. */
const mutedTopicsState: StateProvider = {
  fetchTypes: ['muted_topics'],
  fetch: (ctx, user, options) => ({
    muted_topics: mutedTopicsList(ctx.db, user.id, emptyTopicNameFor(ctx, options)),
  }),
};

/**
 * max_message_id, unread_msgs, starred_messages, recent_private_conversations,
 * user_topics and muted_topics.
 */
export const messageStateProviders: StateProvider[] = [
  maxMessageIdState,
  unreadMsgsState,
  starredMessagesState,
  recentPrivateConversationsState,
  userTopicsState,
  mutedTopicsState,
];
