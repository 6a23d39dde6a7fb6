import { useEffect, useMemo, useState } from 'react';
import { ChannelMenu } from '../../channels/ChannelMenu.js';
import { TopicMenu } from '../../channels/TopicMenu.js';
import type { Subscription } from '../../data/model.js';
import { useChat, useChatActions, useChatStore } from '../../data/store-context.js';
import { groupChannels } from '../channel-order.js';
import { channelNarrow, topicNarrow } from '../narrows.js';
import { hashFor } from '../routing.js';
import { TopicName } from '../TopicName.js';
import { TopicPolicyMark, topicLookClass, useTopicLook } from '../TopicPolicy.js';
import { topicUnread } from '../unread.js';
import { UnreadCount } from './UnreadCount.js';

interface ChannelListProps {
  currentHash: string;
  /** The channel the feed shows: its topics are listed without asking. */
  activeChannelId: number | null;
  onBrowse: () => void;
}

export function ChannelList({ currentHash, activeChannelId, onBrowse }: ChannelListProps) {
  const subscriptions = useChat((s) => s.subscriptions);
  const folders = useChat((s) => s.channelFolders);
  const byFolder = useChat((s) => s.settings.web_left_sidebar_show_channel_folders !== false);
  const sections = useMemo(
    () => groupChannels(subscriptions.values(), folders, byFolder),
    [subscriptions, folders, byFolder],
  );
  const sorted = sections.flatMap((section) => section.channels);
  const pinnedCount = sorted.filter((s) => s.pin_to_top).length;
  return (
    <section className="sidebar-section" aria-labelledby="channels-heading">
      <div className="sidebar-heading">
        <h2 id="channels-heading">Channels</h2>
        <button type="button" className="link-button" onClick={onBrowse}>
          Browse channels
        </button>
      </div>
      {sorted.length === 0 ? (
        <p className="sidebar-empty">You are not subscribed to any channels.</p>
      ) : (
        sections.map((section) => {
          const list = (
            <ul className="sidebar-list">
              {section.channels.map((subscription) => (
                <ChannelItem
                  key={subscription.stream_id}
                  subscription={subscription}
                  currentHash={currentHash}
                  active={subscription.stream_id === activeChannelId}
                  lastPinned={
                    section.title === null &&
                    sorted.indexOf(subscription) === pinnedCount - 1 &&
                    pinnedCount < sorted.length
                  }
                />
              ))}
            </ul>
          );
          if (section.title === null) return <div key="all">{list}</div>;
          const headingId = `channel-folder-${section.folder?.id ?? section.title.replace(/\W+/g, '-')}`;
          return (
            // A titled group of links in the sidebar, not a form: no fieldset.
            // biome-ignore lint/a11y/useSemanticElements: see above
            <div
              key={headingId}
              className="channel-folder"
              role="group"
              aria-labelledby={headingId}
            >
              <h3 id={headingId} className="channel-folder-heading">
                {section.title}
              </h3>
              {list}
            </div>
          );
        })
      )}
    </section>
  );
}

/** Topics shown before "more topics": Zulip's sidebar keeps the list short too. */
const TOPICS_SHOWN = 8;

function ChannelItem({
  subscription,
  currentHash,
  active,
  lastPinned,
}: {
  subscription: Subscription;
  currentHash: string;
  active: boolean;
  lastPinned: boolean;
}) {
  const id = subscription.stream_id;
  const actions = useChatActions();
  const unread = useChat((s) => s.unread.channels.get(id));
  const [expandedByUser, setExpanded] = useState(false);
  const expanded = expandedByUser || active;
  const state = useChatStore().getState();
  const hash = hashFor(channelNarrow(id), state);
  const toggle = () => {
    if (!expanded) actions.loadTopics(id);
    setExpanded(!expanded);
  };
  const classes = ['channel-item', subscription.is_muted && 'muted', lastPinned && 'last-pinned'];
  return (
    <li className={classes.filter(Boolean).join(' ')}>
      <div className="sidebar-row">
        <button
          type="button"
          className="expand-button"
          aria-expanded={expanded}
          aria-label={`${expanded ? 'Hide' : 'Show'} topics of ${subscription.name}`}
          onClick={toggle}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
        </button>
        <a
          href={hash}
          className="sidebar-link"
          aria-current={currentHash === hash ? 'page' : undefined}
        >
          <span
            className="channel-swatch"
            style={{ backgroundColor: subscription.color }}
            aria-hidden="true"
          >
            {subscription.invite_only ? '∗' : '#'}
          </span>
          <span className="sidebar-label">{subscription.name}</span>
          {subscription.invite_only && <span className="visually-hidden"> (private)</span>}
          {subscription.is_muted && <span className="visually-hidden"> (muted)</span>}
          <UnreadCount count={unread} />
        </a>
        <ChannelMenu channelId={id} />
      </div>
      {expanded && <TopicList channelId={id} currentHash={currentHash} active={active} />}
    </li>
  );
}

function TopicList({
  channelId,
  currentHash,
  active,
}: {
  channelId: number;
  currentHash: string;
  active: boolean;
}) {
  const actions = useChatActions();
  const topics = useChat((s) => s.topics.get(channelId));
  const unreadTopics = useChat((s) => s.unread.topics.get(channelId));
  const [showAll, setShowAll] = useState(false);
  const state = useChatStore().getState();
  const missing = topics === undefined;
  // The active channel opens without a click: fetch its topics then.
  useEffect(() => {
    if (active && missing) actions.loadTopics(channelId);
  }, [active, missing, channelId, actions]);
  if (topics === undefined) return <p className="sidebar-empty topic-item">Loading topics…</p>;
  if (topics.length === 0) return <p className="sidebar-empty topic-item">No topics yet.</p>;
  // Past the first few, only topics with something unread stay (as in Zulip).
  const shown = showAll
    ? topics
    : topics.filter((t, i) => i < TOPICS_SHOWN || topicUnread(unreadTopics, t.name) > 0);
  return (
    <ul className="topic-list">
      {shown.map((topic) => (
        <TopicItem
          key={topic.name}
          channelId={channelId}
          topic={topic.name}
          hash={hashFor(topicNarrow(channelId, topic.name), state)}
          currentHash={currentHash}
          unread={topicUnread(unreadTopics, topic.name)}
        />
      ))}
      {shown.length < topics.length || showAll ? (
        <li className="topic-item">
          <button type="button" className="link-button" onClick={() => setShowAll(!showAll)}>
            {showAll ? 'Fewer topics' : 'More topics'}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/** One topic of the list; a muted one dimmed with a grey count, a followed one marked. */
function TopicItem({
  channelId,
  topic,
  hash,
  currentHash,
  unread,
}: {
  channelId: number;
  topic: string;
  hash: string;
  currentHash: string;
  unread: number;
}) {
  const look = useTopicLook(channelId, topic);
  return (
    <li className={`topic-item${topicLookClass(look)}`}>
      <div className="sidebar-row">
        <a
          href={hash}
          className="sidebar-link"
          aria-current={currentHash === hash ? 'page' : undefined}
        >
          <span className="sidebar-label">
            <TopicName topic={topic} />
          </span>
          <TopicPolicyMark look={look} />
          <UnreadCount count={unread} />
        </a>
        <TopicMenu channelId={channelId} topic={topic} />
      </div>
    </li>
  );
}
