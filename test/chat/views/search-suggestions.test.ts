/** The search box's suggestions as you type (a pure function of the text and the state). */
import { describe, expect, it } from 'vitest';
import type { ChatState } from '../../../renderer/src/chat/data/model.js';
import { parseSearch } from '../../../renderer/src/chat/data/narrow.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';
import {
  MAX_SUGGESTIONS,
  searchSuggestions,
} from '../../../renderer/src/chat/views/header/search-suggestions.js';
import { subscription as channel, user as person } from '../people/fixtures.js';

const user = (id: number, name: string, email: string, is_active = true) =>
  person(id, name, { email, is_active });

const ME = 4;
const ADA = 7;
const BOB = 9;
const ADAM = 11;
const GONE = 13;

function makeState(): ChatState {
  const state = initialChatState(ME);
  for (const u of [
    user(ME, 'Mel Member', 'mel@x.org'),
    user(ADA, 'Ada Lovelace', 'ada@x.org'),
    user(BOB, 'Bob Builder', 'bob+work@x.org'),
    user(ADAM, 'Adam Smith', 'adam@x.org'),
    user(GONE, 'Adrian Gone', 'adrian@x.org', false),
  ]) {
    state.users.set(u.user_id, u);
  }
  for (const c of [channel(5, 'general'), channel(6, 'design team'), channel(8, 'devel')]) {
    state.channels.set(c.stream_id, c);
  }
  // Subscribed to general and devel, not design team.
  state.subscriptions.set(5, channel(5, 'general'));
  state.subscriptions.set(8, channel(8, 'devel'));
  state.topics.set(5, [
    { name: 'lunch plans', maxId: 30 },
    { name: 'Launch', maxId: 20 },
    { name: 'deploys', maxId: 10 },
  ]);
  state.recent = [
    { key: 'channel:8:release', channelId: 8, topic: 'release', maxId: 40, senderIds: [] },
    { key: 'dm:7', userIds: [ADA], maxId: 35, senderIds: [] },
    { key: 'channel:5:lunch plans', channelId: 5, topic: 'lunch plans', maxId: 30, senderIds: [] },
  ];
  return state;
}
const state = makeState();

const texts = (query: string) => searchSuggestions(query, state).map((s) => s.text);
const find = (query: string, text: string) =>
  searchSuggestions(query, state).find((s) => s.text === text);

