import { useMemo } from 'react';
import { TopicMenu } from '../channels/TopicMenu.js';
import { isTopicMuted } from '../data/narrow.js';
import { useChat, useChatStore } from '../data/store-context.js';
import { sortChannels } from './channel-order.js';
import { participantNames } from './feed/conversation.js';
import { channelNarrow, dmNarrow, topicNarrow } from './narrows.js';
import { hashFor } from './routing.js';
import { directConversations } from './sidebar/DirectList.js';
import { UnreadCount } from './sidebar/UnreadCount.js';
import { TopicName } from './TopicName.js';
import { TopicPolicyMark, topicLookClass, useTopicLook } from './TopicPolicy.js';

/** Zulip's Inbox: every conversation with unread messages, DMs first, then by channel. */
export function Inbox() {
  const unread = useChat((s) => s.unread);
  const subscriptions = useChat((s) => s.subscriptions);
  const recent = useChat((s) => s.recent);
  const users = useChat((s) => s.users);
  const ownUserId = useChat((s) => s.ownUserId);
  const userTopics = useChat((s) => s.userTopics);
  const state = useChatStore().getState();
  const directs = useMemo(
    () => directConversations(unread.directs, recent, ownUserId).filter((c) => c.unread > 0),
    [unread.directs, recent, ownUserId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` is read for muting, which `subscriptions` and `userTopics` stand for
  const channels = useMemo(
    () =>
      sortChannels(subscriptions.values())
        .map((subscription) => ({
          subscription,
          count: unread.channels.get(subscription.stream_id) ?? 0,
          topics: [...(unread.topics.get(subscription.stream_id) ?? new Map<string, number>())]
            // Muted topics (and a muted channel's) stay out of the Inbox, as in Zulip.
            .filter(
              ([topic, count]) => count > 0 && !isTopicMuted(state, subscription.stream_id, topic),
            )
            .sort(([a], [b]) => a.localeCompare(b)),
        }))
        .filter((c) => c.topics.length > 0),
    [subscriptions, unread, userTopics],
  );

  return (
    <section className="conversation-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 id="view-title">Inbox</h1>
      </header>
      {directs.length === 0 && channels.length === 0 ? (
        <p className="feed-status" role="status">
          There are no unread messages in your inbox.
        </p>
      ) : (
        <div className="conversation-scroll">
          {directs.length > 0 && (
            <section className="inbox-group" aria-labelledby="inbox-dms">
              <h2 id="inbox-dms" className="inbox-group-title">
                Direct messages
              </h2>
              <ul className="conversation-list">
                {directs.map((c) => (
                  <li key={c.key} className="conversation-row">
                    <a href={hashFor(dmNarrow(c.userIds, ownUserId), state)}>
                      {participantNames(c.userIds, users)}
                    </a>
                    <UnreadCount count={c.unread} />
                  </li>
                ))}
              </ul>
            </section>
          )}
          {channels.map(({ subscription, count, topics }) => {
            const id = subscription.stream_id;
            return (
              <section
                key={id}
                className="inbox-group"
                aria-labelledby={`inbox-channel-${id}`}
                style={{ borderLeftColor: subscription.color }}
              >
                <h2 id={`inbox-channel-${id}`} className="inbox-group-title">
                  <a href={hashFor(channelNarrow(id), state)}>#{subscription.name}</a>
                  <UnreadCount count={count} />
                </h2>
                <ul className="conversation-list">
                  {topics.map(([topic, topicCount]) => (
                    <InboxTopic
                      key={topic}
                      channelId={id}
                      topic={topic}
                      count={topicCount}
                      hash={hashFor(topicNarrow(id, topic), state)}
                    />
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}

function InboxTopic({
  channelId,
  topic,
  count,
  hash,
}: {
  channelId: number;
  topic: string;
  count: number;
  hash: string;
}) {
  const look = useTopicLook(channelId, topic);
  return (
    <li className={`conversation-row${topicLookClass(look)}`}>
      <a href={hash} className="topic-link">
        <TopicName topic={topic} />
      </a>
      <TopicPolicyMark look={look} />
      <UnreadCount count={count} />
      <TopicMenu channelId={channelId} topic={topic} />
    </li>
  );
}
