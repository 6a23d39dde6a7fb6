/** Narrows on the client: search syntax, hash links, matching, titles and compose targets. */
import { describe, expect, it } from 'vitest';
import type {
  ChatState,
  Message,
  Subscription,
  User,
} from '../../../renderer/src/chat/data/model.js';
import {
  composeTargetFor,
  decodeHashComponent,
  describeNarrow,
  dmKey,
  encodeHashComponent,
  hashToNarrow,
  messageLink,
  messageMatchesNarrow,
  narrowFollowingMessage,
  narrowIsLocal,
  narrowMarksRead,
  narrowToHash,
  narrowToSearch,
  opensAtFirstUnread,
  parseSearch,
} from '../../../renderer/src/chat/data/narrow.js';
import { initialChatState } from '../../../renderer/src/chat/data/state.js';

const ME = 4;
const ALICE = 7;
const BOB = 9;

function user(id: number, name: string, email: string): User {
  return {
    user_id: id,
    email,
    full_name: name,
    avatar_url: null,
    is_active: true,
    is_bot: false,
    role: 400,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    timezone: '',
    date_joined: '',
  };
}

function sub(id: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return {
    stream_id: id,
    name,
    description: '',
    rendered_description: '',
    color: '#fff',
    pin_to_top: false,
    is_muted: false,
    invite_only: false,
    desktop_notifications: null,
    ...extra,
  };
}

function makeState(): ChatState {
  const state = initialChatState(ME);
  for (const u of [
    user(ME, 'Mel Member', 'mel@x.org'),
    user(ALICE, 'Alice Smith', 'alice@x.org'),
    user(BOB, 'Bob', 'bob@x.org'),
  ]) {
    state.users.set(u.user_id, u);
  }
  for (const s of [
    sub(5, 'general'),
    sub(6, 'design team'),
    sub(8, 'v1.2 (beta)', { invite_only: true }),
  ]) {
    state.subscriptions.set(s.stream_id, s);
    state.channels.set(s.stream_id, s);
  }
  state.userTopics = [{ stream_id: 5, topic_name: 'Quiet', visibility_policy: 1, last_updated: 0 }];
  return state;
}
const state = makeState();

function channelMessage(topic: string, extra: Partial<Message> = {}): Message {
  return {
    id: 42,
    type: 'stream',
    sender_id: ALICE,
    sender_full_name: 'Alice Smith',
    sender_email: 'alice@x.org',
    avatar_url: null,
    content: '<p>hi</p>',
    stream_id: 5,
    subject: topic,
    display_recipient: 'general',
    timestamp: 0,
    flags: [],
    reactions: [],
    submessages: [],
    ...extra,
  };
}

function dmMessage(ids: number[], extra: Partial<Message> = {}): Message {
  return channelMessage('', {
    type: 'private',
    stream_id: undefined,
    display_recipient: ids.map((id) => ({ id, email: state.users.get(id)!.email, full_name: '' })),
    ...extra,
  });
}

describe('parseSearch', () => {
  it('parses operators, negation, quotes and free text', () => {
    expect(
      parseSearch('channel:general topic:"lunch plans" -is:starred hello there', state),
    ).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch plans' },
      { operator: 'is', operand: 'starred', negated: true },
      { operator: 'search', operand: 'hello there' },
    ]);
  });

  it("takes Zulip's legacy names and + for spaces", () => {
    expect(parseSearch('stream:design+team subject:a+b is:private', state)).toEqual([
      { operator: 'channel', operand: 6 },
      { operator: 'topic', operand: 'a b' },
      { operator: 'is', operand: 'dm' },
    ]);
  });

  it('resolves people: e-mails and me to ids, several for dm', () => {
    expect(parseSearch('sender:me dm:alice@x.org,bob@x.org', state)).toEqual([
      { operator: 'sender', operand: ME },
      { operator: 'dm', operand: [ALICE, BOB] },
    ]);
    // Unknown people stay as typed; the server answers for them.
    expect(parseSearch('sender:nobody@x.org', state)).toEqual([
      { operator: 'sender', operand: 'nobody@x.org' },
    ]);
  });

  it('keeps ids, has and near; unknown operators are text', () => {
    expect(parseSearch('near:12 id:3 has:link foo:bar', state)).toEqual([
      { operator: 'near', operand: 12 },
      { operator: 'id', operand: 3 },
      { operator: 'has', operand: 'link' },
      { operator: 'search', operand: 'foo:bar' },
    ]);
    expect(parseSearch('   ', state)).toEqual([]);
  });

  it('round-trips through the search text', () => {
    const text = 'channel:design+team topic:lunch+plans -sender:bob@x.org is:mentioned';
    expect(narrowToSearch(parseSearch(text, state), state)).toBe(text);
  });
});

