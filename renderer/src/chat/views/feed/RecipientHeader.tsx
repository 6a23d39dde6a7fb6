import { TopicMenu } from '../../channels/TopicMenu.js';
import type { Message } from '../../data/model.js';
import { useChat, useChatStore } from '../../data/store-context.js';
import { channelNarrow, dmNarrow, topicNarrow } from '../narrows.js';
import { hashFor } from '../routing.js';
import { TopicName } from '../TopicName.js';
import { TopicPolicyMark, useTopicLook } from '../TopicPolicy.js';
import { formatDay } from '../time.js';
import { dmParticipants, participantNames } from './conversation.js';
import { highlightedTopic } from './search-highlight.js';

/** The bar above a run of one conversation: "#general > lunch" or the DM's people, and the day. */
export function RecipientHeader({
  message,
  keywordSearch = false,
}: {
  message: Message;
  /** In a keyword search the topic's matches are highlighted (`match_subject`). */
  keywordSearch?: boolean;
}) {
  // Narrow selections: a header re-renders when names or colours change, not on every event.
  const subscriptions = useChat((s) => s.subscriptions);
  const channels = useChat((s) => s.channels);
  const users = useChat((s) => s.users);
  const ownUserId = useChat((s) => s.ownUserId);
  const state = useChatStore().getState();
  const day = formatDay(message.timestamp);
  if (message.type === 'stream' && message.stream_id !== undefined) {
    const channelId = message.stream_id;
    const channelName =
      subscriptions.get(channelId)?.name ??
      channels.get(channelId)?.name ??
      (typeof message.display_recipient === 'string' ? message.display_recipient : 'unknown');
    const color = subscriptions.get(channelId)?.color;
    const highlighted = highlightedTopic(message, keywordSearch);
    return (
      <div className="recipient-header channel" style={color ? { borderLeftColor: color } : {}}>
        <h3 className="recipient-title">
          <a href={hashFor(channelNarrow(channelId), state)} className="recipient-channel">
            #{channelName}
          </a>
          <span className="recipient-separator" aria-hidden="true">
            {' > '}
          </span>
          <span className="visually-hidden"> topic </span>
          <a href={hashFor(topicNarrow(channelId, message.subject), state)}>
            {highlighted !== null ? (
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's escaped topic with its highlight spans
              <span dangerouslySetInnerHTML={{ __html: highlighted }} />
            ) : (
              <TopicName topic={message.subject} />
            )}
          </a>
        </h3>
        <HeaderTopicMark channelId={channelId} topic={message.subject} />
        <TopicMenu channelId={channelId} topic={message.subject} />
        <span className="recipient-day">{day}</span>
      </div>
    );
  }
  const others = dmParticipants(message, ownUserId);
  return (
    <div className="recipient-header direct">
      <h3 className="recipient-title">
        <a href={hashFor(dmNarrow(others, ownUserId), state)}>
          You and {participantNames(others, users)}
        </a>
      </h3>
      <span className="recipient-day">{day}</span>
    </div>
  );
}

function HeaderTopicMark({ channelId, topic }: { channelId: number; topic: string }) {
  return <TopicPolicyMark look={useTopicLook(channelId, topic)} />;
}
