/** Event shapes the recordings do not cover (legacy forms, rarer ops), applied one by one. */
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  type EventContext,
  noEffects,
  type ZulipEvent,
} from '../../../renderer/src/chat/data/events.js';
import type { ChatState, Message, Narrow, User } from '../../../renderer/src/chat/data/model.js';
import { recountUnread } from '../../../renderer/src/chat/data/model-updates.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import { countUnread, emptyBook, fileMessage } from '../../../renderer/src/chat/data/unread.js';

const ME = 1;
const NOW = 1_700_000_000;

function message(id: number, extra: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    sender_id: 2,
    sender_full_name: 'Ann',
    sender_email: 'ann@x.org',
    avatar_url: '/a.png',
    content: '<p>x</p>',
    stream_id: 10,
    subject: 't',
    display_recipient: 'old',
    timestamp: 0,
    flags: [],
    reactions: [],
    submessages: [],
    ...extra,
  };
}

function setup(messages: Message[] = []) {
  const state: ChatState = initialChatState(ME);
  state.users.set(2, { user_id: 2, full_name: 'Ann', email: 'ann@x.org', role: 400 } as User);
  state.subscriptions.set(10, {
    stream_id: 10,
    name: 'old',
    description: '',
    rendered_description: '',
    color: '',
    pin_to_top: false,
    is_muted: false,
    invite_only: false,
    desktop_notifications: null,
    subscriber_count: 3,
  });
  state.channels.set(10, state.subscriptions.get(10)!);
  const book = emptyBook();
  for (const m of messages) {
    state.messages.set(m.id, m);
    fileMessage(book, m, ME);
  }
  const ctx: EventContext = { book, effects: noEffects(), nowSecs: NOW };
  let current = recountUnread(state, book);
  // Events as the wire brings them: JSON that the description types loosely.
  const apply = (event: { type: string } & Record<string, unknown>) => {
    current = applyEvent(current, { id: 0, ...event } as ZulipEvent, ctx);
    return current;
  };
  return {
    apply,
    ctx,
    get state() {
      return current;
    },
  };
}

