import { dmGroupMemberIds } from '../db/queries/messages.js';
import { recentDmConversations } from '../db/queries/recent-conversations.js';
import type { StateProvider } from '../events/state-provider.js';

/** recent_private_conversations: the user's direct-message conversations, newest first. */
export const recentPrivateConversationsState: StateProvider = {
  fetchTypes: ['recent_private_conversations'],
  fetch: (ctx, user) => ({
    recent_private_conversations: recentDmConversations(ctx.db, user.id).map((c) => ({
      max_message_id: c.max_message_id,
      user_ids: dmGroupMemberIds(ctx.db, c.dm_group_id).filter((id) => id !== user.id),
    })),
  }),
};
