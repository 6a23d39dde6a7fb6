/** What the shortcuts on the selected message decide (views/message-shortcuts.ts), in Zulip's terms. */
import { describe, expect, it } from 'vitest';
import type { ChatState, Message, Subscription } from '../../../renderer/src/chat/data/model.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import {
  authorTarget,
  conversationNarrow,
  hasOwnThumbsUp,
  toggledTopicPolicy,
} from '../../../renderer/src/chat/views/message-shortcuts.js';
import { homeHash } from '../../../renderer/src/chat/views/routes.js';

const ME = 10;

const message = (extra: Partial<Message> = {}): Message => ({
  id: 1,
  type: 'stream',
  sender_id: 2,
  sender_full_name: 'Ann',
  sender_email: 'ann@x.org',
  avatar_url: null,
  content: '<p>x</p>',
  stream_id: 5,
  subject: 'Lunch',
  display_recipient: 'general',
  timestamp: 0,
  flags: [],
  reactions: [],
  submessages: [],
  ...extra,
});

function state(muted = false, policy?: 0 | 1 | 2 | 3): ChatState {
  const s = initialChatState(ME);
  s.subscriptions.set(5, { stream_id: 5, name: 'general', is_muted: muted } as Subscription);
  if (policy !== undefined) {
    s.userTopics = [
      { stream_id: 5, topic_name: 'lunch', visibility_policy: policy, last_updated: 0 },
    ];
  }
  return s;
}

describe('shortcuts on the selected message', () => {
  it('Shift+M mutes a topic, unmutes one in a muted channel, and undoes either', () => {
    expect(toggledTopicPolicy(message(), state())).toBe(1);
    expect(toggledTopicPolicy(message(), state(false, 1))).toBe(0);
    expect(toggledTopicPolicy(message(), state(true))).toBe(2);
    expect(toggledTopicPolicy(message(), state(true, 2))).toBe(0);
    // A followed topic is muted, as Zulip's toggle does.
    expect(toggledTopicPolicy(message(), state(false, 3))).toBe(1);
    expect(toggledTopicPolicy(message({ stream_id: 6 }), state())).toBeNull();
    expect(
      toggledTopicPolicy(message({ type: 'private', stream_id: undefined }), state()),
    ).toBeNull();
  });

  it('s goes to the topic, and from the topic (any case) to the channel; a DM to its conversation', () => {
    const topic = [
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch' },
    ];
    expect(conversationNarrow(message(), [], ME)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'Lunch' },
    ]);
    expect(conversationNarrow(message(), topic, ME)).toEqual([{ operator: 'channel', operand: 5 }]);
    const dm = message({
      type: 'private',
      stream_id: undefined,
      display_recipient: [
        { id: 2, email: 'ann@x.org', full_name: 'Ann' },
        { id: ME, email: 'me@x.org', full_name: 'Me' },
      ],
    });
    expect(conversationNarrow(dm, topic, ME)).toEqual([{ operator: 'dm', operand: [2] }]);
  });

  it('Shift+R writes to the sender; + knows its own thumbs-up', () => {
    expect(authorTarget(message())).toEqual({ kind: 'direct', userIds: [2] });
    const liked = message({
      reactions: [
        { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: ME },
      ],
    });
    expect(hasOwnThumbsUp(liked, ME)).toBe(true);
    expect(hasOwnThumbsUp(liked, 2)).toBe(false);
  });

  it('Esc goes to the home view web_home_view names', () => {
    const s = initialChatState(ME);
    expect(homeHash(s)).toBe('#inbox');
    expect(homeHash({ ...s, settings: { web_home_view: 'recent_topics' } })).toBe('#recent');
    expect(homeHash({ ...s, settings: { web_home_view: 'all_messages' } })).toBe('#feed');
  });
});
