import { type ReactNode, useMemo } from 'react';
import { TopicMenu } from '../channels/TopicMenu.js';
import { dmKey, isTopicMuted, topicPolicy } from '../data/narrow.js';
import { useChat, useChatStore } from '../data/store-context.js';
import { participantNames } from './feed/conversation.js';
import { dmNarrow, topicNarrow } from './narrows.js';
import { hashFor } from './routing.js';
import { UnreadCount } from './sidebar/UnreadCount.js';
import { TopicName } from './TopicName.js';
import { TopicPolicyMark, topicLookClass } from './TopicPolicy.js';
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
                <RecentRow
                  key={c.key}
                  channelId={channelId}
                  topic={topic}
                  where={channelName === null ? 'Direct message' : `#${channelName}`}
                  what={
                    channelName === null ? (
                      participantNames(userIds, users)
                    ) : (
                      <TopicName topic={topic} />
                    )
                  }
                  hash={hash}
                  count={count}
                  who={participantNames(c.senderIds, users)}
                  when={last ? formatAgo(last.timestamp) : ''}
                />
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}

/**
 * One row: every column has its cell, filled or not, so the columns line up
 * down the list (chat.css lays the list out as one grid) and a long list of
 * participants never squeezes out the topic.
 */
function RecentRow({
  channelId,
  topic,
  where,
  what,
  hash,
  count,
  who,
  when,
}: {
  channelId: number | null;
  topic: string;
  where: string;
  what: ReactNode;
  hash: string;
  count: number;
  who: string;
  when: string;
}) {
  const look = useChat((s) =>
    channelId === null ? null : topicPolicy(s, channelId, topic) === 3 ? 'followed' : null,
  );
  return (
    <li className={`conversation-row${topicLookClass(look)}`}>
      <span className="recent-where">{where}</span>
      <span className="recent-what">
        <a href={hash} className="recent-link topic-link">
          {what}
        </a>
        <TopicPolicyMark look={look} />
      </span>
      <span className="recent-count">
        <UnreadCount count={count} />
      </span>
      <span className="recent-who" title={who}>
        {who}
      </span>
      <span className="recent-when">{when}</span>
      <span className="recent-menu">
        {channelId !== null && <TopicMenu channelId={channelId} topic={topic} />}
      </span>
    </li>
  );
}
