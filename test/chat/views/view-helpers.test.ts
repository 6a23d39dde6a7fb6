/**
 * The chat views' pure rules: how the feed groups messages, which view a
 * hash opens, the sidebar's channel order, where n and p go, and which
 * messages notify.
 */
import { describe, expect, it } from 'vitest';
import type { ChatState, Message, Subscription } from '../../../renderer/src/chat/data/model.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import { groupChannels, sortChannels } from '../../../renderer/src/chat/views/channel-order.js';
import { feedRows } from '../../../renderer/src/chat/views/feed/conversation.js';
import { groupsOf } from '../../../renderer/src/chat/views/feed/my-groups.js';
import { notifyChoice } from '../../../renderer/src/chat/views/notifications.js';
import { routeFromHash } from '../../../renderer/src/chat/views/routing.js';
import { directConversations } from '../../../renderer/src/chat/views/sidebar/DirectList.js';
import { formatDay } from '../../../renderer/src/chat/views/time.js';
import {
  narrowUnreadCount,
  nextUnreadDirect,
  nextUnreadTopic,
  topicUnread,
} from '../../../renderer/src/chat/views/unread.js';

const ME = 10;
const T0 = 1_700_000_000;

const channelMessage = (
  id: number,
  sender: number,
  channelId: number,
  topic: string,
  timestamp = T0 + id,
): Message => ({
  id,
  type: 'stream',
  sender_id: sender,
  sender_full_name: `User ${sender}`,
  sender_email: `u${sender}@example.com`,
  avatar_url: null,
  content: '<p>hi</p>',
  stream_id: channelId,
  subject: topic,
  display_recipient: `channel${channelId}`,
  timestamp,
  flags: [],
  reactions: [],
  submessages: [],
});

const dmMessage = (id: number, sender: number, participants: number[]): Message => ({
  ...channelMessage(id, sender, 0, ''),
  type: 'private',
  stream_id: undefined,
  display_recipient: participants.map((p) => ({
    id: p,
    email: `u${p}@example.com`,
    full_name: `User ${p}`,
  })),
});

const subscription = (
  id: number,
  name: string,
  extra: Partial<Subscription> = {},
): Subscription => ({
  stream_id: id,
  name,
  description: '',
  rendered_description: '',
  color: '#76ce90',
  pin_to_top: false,
  is_muted: false,
  invite_only: false,
  desktop_notifications: null,
  ...extra,
});

function stateWith(patch: Partial<ChatState>): ChatState {
  return { ...initialChatState(ME), ...patch };
}

describe('feedRows', () => {
  it('starts a header per conversation run and a name per sender run', () => {
    const messages = new Map(
      [
        channelMessage(1, 1, 5, 'lunch'),
        channelMessage(2, 1, 5, 'Lunch'), // same topic, other case
        channelMessage(3, 2, 5, 'lunch'),
        channelMessage(4, 2, 5, 'dinner'),
        dmMessage(5, 2, [2, ME]),
        dmMessage(6, ME, [ME, 2]),
        dmMessage(7, ME, [ME, 2, 3]),
      ].map((m) => [m.id, m]),
    );
    const rows = feedRows([1, 2, 3, 4, 5, 6, 7], messages);
    expect(rows.map((r) => r.startsConversation)).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
      true,
    ]);
    expect(rows.map((r) => r.startsSenderRun)).toEqual([true, false, true, true, true, true, true]);
  });

  it('breaks a sender run after a long pause or at a new day, and skips unknown ids', () => {
    const messages = new Map(
      [
        channelMessage(1, 1, 5, 'a', T0),
        channelMessage(2, 1, 5, 'a', T0 + 60),
        channelMessage(3, 1, 5, 'a', T0 + 60 + 11 * 60),
        channelMessage(4, 1, 5, 'a', T0 + 3 * 86_400),
      ].map((m) => [m.id, m]),
    );
    const rows = feedRows([1, 2, 99, 3, 4], messages);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => r.startsSenderRun)).toEqual([true, false, true, true]);
    // A new day repeats the header (its date is shown there).
    expect(rows.map((r) => r.startsDay)).toEqual([true, false, false, true]);
    expect(rows[3]!.startsConversation).toBe(true);
  });
});