describe('applying events', () => {
  it('renames a channel in its messages', () => {
    const s = setup([message(5)]);
    const state = s.apply({
      type: 'stream',
      op: 'update',
      stream_id: 10,
      property: 'name',
      value: 'new',
    });
    expect(state.subscriptions.get(10)?.name).toBe('new');
    expect(state.messages.get(5)?.display_recipient).toBe('new');
  });

  it('renames a user in their messages and re-derives role flags', () => {
    const s = setup([message(5)]);
    const state = s.apply({
      type: 'realm_user',
      op: 'update',
      person: { user_id: 2, full_name: 'Anne', role: 200 },
    });
    expect(state.messages.get(5)?.sender_full_name).toBe('Anne');
    expect(state.users.get(2)).toMatchObject({
      full_name: 'Anne',
      is_admin: true,
      is_owner: false,
    });
  });

  it('keeps the edit time for rendering-only updates', () => {
    const s = setup([message(5)]);
    const state = s.apply({
      type: 'update_message',
      message_id: 5,
      message_ids: [5],
      rendering_only: true,
      rendered_content: '<p>y</p>',
      edit_timestamp: NOW,
    });
    expect(state.messages.get(5)?.content).toBe('<p>y</p>');
    expect(state.messages.get(5)?.last_edit_timestamp).toBeUndefined();
  });

  it('deletes single and bulk, and reads all', () => {
    const s = setup([message(5), message(6), message(7), message(8)]);
    s.apply({
      type: 'delete_message',
      message_id: 5,
      message_type: 'stream',
      stream_id: 10,
      topic: 't',
    });
    s.apply({
      type: 'delete_message',
      message_ids: [6],
      message_type: 'stream',
      stream_id: 10,
      topic: 't',
    });
    expect([...s.state.messages.keys()]).toEqual([7, 8]);
    expect(s.state.unread.total).toBe(2);
    s.apply({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true });
    expect(s.state.unread.total).toBe(0);
    expect(s.state.messages.get(8)?.flags).toEqual(['read']);
  });

  it('takes legacy presence events', () => {
    const s = setup();
    const state = s.apply({
      type: 'presence',
      user_id: 2,
      email: 'ann@x.org',
      server_timestamp: NOW,
      presence: {
        website: { client: 'website', status: 'idle', timestamp: NOW - 10, pushable: false },
      },
    });
    expect(state.presence.get(2)).toEqual({ status: 'idle', last_active: null });
  });

  it('clears status fields Zulip clears with empty strings', () => {
    const s = setup();
    s.apply({
      type: 'user_status',
      user_id: 2,
      status_text: 'out',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    s.apply({ type: 'user_status', user_id: 2, emoji_name: '', emoji_code: '', reaction_type: '' });
    expect(s.state.userStatus.get(2)).toEqual({ status_text: 'out' });
    s.apply({ type: 'user_status', user_id: 2, status_text: '' });
    expect(s.state.userStatus.has(2)).toBe(false);
  });

  it('ignores its own typing and counts subscribers', () => {
    const s = setup();
    const before = s.state;
    s.apply({
      type: 'typing',
      op: 'start',
      message_type: 'stream',
      sender: { user_id: ME },
      stream_id: 10,
      topic: 't',
    });
    expect(s.state).toBe(before);
    s.apply({ type: 'subscription', op: 'peer_add', stream_ids: [10], user_ids: [4, 5] });
    expect(s.state.subscriptions.get(10)?.subscriber_count).toBe(5);
  });

  it('keeps subscriber counts current on channels one is not subscribed to, and on leaving', () => {
    const s = setup();
    s.state.channels.set(11, {
      stream_id: 11,
      name: 'other',
      description: '',
      rendered_description: '',
      invite_only: false,
      subscriber_count: 2,
    });
    s.apply({ type: 'subscription', op: 'peer_add', stream_ids: [11], user_ids: [4] });
    expect(s.state.channels.get(11)?.subscriber_count).toBe(3);
    s.apply({ type: 'subscription', op: 'peer_remove', stream_ids: [11, 10], user_ids: [4] });
    expect(s.state.channels.get(11)?.subscriber_count).toBe(2);
    expect(s.state.channels.get(10)?.subscriber_count).toBe(2);
    expect(s.state.subscriptions.get(10)?.subscriber_count).toBe(2);
    // One's own leaving comes as 'remove' alone (peers get peer_remove).
    s.apply({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 10 }] });
    expect(s.state.channels.get(10)?.subscriber_count).toBe(1);
  });

  it('applies realm settings by update and update_dict', () => {
    const s = setup();
    s.apply({ type: 'realm', op: 'update', property: 'name', value: 'Org' });
    s.apply({
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { message_content_edit_limit_seconds: 600 },
    });
    expect(s.state.realm.name).toBe('Org');
    expect(s.state.realm.settings.realm_message_content_edit_limit_seconds).toBe(600);
  });

  it('replaces custom emoji and drops deleted channels with their subscriptions', () => {
    const s = setup([message(5)]);
    const emoji = { '3': { id: '3', name: 'party', source_url: '/e.png', deactivated: false } };
    s.apply({ type: 'realm_emoji', op: 'update', realm_emoji: emoji });
    expect(s.state.realm.emoji).toEqual(emoji);
    expect(s.state.unread.channels.get(10)).toBe(1);
    s.apply({ type: 'stream', op: 'delete', streams: [{ stream_id: 10 }], stream_ids: [10] });
    expect(s.state.channels.has(10)).toBe(false);
    expect(s.state.subscriptions.has(10)).toBe(false);
    // Unsubscribed channels do not count.
    expect(s.state.unread.channels.has(10)).toBe(false);
  });

  it('keeps the organization’s code playgrounds where register put them', () => {
    const s = setup([message(5)]);
    const playgrounds = [
      {
        id: 1,
        name: 'Rust playground',
        pygments_language: 'Rust',
        url_template: 'https://p/{code}',
      },
    ];
    s.apply({ type: 'realm_playgrounds', realm_playgrounds: playgrounds });
    expect(s.state.realm.settings.realm_playgrounds).toEqual(playgrounds);
    s.apply({ type: 'realm_playgrounds', realm_playgrounds: [] });
    expect(s.state.realm.settings.realm_playgrounds).toEqual([]);
  });

  it('drops a search’s highlighted copy of a message’s old text when it is edited', () => {
    const s = setup([message(5, { match_content: '<p><span class="highlight">hi</span></p>' })]);
    s.apply({
      type: 'update_message',
      message_id: 5,
      message_ids: [5],
      rendered_content: '<p>bye</p>',
      content: 'bye',
      edit_timestamp: NOW,
    });
    expect(s.state.messages.get(5)?.content).toBe('<p>bye</p>');
    expect(s.state.messages.get(5)?.match_content).toBeUndefined();
  });

  it('un-mutes a topic by removing its policy', () => {
    const s = setup([message(5)]);
    s.apply({
      type: 'user_topic',
      stream_id: 10,
      topic_name: 'T',
      visibility_policy: 1,
      last_updated: NOW,
    });
    expect(s.state.unread.total).toBe(0);
    s.apply({
      type: 'user_topic',
      stream_id: 10,
      topic_name: 't',
      visibility_policy: 0,
      last_updated: NOW,
    });
    expect(s.state.userTopics).toEqual([]);
    expect(s.state.unread.total).toBe(1);
  });

  it('reports moves into the shown narrow for a refetch', () => {
    const s = setup([message(5, { subject: 'a' })]);
    s.apply({
      type: 'update_message',
      message_id: 9,
      message_ids: [9],
      stream_id: 10,
      orig_subject: 'a',
      subject: 'b',
      propagate_mode: 'change_one',
      edit_timestamp: NOW,
    });
    expect(s.ctx.effects.refetchList).toBe(false);
    const listed = {
      ...s.state,
      list: {
        narrow: [
          { operator: 'channel', operand: 10 },
          { operator: 'topic', operand: 'b' },
        ],
        ids: [],
        foundOldest: true,
        foundNewest: true,
        loadingOlder: false,
        loadingNewer: false,
        anchorId: null,
        error: null,
      },
    };
    const ctx: EventContext = { ...s.ctx, effects: noEffects() };
    applyEvent(
      listed,
      {
        id: 1,
        type: 'update_message',
        message_id: 5,
        message_ids: [5],
        stream_id: 10,
        orig_subject: 'a',
        subject: 'b',
        propagate_mode: 'change_one',
        edit_timestamp: NOW,
      } as ZulipEvent,
      ctx,
    );
    expect(ctx.effects.refetchList).toBe(true);
    expect(countUnread(ctx.book, listed).topics.get(10)?.get('b')).toBe(1);
  });
});