describe('hash links', () => {
  it("encodes as Zulip's web app does", () => {
    expect(encodeHashComponent('v1.2 (beta)')).toBe('v1.2E2.20.28beta.29');
    expect(decodeHashComponent('v1.2E2.20.28beta.29')).toBe('v1.2 (beta)');
    expect(encodeHashComponent('100%')).toBe('100.25');
  });

  it('links channels by id and name, topics, DMs and is:', () => {
    expect(
      narrowToHash(
        [
          { operator: 'channel', operand: 6 },
          { operator: 'topic', operand: 'lunch time' },
          { operator: 'near', operand: 42 },
        ],
        state,
      ),
    ).toBe('#narrow/channel/6-design-team/topic/lunch.20time/near/42');
    expect(narrowToHash([{ operator: 'dm', operand: [BOB, ALICE] }], state)).toBe(
      '#narrow/dm/7,9-group',
    );
    expect(narrowToHash([{ operator: 'dm', operand: [ALICE] }], state)).toBe(
      '#narrow/dm/7-Alice-Smith',
    );
    expect(narrowToHash([{ operator: 'is', operand: 'mentioned' }], state)).toBe(
      '#narrow/is/mentioned',
    );
    expect(narrowToHash([{ operator: 'is', operand: 'starred', negated: true }], state)).toBe(
      '#narrow/-is/starred',
    );
    expect(narrowToHash([{ operator: 'search', operand: 'a.b c' }], state)).toBe(
      '#narrow/search/a.2Eb.20c',
    );
    expect(narrowToHash([], state)).toBe('#feed');
  });

  it('reads links back, including renamed channels and legacy operators', () => {
    expect(hashToNarrow('#narrow/channel/5-general/topic/lunch/near/42', state)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch' },
      { operator: 'near', operand: 42 },
    ]);
    // The id wins over an old name in the slug.
    expect(hashToNarrow('#narrow/stream/5-old-name/subject/a.20b', state)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'a b' },
    ]);
    // A name that starts with digits is still a name when no channel has that id.
    const dated = {
      ...state,
      channels: new Map(state.channels).set(11, {
        ...state.channels.get(5)!,
        stream_id: 11,
        name: '2024-plans',
      }),
    };
    expect(hashToNarrow('#narrow/channel/2024-plans', dated)).toEqual([
      { operator: 'channel', operand: 11 },
    ]);
    expect(hashToNarrow('#narrow/channel/99-gone', state)).toEqual([
      { operator: 'channel', operand: 99 },
    ]);
    expect(hashToNarrow('#narrow/dm/7,9-group', state)).toEqual([
      { operator: 'dm', operand: [7, 9] },
    ]);
    expect(hashToNarrow('#narrow/pm-with/7-alice', state)).toEqual([
      { operator: 'dm', operand: [7] },
    ]);
    expect(hashToNarrow('#narrow/sender/9-Bob', state)).toEqual([
      { operator: 'sender', operand: 9 },
    ]);
    expect(hashToNarrow('#narrow/is/private', state)).toEqual([{ operator: 'is', operand: 'dm' }]);
    expect(hashToNarrow('#narrow/-is/starred', state)).toEqual([
      { operator: 'is', operand: 'starred', negated: true },
    ]);
    expect(hashToNarrow('#narrow/channel/5-general/topic/', state)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: '' },
    ]);
    expect(hashToNarrow('#narrow/is/starred/', state)).toEqual([
      { operator: 'is', operand: 'starred' },
    ]);
    expect(hashToNarrow('#', state)).toEqual([]);
    expect(hashToNarrow('#feed', state)).toEqual([]);
    expect(hashToNarrow('#settings', state)).toBeNull();
    expect(hashToNarrow('#narrow/channel', state)).toBeNull();
    expect(hashToNarrow('#narrow/bogus/1', state)).toBeNull();
  });

  it('round-trips every kind of narrow', () => {
    const narrows = [
      [
        { operator: 'channel', operand: 8 },
        { operator: 'topic', operand: 'x.y (z) 100%' },
      ],
      [{ operator: 'dm', operand: [ALICE, BOB] }],
      [{ operator: 'search', operand: 'naïve café' }],
      [
        { operator: 'sender', operand: ALICE },
        { operator: 'has', operand: 'image', negated: true },
      ],
    ];
    for (const narrow of narrows)
      expect(hashToNarrow(narrowToHash(narrow, state), state)).toEqual(narrow);
  });

  it('links to one message in its conversation with `with`, as Zulip’s Copy link does', () => {
    expect(messageLink(channelMessage('lunch'), state)).toBe(
      '#narrow/channel/5-general/topic/lunch/with/42',
    );
    // Direct messages: every participant, you included, then `dm` (or `group` from three).
    expect(messageLink(dmMessage([ME, ALICE]), state)).toBe('#narrow/dm/4,7-dm/with/42');
    expect(messageLink(dmMessage([ALICE, ME, BOB]), state)).toBe('#narrow/dm/4,7,9-group/with/42');
    expect(messageLink(dmMessage([ME]), state)).toBe('#narrow/dm/4-dm/with/42');
  });

  it('opens message links, `with` and the older `near`', () => {
    expect(hashToNarrow('#narrow/channel/5-general/topic/lunch/with/42', state)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch' },
      { operator: 'with', operand: 42 },
    ]);
    expect(hashToNarrow('#narrow/dm/4,7-dm/with/42', state)).toEqual([
      { operator: 'dm', operand: [4, 7] },
      { operator: 'with', operand: 42 },
    ]);
    expect(hashToNarrow(messageLink(dmMessage([ME, ALICE]), state), state)?.[0]).toEqual({
      operator: 'dm',
      operand: [ME, ALICE],
    });
    expect(describeNarrow(hashToNarrow('#narrow/dm/4,7-dm/with/42', state)!, state)).toBe(
      'Alice Smith',
    );
  });
});

