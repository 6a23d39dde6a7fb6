import type { StateProvider } from './types.js';

/**
 * max_message_id, unread_msgs, starred_messages, recent_private_conversations,
 * user_topics and muted_topics.
 */
export const messageStateProviders: StateProvider[] = [];