describe('starred messages', () => {
  const withStarred = (ids: number[], messages: Message[] = []) => {
    const s = setup(messages);
    s.apply({ type: 'heartbeat' });
    const state = { ...s.state, starred: new Set(ids) };
    let current: ChatState = state;
    return {
      apply(event: Partial<ZulipEvent> & { type: string }) {
        current = applyEvent(current, { id: 0, ...event } as ZulipEvent, s.ctx);
        return current;
      },
    };
  };

  it('keeps the starred ids by flag events, loaded messages or not', () => {
    const s = withStarred([3], [message(5)]);
    let state = s.apply({
      type: 'update_message_flags',
      op: 'add',
      flag: 'starred',
      messages: [5, 9],
    });
    expect([...state.starred!].sort()).toEqual([3, 5, 9]);
    expect(state.messages.get(5)?.flags).toEqual(['starred']);
    state = s.apply({
      type: 'update_message_flags',
      op: 'remove',
      flag: 'starred',
      messages: [3, 5],
    });
    expect([...state.starred!]).toEqual([9]);
    expect(state.messages.get(5)?.flags).toEqual([]);
  });

  it('leaves the set alone for other flags and for changes that change nothing', () => {
    const s = withStarred([3]);
    const before = s.apply({ type: 'heartbeat' });
    expect(
      s.apply({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [3] }).starred,
    ).toBe(before.starred);
    expect(
      s.apply({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [3] }).starred,
    ).toBe(before.starred);
    expect(
      s.apply({ type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [4] })
        .starred,
    ).toBe(before.starred);
  });

  it('has the Starred view refetched when stars change, and no other view', () => {
    const s = setup([message(5)]);
    const listOf = (narrow: Narrow) => ({
      ...s.state,
      list: {
        narrow,
        ids: [],
        foundOldest: true,
        foundNewest: true,
        loadingOlder: false,
        loadingNewer: false,
        anchorId: null,
        error: null,
      },
    });
    const star = { id: 1, type: 'update_message_flags', op: 'add', flag: 'starred', messages: [5] };
    const starredView: EventContext = { ...s.ctx, effects: noEffects() };
    applyEvent(listOf([{ operator: 'is', operand: 'starred' }]), star as ZulipEvent, starredView);
    expect(starredView.effects.refetchList).toBe(true);
    const channelView: EventContext = { ...s.ctx, effects: noEffects() };
    applyEvent(listOf([{ operator: 'channel', operand: 10 }]), star as ZulipEvent, channelView);
    expect(channelView.effects.refetchList).toBe(false);
  });

  it('forgets deleted messages', () => {
    const s = withStarred([3, 4, 5]);
    s.apply({
      type: 'delete_message',
      message_id: 3,
      message_type: 'stream',
      stream_id: 10,
      topic: 't',
    });
    const state = s.apply({ type: 'delete_message', message_ids: [4, 6], message_type: 'private' });
    expect([...state.starred!]).toEqual([5]);
  });
});

