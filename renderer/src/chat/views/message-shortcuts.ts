/**
 * What the keyboard shortcuts on the selected message decide, in Zulip's
 * terms (web/src/hotkey.ts): which way `Shift+M` turns a topic, where `s`
 * goes, what `Shift+R` and `@` write to, `+` on the thumbs-up, which
 * pictures `v` shows. Pure apart from reading HTML; unit-tested in node.
 */
import { Policy, topicPolicy } from '../channels/channel-model.js';
import type { ChatState, ComposeTarget, Message, Narrow, VisibilityPolicy } from '../data/model.js';
import { dmParticipants } from './feed/conversation.js';
import { channelAndTopicOf, channelNarrow, dmNarrow, topicNarrow } from './narrows.js';

/**
 * `Shift+M` (Zulip's toggle_topic_visibility_policy): a muted or unmuted
 * topic goes back to its channel's default; otherwise a topic is muted,
 * or, in a muted channel, unmuted. Null for a DM or a channel one has left.
 */
export function toggledTopicPolicy(message: Message, state: ChatState): VisibilityPolicy | null {
  if (message.type !== 'stream' || message.stream_id === undefined) return null;
  const sub = state.subscriptions.get(message.stream_id);
  if (!sub) return null;
  const current = topicPolicy(state.userTopics, message.stream_id, message.subject);
  if (current === Policy.muted || current === Policy.unmuted) return Policy.inherit;
  return sub.is_muted ? Policy.unmuted : Policy.muted;
}

/**
 * `s` (Zulip's toggle_conversation_view): from the message's topic to its
 * channel, from anywhere else to its topic; a DM to its conversation.
 */
export function conversationNarrow(
  message: Message,
  current: Narrow | null,
  ownUserId: number,
): Narrow {
  if (message.type !== 'stream' || message.stream_id === undefined) {
    return dmNarrow(dmParticipants(message, ownUserId), ownUserId);
  }
  const { channelId, topic } = current
    ? channelAndTopicOf(current)
    : { channelId: null, topic: null };
  const inTopic =
    channelId === message.stream_id &&
    topic !== null &&
    topic.toLowerCase() === message.subject.toLowerCase();
  return inTopic
    ? channelNarrow(message.stream_id)
    : topicNarrow(message.stream_id, message.subject);
}

/** `Shift+R` (Zulip's respond_to_author): a DM to the sender (to oneself for one's own). */
export function authorTarget(message: Message): ComposeTarget {
  return { kind: 'direct', userIds: [message.sender_id] };
}

/** Zulip's thumbs-up (`+`): the name its emoji data gives code 1f44d. */
export const THUMBS_UP = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };

/** Whether `+` takes one's thumbs-up back (one gave it already) or gives it. */
export function hasOwnThumbsUp(message: Message, ownUserId: number): boolean {
  return message.reactions.some(
    (r) =>
      r.user_id === ownUserId &&
      r.reaction_type === 'unicode_emoji' &&
      r.emoji_code === THUMBS_UP.emoji_code,
  );
}

export interface MessageImage {
  /** The picture itself (the link around the preview). */
  url: string;
  /** The preview the message shows (a thumbnail), or the picture. */
  preview: string;
  title: string;
}

/** The pictures a message previews (Zulip's `.message_inline_image`), in order: what `v` shows. */
export function messageImages(html: string): MessageImage[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const images: MessageImage[] = [];
  for (const box of Array.from(doc.querySelectorAll('.message_inline_image'))) {
    const link = box.querySelector('a');
    const img = box.querySelector('img');
    const url = link?.getAttribute('href') ?? img?.getAttribute('src');
    if (!url) continue;
    images.push({
      url,
      preview: img?.getAttribute('data-original') ?? img?.getAttribute('src') ?? url,
      title: link?.getAttribute('title') ?? img?.getAttribute('alt') ?? '',
    });
  }
  return images;
}