describe('search suggestions', () => {
  it('offers Zulip’s filters for an empty box, none of them the empty search', () => {
    expect(texts('')).toEqual([
      'is:dm',
      'is:starred',
      'is:mentioned',
      'sender:me',
      'is:unread',
      'is:resolved',
      'has:link',
      'has:image',
      'has:attachment',
      'has:reaction',
    ]);
    expect(find('', 'is:mentioned')?.description).toBe('Messages that mention you');
    expect(find('', 'sender:me')?.description).toBe('Sent by me');
  });

  it('puts the text as typed first, so Enter alone searches it', () => {
    const [first] = searchSuggestions('hello world', state);
    expect(first).toEqual({
      text: 'hello world',
      description: 'Search for hello world',
      incomplete: false,
    });
    expect(searchSuggestions('channel:general', state)[0]).toMatchObject({
      text: 'channel:general',
      description: '#general',
    });
  });

  it('completes an operator being typed, marked incomplete so typing goes on', () => {
    expect(texts('chan')).toEqual(['chan', 'channel:', 'channels:']);
    expect(find('chan', 'channel:')?.incomplete).toBe(true);
    expect(texts('to')).toContain('topic:');
    expect(texts('se')).toContain('sender:');
    expect(texts('d')).toEqual(expect.arrayContaining(['dm:', 'dm-including:']));
    expect(texts('-i')).toEqual(['-i', '-is:', '-id:', '-has:image']);
    // Operators come before people and channels the word also names.
    const d = texts('d');
    expect(d).toContain('channel:devel');
    expect(d.indexOf('dm-including:')).toBeLessThan(d.indexOf('channel:devel'));
  });

  it('offers channels for channel:, best match then subscribed first', () => {
    expect(texts('channel:')).toEqual([
      'channel:',
      'channel:devel',
      'channel:general',
      'channel:design+team',
    ]);
    expect(texts('channel:de')).toEqual(['channel:de', 'channel:devel', 'channel:design+team']);
    // A later word of the name matches too; aliases as Zulip's `stream:`.
    expect(texts('stream:team')).toEqual(['stream:team', 'channel:design+team']);
    expect(find('channel:gen', 'channel:general')?.description).toBe('Messages in #general');
    expect(find('-channel:gen', '-channel:general')?.description).toBe('Exclude #general');
  });

  it('offers the topics of the chosen channel, newest first, after the channel', () => {
    expect(texts('channel:general topic:')).toEqual([
      'channel:general topic:',
      'channel:general topic:lunch+plans',
      'channel:general topic:Launch',
      'channel:general topic:deploys',
    ]);
    expect(texts('channel:general topic:la')).toEqual([
      'channel:general topic:la',
      'channel:general topic:Launch',
    ]);
    // A space after the channel already lists its topics.
    expect(texts('channel:general ')).toContain('channel:general topic:lunch+plans');
    // A plain word after a channel matches its topics, and the chosen topic becomes the narrow.
    const chosen = find('channel:general lun', 'channel:general topic:lunch+plans');
    expect(chosen?.description).toBe('Topic lunch plans');
    expect(parseSearch(chosen!.text, state)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch plans' },
    ]);
    // No second topic once one is chosen.
    expect(texts('channel:general topic:deploys topic:')).toEqual([
      'channel:general topic:deploys topic:',
    ]);
  });

  it('offers recent topics of any channel for topic: without a channel', () => {
    expect(texts('topic:')).toEqual(['topic:', 'topic:release', 'topic:lunch+plans']);
    expect(find('topic:rel', 'topic:release')?.description).toBe('Topic release (any channel)');
    // A plain word without a channel does not list topics.
    expect(texts('rele')).toEqual(['rele']);
  });

  it('offers people by name and by e-mail, active ones only', () => {
    expect(texts('sender:ad')).toEqual(['sender:ad', 'sender:ada@x.org', 'sender:adam@x.org']);
    // By e-mail, with `+` kept as the e-mail's own character.
    expect(texts('sender:bob+w')).toEqual(['sender:bob+w', 'sender:bob+work@x.org']);
    // A later word of the name.
    expect(texts('dm:smi')).toEqual(['dm:smi', 'dm:adam@x.org']);
    const ada = find('sender:ada', 'sender:ada@x.org');
    expect(ada).toEqual({
      text: 'sender:ada@x.org',
      description: 'Sent by Ada Lovelace',
      incomplete: false,
      userId: ADA,
    });
    expect(parseSearch(ada!.text, state)).toEqual([{ operator: 'sender', operand: ADA }]);
    expect(texts('sender:m')).toEqual(['sender:m', 'sender:me', 'sender:mel@x.org']);
    expect(find('dm-including:bo', 'dm-including:bob+work@x.org')?.description).toBe(
      'Direct messages including Bob Builder',
    );
  });

  it('adds people to a dm: one at a time after commas', () => {
    expect(texts('dm:ada@x.org,bo')).toEqual(['dm:ada@x.org,bo', 'dm:ada@x.org,bob+work@x.org']);
    expect(find('dm:ada@x.org,bo', 'dm:ada@x.org,bob+work@x.org')?.description).toBe(
      'Direct messages with Ada Lovelace, Bob Builder',
    );
    // Someone already in the list is not offered again.
    expect(texts('dm:ada@x.org,ad')).toEqual(['dm:ada@x.org,ad', 'dm:ada@x.org,adam@x.org']);
  });

  it('offers is:, has:, channels: and in: operands', () => {
    expect(texts('is:')).toEqual([
      'is:',
      'is:dm',
      'is:starred',
      'is:mentioned',
      'is:unread',
      'is:alerted',
      'is:followed',
      'is:resolved',
      'is:muted',
    ]);
    expect(texts('is:st')).toEqual(['is:st', 'is:starred']);
    expect(texts('has:')).toEqual([
      'has:',
      'has:link',
      'has:image',
      'has:attachment',
      'has:reaction',
    ]);
    expect(texts('has:im')).toEqual(['has:im', 'has:image']);
    expect(find('-is:unr', '-is:unread')?.description).toBe('Exclude unread messages');
    expect(texts('channels:')).toEqual(['channels:', 'channels:public']);
    // near: and id: take a message id: nothing beyond what is typed.
    expect(texts('near:12')).toEqual(['near:12']);
  });

  it('offers filters a plain word names by operand or by description', () => {
    expect(texts('star')).toContain('is:starred');
    expect(texts('unread')).toContain('is:unread');
    expect(texts('link')).toContain('has:link');
    expect(texts('links')).not.toContain('has:link');
    expect(texts('messages with im')).toContain('messages with has:image');
  });

  it('offers people and channels a plain word names', () => {
    const ada = texts('ada');
    expect(ada).toEqual(
      expect.arrayContaining(['dm:ada@x.org', 'sender:ada@x.org', 'dm:adam@x.org']),
    );
    // The inactive account is never offered.
    expect(ada.join(' ')).not.toContain('adrian');
    expect(texts('gener')).toContain('channel:general');
  });

  it('keeps the words before the one being typed', () => {
    expect(texts('is:starred chan')).toEqual([
      'is:starred chan',
      'is:starred channel:',
      'is:starred channels:',
    ]);
    expect(texts('hello sender:bo')).toEqual(['hello sender:bo', 'hello sender:bob+work@x.org']);
    expect(find('hello sender:bo', 'hello sender:bo')?.description).toBe('Search for hello');
  });

  it('never shows more than the maximum, and never the same text twice', () => {
    const many = initialChatState(ME);
    for (let i = 0; i < 40; i++) {
      many.users.set(100 + i, user(100 + i, `Sam ${i}`, `sam${i}@x.org`));
      many.channels.set(200 + i, channel(200 + i, `sam-${i}`));
    }
    for (const query of ['sam', 'sender:sam', 'channel:sam', 's']) {
      const list = searchSuggestions(query, many).map((s) => s.text);
      expect(list.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
      expect(new Set(list).size).toBe(list.length);
    }
    expect(searchSuggestions('sender:sam', many)).toHaveLength(MAX_SUGGESTIONS);
  });
});