describe('resolving a topic', () => {
  const rename = (orig: string, subject: string) => ({
    type: 'update_message',
    message_id: 5,
    message_ids: [5],
    stream_id: 10,
    orig_subject: orig,
    subject,
    propagate_mode: 'change_all',
    edit_timestamp: NOW,
  });

  it('renames the topic without marking its messages moved, as the server does', () => {
    const s = setup([message(5)]);
    let state = s.apply(rename('t', '✔ t'));
    expect(state.messages.get(5)).toMatchObject({ subject: '✔ t' });
    expect(state.messages.get(5)?.last_moved_timestamp).toBeUndefined();
    state = s.apply(rename('✔ t', 't'));
    expect(state.messages.get(5)?.last_moved_timestamp).toBeUndefined();
    // Anything else is a move.
    state = s.apply(rename('t', '✔ other'));
    expect(state.messages.get(5)?.last_moved_timestamp).toBe(NOW);
  });
});

describe('channel folders', () => {
  it('register fills them in order; channel_folder events keep them', () => {
    const s = setup();
    const { apply } = s;
    const state = () => s.state;
    expect(state().channelFolders).toEqual([]);
    apply({
      type: 'channel_folder',
      op: 'add',
      channel_folder: { id: 2, name: 'B', order: 2, is_archived: false },
    });
    apply({
      type: 'channel_folder',
      op: 'add',
      channel_folder: { id: 1, name: 'A', order: 1, is_archived: false },
    });
    expect(state().channelFolders.map((f) => f.name)).toEqual(['A', 'B']);
    apply({ type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { name: 'Bee' } });
    apply({ type: 'channel_folder', op: 'reorder', order: [2, 1] });
    expect(state().channelFolders.map((f) => f.name)).toEqual(['Bee', 'A']);
    apply({
      type: 'stream',
      op: 'update',
      stream_id: 10,
      property: 'folder_id',
      value: 2,
      name: 'old',
    });
    expect(state().subscriptions.get(10)!.folder_id).toBe(2);
  });
});

describe('legacy settings events', () => {
  it('reads update_global_notifications by its notification_name, as Zulip sends it', () => {
    const s = setup();
    s.apply({
      type: 'update_global_notifications',
      user: 'me@x.org',
      notification_name: 'enable_sounds',
      setting: false,
    });
    expect(s.state.settings.enable_sounds).toBe(false);
    s.apply({ type: 'update_display_settings', setting_name: 'emojiset', setting: 'text' });
    expect(s.state.settings.emojiset).toBe('text');
  });
});
