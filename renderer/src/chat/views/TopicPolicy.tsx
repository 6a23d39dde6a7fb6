import { isTopicMuted, topicPolicy } from '../data/narrow.js';
import { useChat } from '../data/store-context.js';
import { Icon } from './Icon.js';

/** How a topic is shown: muted (dimmed, its count greyed), followed (marked), or as any other. */
export type TopicLook = 'muted' | 'followed' | null;

/** The look of a topic for this user, from their visibility policies and the channel's muting. */
export function useTopicLook(channelId: number, topic: string): TopicLook {
  return useChat((s) => {
    if (topicPolicy(s, channelId, topic) === 3) return 'followed';
    return isTopicMuted(s, channelId, topic) ? 'muted' : null;
  });
}

/** The class a topic's row takes for its look (chat.css styles them). */
export const topicLookClass = (look: TopicLook) => (look === null ? '' : ` topic-${look}`);

/** A muted topic's or a followed topic's mark beside its name, as Zulip's sidebar has them. */
export function TopicPolicyMark({ look }: { look: TopicLook }) {
  if (look === null) return null;
  const label = look === 'muted' ? 'Muted topic' : 'Followed topic';
  return (
    <span className="topic-policy-mark" title={label}>
      <Icon name={look === 'muted' ? 'muted' : 'followed'} size={14} />
      <span className="visually-hidden"> ({label.toLowerCase()})</span>
    </span>
  );
}
