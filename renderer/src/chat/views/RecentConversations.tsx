import { useMemo } from 'react';
import { TopicMenu } from '../channels/TopicMenu.js';
import { dmKey, isTopicMuted } from '../data/narrow.js';
import { useChat, useChatStore } from '../data/store-context.js';
import { participantNames } from './feed/conversation.js';
import { dmNarrow, topicNarrow } from './narrows.js';
import { hashFor } from './routing.js';
import { UnreadCount } from './sidebar/UnreadCount.js';
import { TopicName } from './TopicName.js';
import { formatAgo } from './time.js';
import { topicUnread } from './unread.js';

/** Zulip's Recent conversations: one row per topic or DM, newest activity first. */
export function RecentConversations() {
  const recent = useChat((s) => s.recent);
  const userTopics = useChat((s) => s.userTopics);
  const loaded = useChat((s) => s.recentLoaded);
  const messages = useChat((s) => s.messages);
  const subscriptions = useChat((s) => s.subscriptions);
  const channels = useChat((s) => s.channels);
  const unread = useChat((s) => s.unread);
  const users = useChat((s) => s.users);
  const ownUserId = useChat((s) => s.ownUserId);
  const state = useChatStore().getState();
  // Muted topics (and a muted channel's) stay out, as in Zulip's default filter.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` is read for muting, which `subscriptions` and `userTopics` stand for
  const conversations = useMemo(
    () =>
      recent.filter(
        (c) => c.channelId === undefined || !isTopicMuted(state, c.channelId, c.topic ?? ''),
      ),
    [recent, subscriptions, userTopics],
  );
  return (
    <section className="conversation-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">Recent conversations</h1>
      </header>
      {conversations.length === 0 ? (
        <p className="feed-status" role="status">
          {loaded ? 'No conversations yet.' : 'Loading…'}
        </p>
      ) : (
        <div className="conversation-scroll">
          <ul className="conversation-list recent-list">
            {conversations.map((c) => {
              const channelId = c.channelId ?? null;
              const topic = c.topic ?? '';
              const userIds = c.userIds ?? [];
              const channelName =
                channelId === null
                  ? null
                  : (subscriptions.get(channelId)?.name ?? channels.get(channelId)?.name ?? '?');
              const count =
                channelId === null
                  ? (unread.directs.get(dmKey(userIds, ownUserId)) ?? 0)
                  : topicUnread(unread.topics.get(channelId), topic);
              const hash =
                channelId === null
                  ? hashFor(dmNarrow(userIds, ownUserId), state)
                  : hashFor(topicNarrow(channelId, topic), state);
              const last = messages.get(c.maxId);
              return (
                <li key={c.key} className="conversation-row">
                  <span className="recent-where">
                    {channelName === null ? 'Direct message' : `#${channelName}`}
                  </span>
                  <a href={hash} className="recent-what">
                    {channelName === null ? (
                      participantNames(userIds, users)
                    ) : (
                      <TopicName topic={topic} />
                    )}
                  </a>
                  <UnreadCount count={count} />
                  <span className="recent-who">
                    {participantNames(c.senderIds.slice(0, 3), users)}
                  </span>
                  <span className="recent-when">{last ? formatAgo(last.timestamp) : ''}</span>
                  {channelId !== null && <TopicMenu channelId={channelId} topic={topic} />}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}