describe('messageMatchesNarrow', () => {
  const matches = (narrow: Parameters<typeof messageMatchesNarrow>[1], message: Message) =>
    messageMatchesNarrow(message, narrow, state);

  it('matches channels by id or name and topics case-insensitively', () => {
    const message = channelMessage('Lunch');
    expect(matches([{ operator: 'channel', operand: 5 }], message)).toBe(true);
    expect(matches([{ operator: 'stream', operand: 'General' }], message)).toBe(true);
    expect(matches([{ operator: 'channel', operand: 6 }], message)).toBe(false);
    expect(matches([{ operator: 'topic', operand: 'lunch' }], message)).toBe(true);
    expect(matches([{ operator: 'topic', operand: 'lunch', negated: true }], message)).toBe(false);
    expect(matches([{ operator: 'topic', operand: 'lunch' }], dmMessage([ME, ALICE]))).toBe(false);
  });

  it('matches DMs by their exact participants', () => {
    const group = dmMessage([ME, ALICE, BOB]);
    expect(matches([{ operator: 'dm', operand: [ALICE, BOB] }], group)).toBe(true);
    expect(matches([{ operator: 'dm', operand: 'bob@x.org,alice@x.org' }], group)).toBe(true);
    expect(matches([{ operator: 'dm', operand: [ALICE] }], group)).toBe(false);
    expect(matches([{ operator: 'dm-including', operand: ALICE }], group)).toBe(true);
    expect(matches([{ operator: 'is', operand: 'dm' }], group)).toBe(true);
    expect(matches([{ operator: 'dm', operand: [ME] }], dmMessage([ME]))).toBe(true);
  });

  it('matches sender and flags', () => {
    const message = channelMessage('a', { flags: ['starred', 'wildcard_mentioned'] });
    expect(matches([{ operator: 'sender', operand: ALICE }], message)).toBe(true);
    expect(matches([{ operator: 'sender', operand: 'me' }], message)).toBe(false);
    expect(matches([{ operator: 'is', operand: 'starred' }], message)).toBe(true);
    expect(matches([{ operator: 'is', operand: 'mentioned' }], message)).toBe(true);
    expect(matches([{ operator: 'is', operand: 'unread' }], message)).toBe(true);
    expect(
      matches([{ operator: 'is', operand: 'unread' }], channelMessage('a', { flags: ['read'] })),
    ).toBe(false);
    expect(matches([{ operator: 'is', operand: 'resolved' }], channelMessage('✔ done'))).toBe(true);
  });

  it('follows muting for in:home and is:muted, and followed topics', () => {
    expect(matches([{ operator: 'in', operand: 'home' }], channelMessage('quiet'))).toBe(false);
    expect(matches([{ operator: 'is', operand: 'muted' }], channelMessage('quiet'))).toBe(true);
    expect(matches([{ operator: 'in', operand: 'home' }], channelMessage('loud'))).toBe(true);
    const following = {
      ...state,
      userTopics: [
        { stream_id: 5, topic_name: 'loud', visibility_policy: 3 as const, last_updated: 0 },
      ],
    };
    expect(
      messageMatchesNarrow(
        channelMessage('LOUD'),
        [{ operator: 'is', operand: 'followed' }],
        following,
      ),
    ).toBe(true);
  });

  it('never matches what only the server can judge', () => {
    const message = channelMessage('hello', { content: '<p>hello</p>' });
    expect(matches([{ operator: 'search', operand: 'hello' }], message)).toBe(false);
    expect(matches([{ operator: 'has', operand: 'link' }], message)).toBe(false);
    expect(matches([], message)).toBe(true);
  });
});

