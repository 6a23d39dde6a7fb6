import { describe, expect, it } from 'vitest';
import {
  applySuggestion,
  channelSuggestions,
  emojiCharacter,
  emojiChoices,
  emojiSuggestions,
  mentionSuggestions,
  tokenAt,
  topicLinkSuggestions,
  topicNameSuggestions,
} from '../../../renderer/src/chat/compose/autocomplete.js';
import { matchRank } from '../../../renderer/src/chat/compose/matching.js';
import type { Channel, User, UserGroup } from '../../../renderer/src/chat/data/model.js';

const user = (user_id: number, full_name: string, extra: Partial<User> = {}): User => ({
  user_id,
  full_name,
  email: `${full_name.split(' ')[0]!.toLowerCase()}${user_id}@example.com`,
  avatar_url: null,
  is_active: true,
  is_bot: false,
  role: 400,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  timezone: '',
  date_joined: '',
  ...extra,
});
const group = (id: number, name: string, extra: Partial<UserGroup> = {}): UserGroup => ({
  id,
  name,
  description: '',
  members: [],
  direct_subgroup_ids: [],
  is_system_group: false,
  ...extra,
});
const channel = (stream_id: number, name: string, extra: Partial<Channel> = {}): Channel => ({
  stream_id,
  name,
  description: '',
  rendered_description: '',
  invite_only: false,
  ...extra,
});

const at = (text: string) => tokenAt(text, text.length);

describe('finding the token at the cursor', () => {
  it('finds @, # and : tokens only where a word starts', () => {
    expect(at('hi @ali')).toMatchObject({ kind: 'mention', query: 'ali', start: 3, silent: false });
    expect(at('@_ali')).toMatchObject({ kind: 'mention', query: 'ali', silent: true });
    expect(at('@alice sm')).toMatchObject({ kind: 'mention', query: 'alice sm' });
    expect(at('mail me@example')).toBeNull();
    expect(at('see #gen')).toMatchObject({ kind: 'channel', query: 'gen', start: 4 });
    expect(at('issue#12')).toBeNull();
    expect(at('nice :thu')).toMatchObject({ kind: 'emoji', query: 'thu', start: 5 });
    expect(at('time 10:30')).toBeNull();
    expect(at('a :t')).toBeNull();
  });

  it('stops at a finished mention, a leading space or a new line', () => {
    expect(at('@**Alice** ')).toBeNull();
    expect(at('@ alice')).toBeNull();
    expect(at('@alice\nmore')).toBeNull();
  });

  it('offers topics after #**channel>', () => {
    expect(at('go to #**general>lun')).toMatchObject({
      kind: 'topic',
      channel: 'general',
      query: 'lun',
      start: 6,
    });
  });

  it('turns `>` after a finished channel link into topic completion', () => {
    expect(at('see #**general**>lu')).toMatchObject({
      kind: 'topic',
      channel: 'general',
      query: 'lu',
      start: 4,
    });
  });

  it('looks only at the text before the cursor', () => {
    expect(tokenAt('@al and more', 3)).toMatchObject({ kind: 'mention', query: 'al', end: 3 });
  });
});

describe('matching', () => {
  it('ranks a name start before a word start before the middle, ignoring case and accents', () => {
    expect(matchRank('Alice Smith', 'ali')).toBe(0);
    expect(matchRank('Alice Smith', 'smi')).toBe(1);
    expect(matchRank('Alice Smith', 'mit')).toBe(2);
    expect(matchRank('Alice Smith', 'zz')).toBeNull();
    expect(matchRank('José Núñez', 'nun')).toBe(1);
    expect(matchRank('thumbs_up', 'up')).toBe(1);
  });
});

describe('mention suggestions', () => {
  const users = [
    user(1, 'Sam Lee'),
    user(2, 'Alice Samson'),
    user(3, 'Sam Lee'),
    user(4, 'Samantha Bot', { is_bot: true }),
    user(5, 'Sammy Gone', { is_active: false }),
    user(6, 'Samuel Muted'),
    user(7, 'Sandra'),
  ];
  const groups = [
    group(10, 'sam-team'),
    group(11, 'role:members', { is_system_group: true }),
    group(12, 'samplers', { deactivated: true }),
  ];
  const labels = (query: string, extra: Partial<Parameters<typeof mentionSuggestions>[2]> = {}) =>
    mentionSuggestions(query, false, {
      users,
      groups,
      inChannel: true,
      mutedUserIds: new Set([6]),
      ...extra,
    }).map((s) => s.insert);

  it('orders name starts first, humans before bots, then groups; leaves out the inactive and muted', () => {
    expect(labels('sam')).toEqual([
      '@**Sam Lee|1**',
      '@**Sam Lee|3**',
      '@**Samantha Bot**',
      '@*sam-team*',
      '@**Alice Samson**',
    ]);
  });

  it('puts the conversation’s people first among equal matches', () => {
    expect(labels('sa', { preferredUserIds: new Set([7]) })[0]).toBe('@**Sandra**');
  });

  it('finds people by e-mail too', () => {
    expect(labels('sandra7@')).toEqual(['@**Sandra**']);
  });

  it('offers channel and topic wildcards only for channel messages, never silently', () => {
    expect(labels('to')).toContain('@**topic**');
    expect(labels('to', { inChannel: false })).not.toContain('@**topic**');
    expect(labels('ev', { inChannel: false })).toContain('@**everyone**');
    expect(labels('')).not.toContain('@**all**');
    const silent = mentionSuggestions('al', true, { users, groups, inChannel: true });
    expect(silent.map((s) => s.insert)).toEqual(['@_**Alice Samson**']);
  });
});

