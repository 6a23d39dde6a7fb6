/** Unread bookkeeping: register's unread_msgs, events' flags and the muting rules of the counts. */
import { describe, expect, it } from 'vitest';
import type { ChatState, Message, Subscription } from '../../../renderer/src/chat/data/model.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import {
  bookFromRegister,
  countUnread,
  fileFromDetail,
  fileMessage,
  keepUnchanged,
  unreadInTopic,
} from '../../../renderer/src/chat/data/unread.js';

const ME = 1;

function sub(id: number, isMuted = false): Subscription {
  return {
    stream_id: id,
    name: `c${id}`,
    description: '',
    rendered_description: '',
    color: '',
    pin_to_top: false,
    is_muted: isMuted,
    invite_only: false,
    desktop_notifications: null,
  };
}

function makeState(change: (s: ChatState) => void = () => {}): ChatState {
  const state = initialChatState(ME);
  state.subscriptions.set(10, sub(10));
  state.subscriptions.set(20, sub(20, true));
  change(state);
  return state;
}

const raw = {
  streams: [
    { stream_id: 10, topic: 'Lunch', unread_message_ids: [1, 2] },
    { stream_id: 10, topic: 'quiet', unread_message_ids: [3] },
    { stream_id: 20, topic: 'noise', unread_message_ids: [4] },
    { stream_id: 20, topic: 'signal', unread_message_ids: [5] },
    { stream_id: 30, topic: 'left', unread_message_ids: [6] },
  ],
  pms: [{ other_user_id: 2, sender_id: 2, unread_message_ids: [7] }],
  huddles: [{ user_ids_string: '1,2,3', unread_message_ids: [8] }],
  mentions: [2],
  count: 6,
  old_unreads_missing: true,
};

describe('unread counts', () => {
  it('files register data by conversation', () => {
    const book = bookFromRegister(raw, ME);
    expect(book.places.get(7)).toEqual({ kind: 'dm', key: '2' });
    expect(book.places.get(8)).toEqual({ kind: 'dm', key: '2,3' });
    expect(book.places.get(1)).toEqual({ kind: 'channel', channelId: 10, topic: 'Lunch' });
    const counts = countUnread(book, makeState());
    expect(counts.oldUnreadsMissing).toBe(true);
    expect(counts.mentions).toBe(1);
  });

  it('leaves out muted topics, muted channels (but not their unmuted topics) and unsubscribed channels', () => {
    const state = makeState((s) => {
      s.userTopics = [
        { stream_id: 10, topic_name: 'Quiet', visibility_policy: 1, last_updated: 0 },
        { stream_id: 20, topic_name: 'SIGNAL', visibility_policy: 2, last_updated: 0 },
      ];
    });
    const counts = countUnread(bookFromRegister(raw, ME), state);
    expect(counts.channels).toEqual(
      new Map([
        [10, 2],
        [20, 1],
      ]),
    );
    // Topic counts are kept for every topic, muted or not, case-insensitively.
    expect(unreadInTopic(counts, 10, 'quiet')).toBe(1);
    expect(unreadInTopic(counts, 10, 'lunch')).toBe(2);
    expect(unreadInTopic(counts, 30, 'left')).toBe(1);
    expect(counts.directs).toEqual(
      new Map([
        ['2', 1],
        ['2,3', 1],
      ]),
    );
    expect(counts.total).toBe(5);
  });

  it('counts a followed topic of a muted channel and drops DMs of muted users', () => {
    const state = makeState((s) => {
      s.userTopics = [
        { stream_id: 20, topic_name: 'noise', visibility_policy: 3, last_updated: 0 },
      ];
      s.mutedUserIds = new Set([2]);
    });
    const counts = countUnread(bookFromRegister(raw, ME), state);
    expect(counts.channels.get(20)).toBe(1);
    // A 1:1 with a muted user disappears; a group with someone unmuted stays.
    expect(counts.directs.has('2')).toBe(false);
    expect(counts.directs.get('2,3')).toBe(1);
  });

  it('counts wildcard mentions only where not muted, direct mentions always', () => {
    const state = makeState((s) => {
      s.userTopics = [
        { stream_id: 10, topic_name: 'quiet', visibility_policy: 1, last_updated: 0 },
      ];
    });
    const book = bookFromRegister({}, ME);
    const message = (id: number, topic: string, flags: string[]): Message => ({
      id,
      type: 'stream',
      sender_id: 2,
      sender_full_name: '',
      sender_email: '',
      avatar_url: null,
      content: '',
      stream_id: 10,
      subject: topic,
      display_recipient: 'c10',
      timestamp: 0,
      flags,
      reactions: [],
      submessages: [],
    });
    fileMessage(book, message(1, 'quiet', ['stream_wildcard_mentioned', 'wildcard_mentioned']), ME);
    fileMessage(book, message(2, 'loud', ['topic_wildcard_mentioned']), ME);
    fileMessage(book, message(3, 'quiet', ['mentioned']), ME);
    fileMessage(book, message(4, 'loud', ['read', 'mentioned']), ME);
    expect(countUnread(book, state).mentions).toBe(2);
    expect(countUnread(book, state).mentionConversations).toEqual(
      new Set(['channel:10:loud', 'channel:10:quiet']),
    );
    fileMessage(book, message(3, 'quiet', ['mentioned', 'read']), ME);
    expect(countUnread(book, state).mentions).toBe(1);
  });

  it('files messages marked unread from their details', () => {
    const book = bookFromRegister({}, ME);
    fileFromDetail(book, 9, { type: 'private', user_ids: [3, 2] }, ME);
    fileFromDetail(book, 10, { type: 'private', user_ids: [] }, ME);
    fileFromDetail(book, 11, { type: 'stream', stream_id: 10, topic: 't', mentioned: true }, ME);
    const counts = countUnread(book, makeState());
    expect(counts.directs).toEqual(
      new Map([
        ['2,3', 1],
        [String(ME), 1],
      ]),
    );
    expect(counts.mentions).toBe(1);
  });

  it('keeps unchanged maps identical so selectors do not re-render', () => {
    const state = makeState();
    const book = bookFromRegister(raw, ME);
    const first = countUnread(book, state);
    expect(keepUnchanged(first, countUnread(book, state))).toBe(first);
    book.places.delete(7);
    const second = keepUnchanged(first, countUnread(book, state));
    expect(second).not.toBe(first);
    expect(second.channels).toBe(first.channels);
    expect(second.topics).toBe(first.topics);
    expect(second.directs).not.toBe(first.directs);
  });
});