describe('operators mean what they mean on the server (one shared table)', () => {
  const matches = (narrow: Parameters<typeof messageMatchesNarrow>[1], message: Message) =>
    messageMatchesNarrow(message, narrow, state);

  it('keeps group-pm-with for group conversations only, as the server does', () => {
    const narrow = hashToNarrow('#narrow/group-pm-with/7-alice', state)!;
    expect(narrow).toEqual([{ operator: 'group-pm-with', operand: ALICE }]);
    expect(matches(narrow, dmMessage([ME, ALICE, BOB]))).toBe(true);
    expect(matches(narrow, dmMessage([ME, ALICE]))).toBe(false);
    expect(matches(narrow, dmMessage([ME, BOB]))).toBe(false);
    // dm-including takes every conversation with the person.
    expect(matches([{ operator: 'dm-including', operand: ALICE }], dmMessage([ME, ALICE]))).toBe(
      true,
    );
    expect(parseSearch('group-pm-with:alice@x.org', state)).toEqual([
      { operator: 'group-pm-with', operand: ALICE },
    ]);
    expect(narrowToHash(narrow, state)).toBe('#narrow/group-pm-with/7');
    expect(describeNarrow(narrow, state)).toBe('Group direct messages with Alice Smith');
  });

  it('accepts the underscore spellings the server accepts, and keeps the typed synonyms', () => {
    expect(parseSearch('pm_with:alice@x.org group_pm_with:bob@x.org', state)).toEqual([
      { operator: 'dm', operand: [ALICE] },
      { operator: 'group-pm-with', operand: BOB },
    ]);
    expect(parseSearch('from:alice@x.org subject:lunch', state)).toEqual([
      { operator: 'sender', operand: ALICE },
      { operator: 'topic', operand: 'lunch' },
    ]);
  });
});