describe('routeFromHash', () => {
  const state = stateWith({ subscriptions: new Map([[5, subscription(5, 'general')]]) });

  it('knows Zulip’s top-level views and their old names', () => {
    expect(routeFromHash('#inbox', state)).toEqual({ kind: 'inbox' });
    expect(routeFromHash('#recent', state)).toEqual({ kind: 'recent' });
    expect(routeFromHash('#recent_topics', state)).toEqual({ kind: 'recent' });
    expect(routeFromHash('#feed', state)).toEqual({ kind: 'feed', narrow: [] });
    expect(routeFromHash('#all_messages', state)).toEqual({ kind: 'feed', narrow: [] });
  });

  it('opens narrows, and the home view for anything else', () => {
    expect(routeFromHash('#narrow/channel/5-general/topic/lunch', state)).toEqual({
      kind: 'feed',
      narrow: [
        { operator: 'channel', operand: 5 },
        { operator: 'topic', operand: 'lunch' },
      ],
    });
    expect(routeFromHash('', state)).toEqual({ kind: 'inbox' });
    expect(routeFromHash('#settings/profile', state)).toEqual({ kind: 'inbox' });
  });

  it('follows the web_home_view setting at the bare address', () => {
    const recentHome = stateWith({ settings: { web_home_view: 'recent_topics' } });
    expect(routeFromHash('', recentHome)).toEqual({ kind: 'recent' });
    const feedHome = stateWith({ settings: { web_home_view: 'all_messages' } });
    expect(routeFromHash('#', feedHome)).toEqual({ kind: 'feed', narrow: [] });
  });
});

describe('sortChannels', () => {
  it('puts pinned first, then alphabetical without case, and leaves archived out', () => {
    const sorted = sortChannels([
      subscription(1, 'zeta'),
      subscription(2, 'Alpha'),
      subscription(3, 'beta', { pin_to_top: true }),
      subscription(4, 'old', { is_archived: true }),
      subscription(5, 'alpha2', { pin_to_top: true }),
    ]);
    expect(sorted.map((s) => s.name)).toEqual(['alpha2', 'beta', 'Alpha', 'zeta']);
  });
});

describe('next unread (n and p)', () => {
  const unreadState = (patch: Partial<ChatState> = {}) =>
    stateWith({
      subscriptions: new Map([
        [1, subscription(1, 'general')],
        [2, subscription(2, 'random')],
        [3, subscription(3, 'quiet', { is_muted: true })],
      ]),
      unread: {
        total: 5,
        channels: new Map([
          [1, 2],
          [2, 1],
        ]),
        topics: new Map([
          [
            1,
            new Map([
              ['lunch', 1],
              ['dinner', 1],
              ['read', 0],
            ]),
          ],
          [2, new Map([['weekend', 1]])],
          [3, new Map([['noise', 4]])],
        ]),
        directs: new Map([
          ['2', 1],
          ['2,3', 2],
          ['4', 0],
        ]),
        mentions: 0,
      },
      ...patch,
    });

  it('walks unread topics in sidebar order, wrapping, skipping muted ones', () => {
    const state = unreadState();
    expect(nextUnreadTopic(state, null)).toEqual({ channelId: 1, topic: 'dinner' });
    expect(nextUnreadTopic(state, { channelId: 1, topic: 'dinner' })).toEqual({
      channelId: 1,
      topic: 'lunch',
    });
    expect(nextUnreadTopic(state, { channelId: 1, topic: 'LUNCH' })).toEqual({
      channelId: 2,
      topic: 'weekend',
    });
    expect(nextUnreadTopic(state, { channelId: 2, topic: 'weekend' })).toEqual({
      channelId: 1,
      topic: 'dinner',
    });
    // From a topic with nothing unread: the first one.
    expect(nextUnreadTopic(state, { channelId: 1, topic: 'read' })).toEqual({
      channelId: 1,
      topic: 'dinner',
    });
  });

  it('orders a channel’s topics newest first when the store knows them, and skips muted topics', () => {
    const state = unreadState({
      topics: new Map([
        [
          1,
          [
            { name: 'lunch', maxId: 9 },
            { name: 'dinner', maxId: 3 },
          ],
        ],
      ]),
      userTopics: [{ stream_id: 2, topic_name: 'weekend', visibility_policy: 1, last_updated: 0 }],
    });
    expect(nextUnreadTopic(state, null)).toEqual({ channelId: 1, topic: 'lunch' });
    expect(nextUnreadTopic(state, { channelId: 1, topic: 'dinner' })).toEqual({
      channelId: 1,
      topic: 'lunch',
    });
  });

  it('walks unread DM conversations', () => {
    const state = unreadState();
    expect(nextUnreadDirect(state, null)).toBe('2');
    expect(nextUnreadDirect(state, '2')).toBe('2,3');
    expect(nextUnreadDirect(state, '2,3')).toBe('2');
  });

  it('has nowhere to go when the only unread is where you are', () => {
    const state = unreadState({
      unread: {
        total: 1,
        channels: new Map([[2, 1]]),
        topics: new Map([[2, new Map([['weekend', 1]])]]),
        directs: new Map(),
        mentions: 0,
      },
    });
    expect(nextUnreadTopic(state, { channelId: 2, topic: 'weekend' })).toBeNull();
    expect(nextUnreadDirect(state, null)).toBeNull();
  });
});