describe('channel and topic suggestions', () => {
  const channels = [
    channel(1, 'general'),
    channel(2, 'design'),
    channel(3, 'gen-z'),
    channel(4, 'old', { is_archived: true }),
    channel(5, 'engineering'),
  ];

  it('puts subscribed channels first among equal matches and skips archived ones', () => {
    const names = channelSuggestions('g', channels, new Set([3])).map((s) => s.insert);
    expect(names).toEqual(['#**gen-z**', '#**general**', '#**design**', '#**engineering**']);
    expect(channelSuggestions('old', channels, new Set()).map((s) => s.label)).toEqual([]);
    expect(channelSuggestions('', channels, new Set([5])).map((s) => s.label)[0]).toBe(
      'engineering',
    );
  });

  it('suggests topics newest first and what was typed as a new topic', () => {
    const topics = [{ name: 'lunch today' }, { name: 'launch' }, { name: 'old lunch' }];
    expect(topicNameSuggestions('lu', topics)).toEqual(['lunch today', 'old lunch']);
    expect(topicNameSuggestions('', topics)).toEqual(['lunch today', 'launch', 'old lunch']);
    expect(topicLinkSuggestions('general', 'la', topics).map((s) => s.insert)).toEqual([
      '#**general>la**',
      '#**general>launch**',
    ]);
  });
});

describe('emoji', () => {
  const data = {
    '1f44d': ['+1', 'thumbs_up', 'like'],
    '1f44e': ['-1', 'thumbs_down'],
    '1f389': ['tada'],
    '1f642': ['slight_smile'],
    '1f604': ['smile'],
    '1f63a': ['smiley_cat'],
    '1f3e0': ['house'],
  };
  const choices = emojiChoices(
    data,
    [
      { id: '1', name: 'party_parrot', source_url: '/user_avatars/p.png', deactivated: false },
      { id: '2', name: 'house', source_url: '/user_avatars/h.png', deactivated: false },
      { id: '3', name: 'gone', source_url: '/x.png', deactivated: true },
    ],
    '/static/zulip.png',
  );

  it('lists custom emoji over a Unicode name they take, and :zulip:, without deactivated ones', () => {
    expect(choices.filter((c) => c.aliases.includes('house')).map((c) => c.type)).toEqual([
      'realm_emoji',
    ]);
    expect(choices.some((c) => c.name === 'gone')).toBe(false);
    expect(choices.find((c) => c.name === 'zulip')?.type).toBe('zulip_extra_emoji');
  });

  it('matches aliases and inserts the alias typed', () => {
    expect(emojiSuggestions('thumbs', choices).map((s) => s.insert)).toEqual([
      ':thumbs_up:',
      ':thumbs_down:',
    ]);
    expect(emojiSuggestions('lik', choices)[0]?.emoji?.code).toBe('1f44d');
  });

  it('puts popular emoji, then frequently used ones, before others that match as well', () => {
    expect(emojiSuggestions('sm', choices).map((s) => s.label)).toEqual([
      'smile',
      'smiley_cat',
      'slight_smile',
    ]);
    expect(emojiSuggestions('s', choices).map((s) => s.label)[0]).toBe('slight_smile');
    expect(emojiSuggestions('s', choices, ['1f63a']).map((s) => s.label)[0]).toBe('smiley_cat');
  });

  it('turns codes into characters', () => {
    expect(emojiCharacter('1f44d')).toBe('👍');
    expect(emojiCharacter('1f468-200d-1f4bb')).toBe('👨‍💻');
    expect(emojiCharacter('zzz')).toBe('');
  });
});

describe('applying a suggestion', () => {
  it('replaces the token, adds a space and puts the cursor after it', () => {
    const text = 'hi @ali there';
    const token = tokenAt(text, 7)!;
    expect(applySuggestion(text, token, { insert: '@**Alice**', thenSpace: true })).toEqual({
      text: 'hi @**Alice** there',
      cursor: 14,
    });
    const end = applySuggestion('@al', tokenAt('@al', 3)!, { insert: '@**Al**', thenSpace: true });
    expect(end).toEqual({ text: '@**Al** ', cursor: 8 });
  });
});