describe('titles, compose targets and DM keys', () => {
  it('describes narrows', () => {
    expect(describeNarrow([], state)).toBe('Combined feed');
    expect(describeNarrow([{ operator: 'channel', operand: 6 }], state)).toBe('#design team');
    expect(
      describeNarrow(
        [
          { operator: 'channel', operand: 5 },
          { operator: 'topic', operand: 'lunch' },
        ],
        state,
      ),
    ).toBe('#general > lunch');
    expect(describeNarrow([{ operator: 'dm', operand: [ALICE, BOB] }], state)).toBe(
      'Alice Smith, Bob',
    );
    expect(describeNarrow([{ operator: 'dm', operand: [ME] }], state)).toBe('Mel Member (you)');
    expect(
      describeNarrow(
        [
          { operator: 'channel', operand: 5 },
          { operator: 'topic', operand: '' },
        ],
        state,
      ),
    ).toBe('#general > general chat');
    expect(describeNarrow([{ operator: 'is', operand: 'mentioned' }], state)).toBe('Mentions');
    expect(describeNarrow([{ operator: 'is', operand: 'starred' }], state)).toBe(
      'Starred messages',
    );
    expect(describeNarrow([{ operator: 'is', operand: 'dm' }], state)).toBe('Direct message feed');
    expect(describeNarrow([{ operator: 'search', operand: 'x' }], state)).toBe('Search results');
  });

  it('picks where the compose box sends', () => {
    expect(composeTargetFor([{ operator: 'channel', operand: 5 }], state)).toEqual({
      kind: 'channel',
      channelId: 5,
      topic: '',
    });
    expect(
      composeTargetFor(
        [
          { operator: 'stream', operand: 'general' },
          { operator: 'topic', operand: 'lunch' },
        ],
        state,
      ),
    ).toEqual({ kind: 'channel', channelId: 5, topic: 'lunch' });
    expect(composeTargetFor([{ operator: 'dm', operand: [ME, ALICE] }], state)).toEqual({
      kind: 'direct',
      userIds: [ALICE],
    });
    expect(composeTargetFor([{ operator: 'dm', operand: [ME] }], state)).toEqual({
      kind: 'direct',
      userIds: [ME],
    });
    expect(composeTargetFor([{ operator: 'is', operand: 'starred' }], state)).toBeNull();
    expect(composeTargetFor([], state)).toBeNull();
  });

  it('keys DM conversations by the other participants', () => {
    expect(dmKey([9, ME, 7], ME)).toBe('7,9');
    expect(dmKey([ME], ME)).toBe(String(ME));
    expect(dmKey([ME, 7, 7], ME)).toBe('7');
  });
});