describe('sidebar helpers', () => {
  it('finds topic counts without case', () => {
    const counts = new Map([['Lunch', 3]]);
    expect(topicUnread(counts, 'Lunch')).toBe(3);
    expect(topicUnread(counts, 'lunch')).toBe(3);
    expect(topicUnread(counts, 'dinner')).toBe(0);
    expect(topicUnread(undefined, 'lunch')).toBe(0);
  });

  it('lists DM conversations newest first, with unread ones the tab has not loaded', () => {
    const conversations = directConversations(
      new Map([
        ['2', 1],
        ['7', 2],
      ]),
      [
        { key: 'dm:2', userIds: [2], maxId: 5, senderIds: [2] },
        { key: 'channel:1:a', channelId: 1, topic: 'a', maxId: 9, senderIds: [2] },
        { key: 'dm:2,3', userIds: [3, 2], maxId: 8, senderIds: [3] },
        { key: 'dm:10', userIds: [ME], maxId: 4, senderIds: [ME] },
      ],
      ME,
    );
    expect(conversations.map((c) => [c.key, c.unread])).toEqual([
      ['2,3', 0],
      ['2', 1],
      ['10', 0],
      ['7', 2],
    ]);
    expect(conversations.find((c) => c.key === '7')!.userIds).toEqual([7]);
  });
});

describe('notifyChoice', () => {
  const shows = (message: Message, patch: Partial<ChatState> = {}) =>
    notifyChoice(message, stateWith(patch));
  const both = { desktop: true, sound: true };
  const none = { desktop: false, sound: false };

  it('notifies DMs and mentions from others that are unread', () => {
    expect(shows(dmMessage(1, 2, [2, ME]))).toEqual(both);
    expect(shows({ ...channelMessage(2, 2, 5, 'a'), flags: ['mentioned'] })).toEqual(both);
    const wildcard = { ...channelMessage(3, 2, 5, 'a'), flags: ['stream_wildcard_mentioned'] };
    expect(shows(wildcard)).toEqual(both);
  });

  it('stays quiet for plain channel messages, your own, read ones and muted senders', () => {
    expect(shows(channelMessage(1, 2, 5, 'a'))).toEqual(none);
    expect(shows(dmMessage(2, ME, [2, ME]))).toEqual(none);
    expect(shows({ ...dmMessage(3, 2, [2, ME]), flags: ['read'] })).toEqual(none);
    expect(shows(dmMessage(4, 2, [2, ME]), { mutedUserIds: new Set([2]) })).toEqual(none);
  });

  it('follows the settings: desktop and sound apart, wildcards, all channel messages', () => {
    const dm = dmMessage(1, 2, [2, ME]);
    expect(shows(dm, { settings: { enable_desktop_notifications: false } })).toEqual({
      desktop: false,
      sound: true,
    });
    expect(shows(dm, { settings: { enable_sounds: false } })).toEqual({
      desktop: true,
      sound: false,
    });
    const wildcard = { ...channelMessage(3, 2, 5, 'a'), flags: ['wildcard_mentioned'] };
    expect(shows(wildcard, { settings: { wildcard_mentions_notify: false } })).toEqual(none);
    const plain = channelMessage(4, 2, 5, 'a');
    expect(shows(plain, { settings: { enable_stream_desktop_notifications: true } })).toEqual({
      desktop: true,
      sound: false,
    });
  });
});

