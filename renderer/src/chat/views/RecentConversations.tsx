import { useMemo } from 'react';
import { TopicMenu } from '../channels/TopicMenu.js';
import type { ChatState } from '../data/model.js';
import { useChat, useChatStore } from '../data/store-context.js';
import { conversationKey, dmParticipants, participantNames } from './feed/conversation.js';
import { dmNarrow, topicNarrow } from './narrows.js';
import { hashFor } from './routing.js';
import { UnreadCount } from './sidebar/UnreadCount.js';
import { formatAgo } from './time.js';
import { topicUnread } from './unread.js';

interface RecentConversation {
  key: string;
  channelId: number | null;
  topic: string;
  userIds: number[];
  lastId: number;
  lastTimestamp: number;
  /** Who spoke, most recent first. */
  senders: number[];
}

/** Conversations from the messages the tab has, most recently active first. */
export function recentConversations(
  messages: ChatState['messages'],
  ownUserId: number,
): RecentConversation[] {
  const byKey = new Map<string, RecentConversation>();
  const sorted = [...messages.values()].sort((a, b) => b.id - a.id);
  for (const message of sorted) {
    if (message.local_id !== undefined) continue;
    const key = conversationKey(message);
    let conversation = byKey.get(key);
    if (!conversation) {
      conversation = {
        key,
        channelId: message.type === 'stream' ? (message.stream_id ?? null) : null,
        topic: message.subject,
        userIds: message.type === 'private' ? dmParticipants(message, ownUserId) : [],
        lastId: message.id,
        lastTimestamp: message.timestamp,
        senders: [],
      };
      byKey.set(key, conversation);
    }
    if (!conversation.senders.includes(message.sender_id))
      conversation.senders.push(message.sender_id);
  }
  return [...byKey.values()];
}

/** Zulip's Recent conversations: one row per topic or DM, newest activity first. */
export function RecentConversations() {
  const messages = useChat((s) => s.messages);
  const subscriptions = useChat((s) => s.subscriptions);
  const channels = useChat((s) => s.channels);
  const unread = useChat((s) => s.unread);
  const users = useChat((s) => s.users);
  const ownUserId = useChat((s) => s.ownUserId);
  const state = useChatStore().getState();
  const conversations = useMemo(
    () => recentConversations(messages, ownUserId),
    [messages, ownUserId],
  );
  return (
    <section className="conversation-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">Recent conversations</h1>
      </header>
      {conversations.length === 0 ? (
        <p className="feed-status" role="status">
          No conversations yet.
        </p>
      ) : (
        <div className="conversation-scroll">
          <ul className="conversation-list recent-list">
            {conversations.map((c) => {
              const channelName =
                c.channelId === null
                  ? null
                  : (subscriptions.get(c.channelId)?.name ??
                    channels.get(c.channelId)?.name ??
                    '?');
              const count =
                c.channelId === null
                  ? (unread.directs.get(c.userIds.join(',')) ?? 0)
                  : topicUnread(unread.topics.get(c.channelId), c.topic);
              const hash =
                c.channelId === null
                  ? hashFor(dmNarrow(c.userIds, ownUserId), state)
                  : hashFor(topicNarrow(c.channelId, c.topic), state);
              return (
                <li key={c.key} className="conversation-row">
                  <span className="recent-where">
                    {channelName === null ? 'Direct message' : `#${channelName}`}
                  </span>
                  <a href={hash} className="recent-what">
                    {channelName === null
                      ? participantNames(c.userIds, users)
                      : c.topic === ''
                        ? 'general chat'
                        : c.topic}
                  </a>
                  <UnreadCount count={count} />
                  <span className="recent-who">
                    {participantNames(c.senders.slice(0, 3), users)}
                  </span>
                  <span className="recent-when">{formatAgo(c.lastTimestamp)}</span>
                  {c.channelId !== null && <TopicMenu channelId={c.channelId} topic={c.topic} />}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}