describe('narrowMarksRead', () => {
  const is = (operand: string, negated = false) => ({ operator: 'is', operand, negated });
  it('marks read in views of whole conversations only, as Zulip does', () => {
    expect(narrowMarksRead([])).toBe(true);
    expect(narrowMarksRead([{ operator: 'stream', operand: 5 }])).toBe(true);
    expect(
      narrowMarksRead([
        { operator: 'channel', operand: 5 },
        { operator: 'topic', operand: 'a' },
      ]),
    ).toBe(true);
    expect(
      narrowMarksRead([
        { operator: 'topic', operand: 'a' },
        { operator: 'with', operand: 9 },
        { operator: 'channel', operand: 5 },
      ]),
    ).toBe(true);
    expect(narrowMarksRead([{ operator: 'dm', operand: [7] }])).toBe(true);
    expect(
      narrowMarksRead([
        { operator: 'dm', operand: [7] },
        { operator: 'with', operand: 9 },
      ]),
    ).toBe(true);
    for (const view of [
      is('dm'),
      is('private'),
      is('dm', true),
      is('resolved'),
      is('muted', true),
    ]) {
      expect(narrowMarksRead([view]), JSON.stringify(view)).toBe(true);
    }
    expect(narrowMarksRead([{ operator: 'in', operand: 'home' }])).toBe(true);
    expect(narrowMarksRead([{ operator: 'in', operand: 'all' }])).toBe(true);
  });

  it('leaves messages unread in every other view', () => {
    const others = [
      [{ operator: 'sender', operand: 7 }],
      [{ operator: 'from', operand: 'mel@example.com' }],
      [{ operator: 'search', operand: 'x' }],
      [is('starred')],
      [is('mentioned')],
      [is('alerted')],
      [is('unread')],
      [is('followed')],
      [is('muted')],
      [is('resolved', true)],
      [{ operator: 'has', operand: 'link' }],
      [{ operator: 'dm-including', operand: 7 }],
      [{ operator: 'channels', operand: 'public' }],
      [{ operator: 'channel', operand: 5, negated: true }],
      [{ operator: 'topic', operand: 'a' }],
      [
        { operator: 'channel', operand: 5 },
        { operator: 'sender', operand: 7 },
      ],
      [
        { operator: 'channel', operand: 5 },
        { operator: 'topic', operand: 'a' },
        { operator: 'near', operand: 9 },
      ],
      [
        { operator: 'dm', operand: [7] },
        { operator: 'search', operand: 'x' },
      ],
      [{ operator: 'dm', operand: [7] }, is('unread')],
    ];
    for (const narrow of others) {
      expect(narrowMarksRead(narrow), JSON.stringify(narrow)).toBe(false);
    }
  });

  it('opens at the first unread where it marks read and in is: views but starred', () => {
    expect(opensAtFirstUnread([{ operator: 'channel', operand: 5 }])).toBe(true);
    expect(opensAtFirstUnread([is('mentioned')])).toBe(true);
    expect(opensAtFirstUnread([is('unread')])).toBe(true);
    expect(opensAtFirstUnread([is('starred')])).toBe(false);
    expect(opensAtFirstUnread([{ operator: 'sender', operand: 7 }])).toBe(false);
    expect(opensAtFirstUnread([{ operator: 'search', operand: 'x' }])).toBe(false);
  });
});

describe('narrowFollowingMessage', () => {
  const linked = [
    { operator: 'channel', operand: 5 },
    { operator: 'topic', operand: 'lunch' },
    { operator: 'with', operand: 42 },
  ];

  it('keeps a narrow whose message is still there (topics compare without case)', () => {
    expect(narrowFollowingMessage(linked, channelMessage('Lunch'), state)).toBe(linked);
  });

  it('moves to the channel and topic the message is in now', () => {
    expect(
      narrowFollowingMessage(linked, channelMessage('dinner', { stream_id: 6 }), state),
    ).toEqual([
      { operator: 'channel', operand: 6 },
      { operator: 'topic', operand: 'dinner' },
      { operator: 'with', operand: 42 },
    ]);
    // A bare `with` gets its conversation.
    expect(
      narrowFollowingMessage([{ operator: 'with', operand: 42 }], channelMessage('lunch'), state),
    ).toEqual(linked);
  });

  it('gives direct messages their conversation without you', () => {
    const dmLink = [
      { operator: 'dm', operand: [ME, ALICE] },
      { operator: 'with', operand: 42 },
    ];
    expect(narrowFollowingMessage(dmLink, dmMessage([ME, ALICE]), state)).toBe(dmLink);
    expect(narrowFollowingMessage(linked, dmMessage([ME, BOB]), state)).toEqual([
      { operator: 'dm', operand: [BOB] },
      { operator: 'with', operand: 42 },
    ]);
  });

  it('treats `with` as an anchor when matching, so the list takes live messages', () => {
    expect(narrowIsLocal(linked)).toBe(true);
    expect(messageMatchesNarrow(channelMessage('lunch', { id: 50 }), linked, state)).toBe(true);
    expect(messageMatchesNarrow(channelMessage('other', { id: 50 }), linked, state)).toBe(false);
  });
});