describe('formatDay', () => {
  it('says Today and Yesterday, else the date (with the year when not this one)', () => {
    const now = new Date(2026, 5, 15, 12, 0);
    const at = (d: Date) => d.getTime() / 1000;
    expect(formatDay(at(new Date(2026, 5, 15, 0, 5)), now)).toBe('Today');
    expect(formatDay(at(new Date(2026, 5, 14, 23, 55)), now)).toBe('Yesterday');
    expect(formatDay(at(new Date(2026, 5, 1)), now)).not.toMatch(/2026/);
    expect(formatDay(at(new Date(2025, 5, 1)), now)).toMatch(/2025/);
  });
});

describe('groupsOf', () => {
  const group = (id: number, members: number[], subgroups: number[] = []) => ({
    id,
    name: `g${id}`,
    description: '',
    members,
    direct_subgroup_ids: subgroups,
    is_system_group: false,
  });

  it('finds the groups a user is in, directly or through nested subgroups', () => {
    const groups = new Map(
      [group(1, [ME]), group(2, [3], [1]), group(3, [], [2]), group(4, [3])].map((g) => [g.id, g]),
    );
    expect([...groupsOf(groups, ME)].sort()).toEqual([1, 2, 3]);
    expect([...groupsOf(groups, 3)].sort()).toEqual([2, 3, 4]);
    expect(groupsOf(undefined, ME).size).toBe(0);
  });
});

describe('narrowUnreadCount', () => {
  const state = stateWith({
    subscriptions: new Map([[1, subscription(1, 'general')]]),
    unread: {
      total: 7,
      channels: new Map([[1, 4]]),
      topics: new Map([[1, new Map([['Lunch', 3]])]]),
      directs: new Map([['2,3', 2]]),
      mentions: 1,
    },
  });

  it('reads the counts for the narrows they know', () => {
    expect(narrowUnreadCount([], state)).toBe(7);
    expect(narrowUnreadCount([{ operator: 'channel', operand: 1 }], state)).toBe(4);
    expect(narrowUnreadCount([{ operator: 'stream', operand: 'General' }], state)).toBe(4);
    expect(
      narrowUnreadCount(
        [
          { operator: 'channel', operand: 1 },
          { operator: 'topic', operand: 'lunch' },
        ],
        state,
      ),
    ).toBe(3);
    expect(narrowUnreadCount([{ operator: 'dm', operand: [3, 2] }], state)).toBe(2);
    expect(narrowUnreadCount([{ operator: 'dm', operand: [5] }], state)).toBe(0);
    expect(narrowUnreadCount([{ operator: 'is', operand: 'mentioned' }], state)).toBe(1);
  });

  it('does not guess for other narrows', () => {
    expect(narrowUnreadCount([{ operator: 'search', operand: 'x' }], state)).toBeNull();
    expect(narrowUnreadCount([{ operator: 'is', operand: 'starred' }], state)).toBeNull();
    expect(
      narrowUnreadCount([{ operator: 'channel', operand: 1, negated: true }], state),
    ).toBeNull();
    expect(narrowUnreadCount([{ operator: 'channel', operand: 'nowhere' }], state)).toBeNull();
  });
});

describe('groupChannels', () => {
  const folders = [
    { id: 7, name: 'Engineering', order: 0, is_archived: false },
    { id: 3, name: 'Social', order: 1, is_archived: false },
  ];
  const subs = [
    subscription(1, 'backend', { folder_id: 7 }),
    subscription(2, 'random', { folder_id: 3 }),
    subscription(3, 'announcements', { pin_to_top: true, folder_id: 3 }),
    subscription(4, 'misc', { folder_id: null }),
    subscription(5, 'api', { folder_id: 7 }),
  ];
  const titled = (sections: ReturnType<typeof groupChannels>) =>
    sections.map((s) => [s.title, s.channels.map((c) => c.name)]);

  it('puts pinned first, then folders in their order, then the rest', () => {
    expect(titled(groupChannels(subs, folders, true))).toEqual([
      ['Pinned', ['announcements']],
      ['Engineering', ['api', 'backend']],
      ['Social', ['random']],
      ['Other channels', ['misc']],
    ]);
  });

  it('is one untitled list when folders are not used or not wanted', () => {
    expect(titled(groupChannels(subs, folders, false))).toEqual([
      [null, ['announcements', 'api', 'backend', 'misc', 'random']],
    ]);
    expect(titled(groupChannels([subscription(9, 'solo')], folders, true))).toEqual([
      [null, ['solo']],
    ]);
  });
});
