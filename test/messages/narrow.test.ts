import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../server/core/errors.js';
import { setFlagRow } from '../../server/db/queries/flags.js';
import { narrowQuery, windowSql } from '../../server/db/queries/message-search.js';
import { setUserTopicPolicy, VisibilityPolicy } from '../../server/db/queries/user-topics.js';
import { userById } from '../../server/db/queries/users.js';
import {
  fetchMessageWindow,
  messageEventMatchesNarrow,
  messageMatchesNarrow,
  parseNarrow,
} from '../../server/narrow/index.js';
import { Flag } from '../../server/shared/flags.js';
import { Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let extra: Account;
let design: number;
let ops: number;
type Key =
  | 'd1'
  | 'd2'
  | 'd3'
  | 'o1'
  | 'o2'
  | 'pics'
  | 'lone'
  | 'dmMA'
  | 'dmAM'
  | 'dmSelf'
  | 'dmGroup'
  | 'dmOther';
const ids = {} as Record<Key, number>;

const send = (who: FixtureName, to: string, topic: string, content: string) =>
  sendToChannel(t, who, to, topic, content, { read_by_sender: true });

// The legacy type name, as older clients send it.
const dm = (who: FixtureName, to: number[], content: string) =>
  sendDirect(t, who, to, content, { type: 'private', read_by_sender: true });

/** Ids of everything the member sees in this narrow. */
async function narrowIds(narrow: unknown, who: FixtureName = 'member'): Promise<number[]> {
  const res = await t.as(who).get('/messages', { anchor: 'newest', num_before: 1000, narrow });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.map((m: { id: number }) => m.id);
}

async function narrowError(narrow: unknown): Promise<string> {
  const res = await t.as('member').get('/messages', { anchor: 'newest', num_before: 10, narrow });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('BAD_REQUEST');
  return res.body.msg;
}

/** Zulip's BadNarrowOperatorError: BAD_NARROW, with the description in `desc`. */
async function badNarrow(narrow: unknown): Promise<string> {
  const res = await t.as('member').get('/messages', { anchor: 'newest', num_before: 10, narrow });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('BAD_NARROW');
  expect(res.body.msg).toBe(`Invalid narrow operator: ${res.body.desc}`);
  return res.body.msg;
}

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  extra = await t.createMember('Xavier Extra');
  design = createChannel(t, { name: 'Design', subscribers: [a.owner.id, a.admin.id, a.member.id] });
  ops = createChannel(t, { name: 'ops', subscribers: [a.owner.id, a.admin.id, a.member.id] });
  ids.d1 = await send('owner', 'Design', 'Topic One', 'see https://example.com for details');
  ids.d2 = await send('admin', 'Design', 'topic one', '@**Mel Member** please look');
  ids.d3 = await send('member', 'Design', '✔ done', 'resolved stuff');
  ids.o1 = await send('admin', 'ops', 'alerts', 'the servers are hot, searching for coffee');
  ids.o2 = await send('owner', 'ops', 'alerts', '@**all** wildcard time');
  ids.pics = await send('owner', 'Design', 'pics', 'a picture <b>here</b>');
  ids.dmMA = await dm('member', [a.admin.id], 'hi admin');
  ids.dmAM = await dm('admin', [a.member.id], 'hi member');
  ids.dmSelf = await dm('member', [a.member.id], 'note to self');
  ids.dmGroup = await dm('owner', [a.admin.id, a.member.id], 'group hello');
  ids.dmOther = await dm('owner', [extra.id], 'not for the member');
  const db = t.server.ctx.db;
  db.prepare('UPDATE messages SET has_image = 1 WHERE id = ?').run(ids.pics);
  db.prepare(
    `INSERT INTO reactions (message_id, user_id, reaction_type, emoji_code, emoji_name, id)
     VALUES (?, ?, 'unicode_emoji', '1f44d', '+1', 1)`,
  ).run(ids.o1, a.admin.id);
  setFlagRow(db, a.member.id, ids.o1, Flag.starred);
  // Sending follows topics automatically; start from known preferences instead.
  db.prepare('DELETE FROM user_topics WHERE user_id = ?').run(a.member.id);
  setUserTopicPolicy(db, {
    userId: a.member.id,
    streamId: ops,
    topic: 'alerts',
    policy: VisibilityPolicy.followed,
    now: 0,
  });
  setUserTopicPolicy(db, {
    userId: a.member.id,
    streamId: design,
    topic: 'pics',
    policy: VisibilityPolicy.muted,
    now: 0,
  });
});
afterAll(() => t.close());

describe('narrow operators', () => {
  it('channel and stream, by name (any case) or id, negatable', async () => {
    const inDesign = [ids.d1, ids.d2, ids.d3, ids.pics];
    expect(await narrowIds([['stream', 'design']])).toEqual(inDesign);
    expect(await narrowIds([{ operator: 'channel', operand: design }])).toEqual(inDesign);
    expect(await narrowIds([{ operator: 'stream', operand: 'Design', negated: true }])).toEqual([
      ids.o1,
      ids.o2,
      ids.dmMA,
      ids.dmAM,
      ids.dmSelf,
      ids.dmGroup,
    ]);
  });

  it('topic is case-insensitive', async () => {
    expect(
      await narrowIds([
        ['stream', 'Design'],
        ['topic', 'TOPIC ONE'],
      ]),
    ).toEqual([ids.d1, ids.d2]);
    expect(
      await narrowIds([
        ['stream', 'Design'],
        { operator: 'topic', operand: 'topic one', negated: true },
      ]),
    ).toEqual([ids.d3, ids.pics]);
  });

  it('sender by id, e-mail or "me"', async () => {
    const a = t.accounts;
    expect(await narrowIds([{ operator: 'sender', operand: a.admin.id }])).toEqual([
      ids.d2,
      ids.o1,
      ids.dmAM,
    ]);
    expect(await narrowIds([['sender', 'ADMIN@example.com']])).toEqual([ids.d2, ids.o1, ids.dmAM]);
    expect(await narrowIds([['sender', 'me']])).toEqual([ids.d3, ids.dmMA, ids.dmSelf]);
  });

  it('dm: an exact conversation by ids or e-mails, a note to self, legacy pm-with', async () => {
    const a = t.accounts;
    expect(await narrowIds([{ operator: 'dm', operand: [a.admin.id] }])).toEqual([
      ids.dmMA,
      ids.dmAM,
    ]);
    expect(await narrowIds([['pm-with', 'admin@example.com']])).toEqual([ids.dmMA, ids.dmAM]);
    expect(await narrowIds([{ operator: 'dm', operand: [a.member.id] }])).toEqual([ids.dmSelf]);
    expect(await narrowIds([['pm-with', 'owner@example.com, admin@example.com']])).toEqual([
      ids.dmGroup,
    ]);
    expect(await narrowIds([{ operator: 'dm', operand: [extra.id] }])).toEqual([]);
    // Another member's conversations stay invisible whatever the narrow.
    expect(await narrowIds([{ operator: 'dm', operand: [extra.id] }], 'owner')).toEqual([
      ids.dmOther,
    ]);
  });

  it('dm-including and group-pm-with', async () => {
    const a = t.accounts;
    expect(await narrowIds([{ operator: 'dm-including', operand: a.admin.id }])).toEqual([
      ids.dmMA,
      ids.dmAM,
      ids.dmGroup,
    ]);
    expect(await narrowIds([['group-pm-with', 'admin@example.com']])).toEqual([ids.dmGroup]);
    expect(await narrowIds([{ operator: 'dm-including', operand: a.member.id }])).toEqual([
      ids.dmMA,
      ids.dmAM,
      ids.dmSelf,
      ids.dmGroup,
    ]);
  });

  it('is:dm, is:private', async () => {
    const all = [ids.dmMA, ids.dmAM, ids.dmSelf, ids.dmGroup];
    expect(await narrowIds([['is', 'dm']])).toEqual(all);
    expect(await narrowIds([['is', 'private']])).toEqual(all);
  });

  it('is:starred, is:mentioned (wildcards too), is:followed, is:muted, is:resolved', async () => {
    expect(await narrowIds([['is', 'starred']])).toEqual([ids.o1]);
    expect(await narrowIds([['is', 'mentioned']])).toEqual([ids.d2, ids.o2]);
    expect(await narrowIds([['is', 'followed']])).toEqual([ids.o1, ids.o2]);
    expect(await narrowIds([['is', 'muted']])).toEqual([ids.pics]);
    expect(await narrowIds([['is', 'resolved']])).toEqual([ids.d3]);
    expect(
      await narrowIds([
        ['stream', 'Design'],
        { operator: 'is', operand: 'resolved', negated: true },
      ]),
    ).toEqual([ids.d1, ids.d2, ids.pics]);
    expect(
      await narrowIds([
        ['stream', 'Design'],
        ['in', 'home'],
      ]),
    ).toEqual([ids.d1, ids.d2, ids.d3]);
  });

  it('a muted channel hides its topics from is:muted unless unmuted or followed', async () => {
    const db = t.server.ctx.db;
    db.prepare('UPDATE subscriptions SET is_muted = 1 WHERE stream_id = ? AND user_id = ?').run(
      ops,
      t.accounts.member.id,
    );
    // alerts is followed, so only the muted topic counts.
    expect(await narrowIds([['is', 'muted']])).toEqual([ids.pics]);
    ids.lone = await send('owner', 'ops', 'quiet', 'nobody follows this');
    expect(await narrowIds([['is', 'muted']])).toEqual([ids.pics, ids.lone]);
    db.prepare('UPDATE subscriptions SET is_muted = 0 WHERE stream_id = ? AND user_id = ?').run(
      ops,
      t.accounts.member.id,
    );
    expect(await narrowIds([['is', 'muted']])).toEqual([ids.pics]);
  });

  it('is:unread follows the watermark', async () => {
    const unread = await narrowIds([['is', 'unread']]);
    // Subscribed before any message: everything from others is unread, own messages are read.
    expect(unread).toContain(ids.d1);
    expect(unread).not.toContain(ids.d3);
    expect(unread).not.toContain(ids.dmSelf);
    // The starred override row carries no read bit.
    expect(unread).toContain(ids.o1);
  });

  it('id, near and has:*', async () => {
    expect(await narrowIds([['id', String(ids.d2)]])).toEqual([ids.d2]);
    expect(
      await narrowIds([{ operator: 'id', operand: ids.d2, negated: true }, ['stream', 'Design']]),
    ).toEqual([ids.d1, ids.d3, ids.pics]);
    // near anchors and filters nothing.
    const near = await t.as('member').get('/messages', {
      narrow: [
        ['stream', 'Design'],
        ['near', String(ids.d2)],
      ],
      num_before: 1,
      num_after: 1,
    });
    expect(near.body.anchor).toBe(ids.d2);
    expect(near.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.d1, ids.d2, ids.d3]);
    expect(await narrowIds([['has', 'link']])).toEqual([ids.d1]);
    expect(await narrowIds([['has', 'image']])).toEqual([ids.pics]);
    expect(await narrowIds([['has', 'reaction']])).toEqual([ids.o1]);
    expect(await narrowIds([['has', 'attachment']])).toEqual([]);
  });

  it('search: words (AND), prefix of the last word, phrases, topics, with highlights', async () => {
    const res = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['search', 'coffee SERV']],
    });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.o1]);
    expect(res.body.messages[0].match_content).toBe(
      '<p>the <span class="highlight">servers</span> are hot, searching for <span class="highlight">coffee</span></p>',
    );
    expect(res.body.messages[0].match_subject).toBe('alerts');
    expect(await narrowIds([['search', 'alerts']])).toEqual([ids.o1, ids.o2]);
    const topic = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['search', 'alerts']],
    });
    expect(topic.body.messages[0].match_subject).toBe('<span class="highlight">alerts</span>');
    expect(await narrowIds([['search', '"servers are"']])).toEqual([ids.o1]);
    expect(await narrowIds([['search', '"are servers"']])).toEqual([]);
    expect(await narrowIds([['search', 'coffee tea ']])).toEqual([]);
    expect(await narrowIds([['search', '!!!']])).toEqual([]);
    expect(
      await narrowIds([
        ['stream', 'ops'],
        { operator: 'search', operand: 'coffee', negated: true },
      ]),
    ).toEqual([ids.o2, ids.lone]);
  });

  it('search combines with every other kind of term, from either side of an anchor', async () => {
    // Driven by the search index (no conversation term) with the rest of the
    // narrow checked per match: both parts carry their own parameters.
    expect(
      await narrowIds([
        ['search', 'alerts'],
        ['has', 'reaction'],
      ]),
    ).toEqual([ids.o1]);
    expect(
      await narrowIds([
        ['search', 'alerts'],
        ['sender', t.accounts.owner.email],
      ]),
    ).toEqual([ids.o2]);
    expect(
      await narrowIds([
        ['search', 'alerts'],
        ['stream', 'ops'],
        ['is', 'starred'],
      ]),
    ).toEqual([ids.o1]);
    expect(
      await narrowIds([
        ['search', 'alerts'],
        ['search', 'wildcard'],
      ]),
    ).toEqual([ids.o2]);
    expect(
      await narrowIds([
        ['search', 'alerts'],
        { operator: 'search', operand: 'coffee', negated: true },
      ]),
    ).toEqual([ids.o2]);
    expect(await narrowIds([['search', 'hi']])).toEqual([ids.dmMA, ids.dmAM]);
    expect(await narrowIds([['search', 'not for']])).toEqual([]);
    const after = await t.as('member').get('/messages', {
      anchor: ids.o1,
      num_before: 0,
      num_after: 10,
      narrow: [['search', 'alerts']],
    });
    expect(after.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.o1, ids.o2]);
    expect(after.body).toMatchObject({ found_anchor: true, found_newest: true });
    const before = await t.as('member').get('/messages', {
      anchor: ids.o2,
      num_before: 1,
      num_after: 0,
      narrow: [['search', 'alerts']],
    });
    expect(before.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.o1, ids.o2]);
  });

  it('search never highlights inside tags', async () => {
    const res = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['search', 'picture b']],
    });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.pics]);
    expect(res.body.messages[0].match_content).not.toContain('<<span');
    expect(res.body.messages[0].match_content).toContain('<span class="highlight">picture</span>');
  });

  it("with:<id> narrows to that message's conversation", async () => {
    expect(await narrowIds([{ operator: 'with', operand: ids.d2 }, ['stream', 'ops']])).toEqual([
      ids.d1,
      ids.d2,
    ]);
    expect(await narrowIds([['with', String(ids.dmAM)]])).toEqual([ids.dmMA, ids.dmAM]);
    // A message one cannot read leaves a narrow that names a conversation alone ...
    expect(
      await narrowIds([
        ['with', String(ids.dmOther)],
        { operator: 'dm', operand: [t.accounts.admin.id] },
      ]),
    ).toEqual([ids.dmMA, ids.dmAM]);
    // ... and any other narrow is refused.
    expect(
      await badNarrow([
        ['with', String(ids.dmOther)],
        ['is', 'dm'],
      ]),
    ).toBe("Invalid narrow operator: Invalid 'with' operator");
  });

  it('first_unread skips muted channels and topics except inside that channel', async () => {
    const db = t.server.ctx.db;
    const member = t.accounts.member.id;
    const first = async (narrow: unknown) =>
      (await t.as('member').get('/messages', { anchor: 'first_unread', narrow })).body.anchor;
    const setReadThrough = (stream: number, id: number) =>
      db
        .prepare('UPDATE subscriptions SET read_through = ? WHERE stream_id = ? AND user_id = ?')
        .run(id, stream, member);
    setReadThrough(design, ids.pics); // all of Design read
    db.prepare('UPDATE dm_group_members SET read_through = 1000000 WHERE user_id = ?').run(member);
    db.prepare('DELETE FROM user_message_flags WHERE user_id = ?').run(member);
    expect(await first([])).toBe(ids.o1);
    db.prepare('UPDATE subscriptions SET is_muted = 1 WHERE stream_id = ? AND user_id = ?').run(
      ops,
      member,
    );
    // alerts is followed, so it stays in; a plain topic of the muted channel does not.
    db.prepare('DELETE FROM user_topics WHERE user_id = ? AND stream_id = ?').run(member, ops);
    expect(await first([])).toBe(10_000_000_000_000_000);
    expect(await first([['stream', 'ops']])).toBe(ids.o1);
    db.prepare('UPDATE subscriptions SET is_muted = 0 WHERE stream_id = ? AND user_id = ?').run(
      ops,
      member,
    );
    setUserTopicPolicy(db, {
      userId: member,
      streamId: ops,
      topic: 'alerts',
      policy: VisibilityPolicy.muted,
      now: 0,
    });
    expect(await first([])).toBe(ids.lone);
    expect(
      await first([
        ['stream', 'ops'],
        ['topic', 'alerts'],
      ]),
    ).toBe(10_000_000_000_000_000);
  });

  it('combines operators with AND', async () => {
    expect(
      await narrowIds([
        ['stream', 'ops'],
        ['sender', 'owner@example.com'],
        ['search', 'wildcard'],
      ]),
    ).toEqual([ids.o2]);
  });
});

describe('narrow errors', () => {
  it('rejects unknown operators and operands with Zulip messages', async () => {
    expect(await badNarrow([['foo', 'bar']])).toBe('Invalid narrow operator: unknown operator foo');
    expect(await badNarrow([{ operator: 'is', operand: 'shiny' }])).toBe(
      "Invalid narrow operator: unknown 'is' operand shiny",
    );
    expect(await badNarrow([['has', 'gif']])).toBe(
      "Invalid narrow operator: unknown 'has' operand gif",
    );
    expect(await badNarrow([['in', 'somewhere']])).toBe(
      "Invalid narrow operator: unknown 'in' operand somewhere",
    );
    expect(await badNarrow([['channels', 'private']])).toBe(
      'Invalid narrow operator: unknown channels operand private',
    );
    expect(await badNarrow([['id', 'abc']])).toBe('Invalid narrow operator: Invalid message ID');
    expect(await badNarrow([['stream', 'nowhere']])).toBe(
      'Invalid narrow operator: unknown channel nowhere',
    );
    expect(await badNarrow([['sender', 'ghost@example.com']])).toBe(
      'Invalid narrow operator: unknown user ghost@example.com',
    );
    expect(await badNarrow([{ operator: 'dm', operand: [999999] }])).toBe(
      'Invalid narrow operator: unknown user in [999999]',
    );
  });

  it('rejects malformed terms', async () => {
    expect(await narrowError([{ operator: 'search', operand: '  ' }])).toBe(
      'operand cannot be blank.',
    );
    expect(await narrowError([{ operator: 'topic', operand: 5 }])).toBe('operand is not a string');
    expect(await narrowError([{ operator: 'dm', operand: { a: 1 } }])).toBe(
      'operand is not a string or an integer list',
    );
    expect(await narrowError([{ operator: 'dm', operand: ['x'] }])).toBe(
      'operand[0] is not an integer',
    );
    expect(await narrowError([{ operator: 'topic' }])).toBe(
      'Invalid narrow[0]: operand is missing',
    );
    expect(await narrowError([{ operand: 'x' }])).toBe('Invalid narrow[0]: operator is missing');
    expect(await narrowError([['stream']])).toBe('Invalid narrow[0]: element is not a string pair');
    expect(await narrowError(['stream'])).toBe('Invalid narrow[0]: dict or list required');
    expect(await narrowError([{ operator: 'is', operand: 'dm', negated: 'yes' }])).toBe(
      'negated is not a boolean',
    );
    expect(await narrowError('not json')).toBe('narrow is not valid JSON');
  });
});

describe('the exported narrow API', () => {
  it('parseNarrow canonicalizes both forms', () => {
    expect(
      parseNarrow([['stream', 'x'], { operator: 'pm-with', operand: [1] }, ['is', 'private']]),
    ).toEqual([
      { operator: 'channel', operand: 'x', negated: false },
      { operator: 'dm', operand: [1], negated: false },
      { operator: 'is', operand: 'dm', negated: false },
    ]);
    expect(() => parseNarrow([['bogus', 'x']])).toThrow(ApiError);
  });

  it('fetchMessageWindow and messageMatchesNarrow work on the same engine', () => {
    const { ctx } = t.server;
    const member = userById(ctx.db, t.accounts.member.id)!;
    const window = fetchMessageWindow(ctx, member, {
      narrow: parseNarrow([['stream', 'Design']]),
      anchor: ids.d2,
      numBefore: 0,
      numAfter: 1,
      includeAnchor: false,
    });
    expect(window.rows.map((r) => r.id)).toEqual([ids.d3]);
    expect(window.foundAnchor).toBe(false);
    expect(window.foundNewest).toBe(false);
    const matched = messageMatchesNarrow(ctx, member, parseNarrow([['is', 'dm']]), [
      ids.d1,
      ids.dmMA,
      ids.dmOther,
    ]);
    expect([...matched]).toEqual([ids.dmMA]);
  });
});

describe('register narrows filter message events', () => {
  it('delivers only the matching messages to a narrowed queue', async () => {
    const watchers = new Watchers(t, { event_types: ['message'] });
    const narrows: Record<string, unknown[]> = {
      design: [['stream', 'design']],
      topic: [
        ['stream', 'Design'],
        ['topic', 'NEWS'],
      ],
      dms: [['is', 'private']],
      mentioned: [['is', 'mentioned']],
      all: [],
    };
    for (const [name, narrow] of Object.entries(narrows)) {
      await watchers.add(name, 'member', { narrow });
    }
    const news = await send('owner', 'Design', 'news', 'fresh news');
    const opsMsg = await send('admin', 'ops', 'alerts', 'ops news for @**Mel Member**');
    const direct = await dm('owner', [t.accounts.member.id], 'psst');
    const received = Object.fromEntries(
      Object.entries(await watchers.take('message')).map(([name, events]) => [
        name,
        events.map((e) => e.message.id),
      ]),
    );
    expect(received).toEqual({
      design: [news],
      topic: [news],
      dms: [direct],
      mentioned: [opsMsg],
      all: [news, opsMsg, direct],
    });
  });

  it('the predicate reads the event message and flags', () => {
    const message = {
      type: 'stream',
      stream_id: 5,
      display_recipient: 'Design',
      subject: '✔ Done',
      sender_id: 2,
      sender_email: 'a@x.org',
    };
    const match = (narrow: unknown, flags: string[] = []) =>
      messageEventMatchesNarrow(parseNarrow(narrow), message, flags, 2);
    expect(
      match([
        ['stream', 'design'],
        ['topic', '✔ done'],
      ]),
    ).toBe(true);
    expect(
      match([
        ['is', 'resolved'],
        ['sender', 'me'],
      ]),
    ).toBe(true);
    expect(match([['is', 'unread']], ['read'])).toBe(false);
    expect(match([['is', 'starred']], ['starred'])).toBe(true);
    expect(match([['is', 'mentioned']], ['stream_wildcard_mentioned'])).toBe(true);
    expect(match([{ operator: 'is', operand: 'dm', negated: true }])).toBe(true);
    expect(match([['is', 'followed']])).toBe(true);
  });
});

describe('query plans', () => {
  const plan = (conditions: Parameters<typeof narrowQuery>[1]) => {
    const q = narrowQuery(
      { userId: 1, contentStreamIds: [1], historyStreamIds: [1], unreadFrom: 0 },
      conditions,
    );
    const rows = t.server.ctx.db.prepare(`EXPLAIN QUERY PLAN ${windowSql.upTo(q)}`).all({
      ...q.params,
      ...(q.search ? { fts_query: q.search.ftsQuery } : {}),
      bound: 100,
      limit: 100,
    }) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join('\n');
  };

  it('reads the newest messages of a topic, channel or DM from their index, unsorted', () => {
    const topic = plan([
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'topic', topicKey: 'x', negated: false },
    ]);
    expect(topic).toContain(
      'USING INDEX messages_by_stream_topic (stream_id=? AND topic_key=? AND id<?)',
    );
    const channel = plan([{ kind: 'stream', streamId: 1, negated: false }]);
    expect(channel).toContain('USING INDEX messages_by_stream (stream_id=? AND id<?)');
    const direct = plan([{ kind: 'dmGroup', dmGroupId: 1, negated: false }]);
    expect(direct).toContain('USING INDEX messages_by_dm_group (dm_group_id=? AND id<?)');
    const all = plan([]);
    expect(all).toContain('USING INTEGER PRIMARY KEY (rowid<?)');
    for (const p of [topic, channel, direct, all]) expect(p).not.toContain('TEMP B-TREE');
  });

  it('walks the search index newest first, a channel or topic listing its ids per stretch', () => {
    const search = { kind: 'search', ftsQuery: '"release"', negated: false } as const;
    const alone = plan([search]);
    expect(alone.split('\n')[0]).toContain('SCAN messages_fts VIRTUAL TABLE');
    expect(alone).not.toContain('TEMP B-TREE');
    const stretchPlan = (conditions: Parameters<typeof narrowQuery>[1]) => {
      const q = narrowQuery(
        { userId: 1, contentStreamIds: [1], historyStreamIds: [1], unreadFrom: 0 },
        conditions,
      );
      expect(q.search?.driver).toBeDefined();
      const rows = t.server.ctx.db
        .prepare(`EXPLAIN QUERY PLAN ${windowSql.stretch(q, 'DESC')}`)
        .all({
          ...q.params,
          fts_query: q.search!.ftsQuery,
          lo: 1,
          hi: 100,
          limit: 100,
        }) as Array<{ detail: string }>;
      return rows.map((r) => r.detail).join('\n');
    };
    const channel = stretchPlan([{ kind: 'stream', streamId: 1, negated: false }, search]);
    expect(channel.split('\n')[0]).toContain('SCAN messages_fts VIRTUAL TABLE');
    expect(channel).toContain(
      'USING COVERING INDEX messages_by_stream (stream_id=? AND id>? AND id<?)',
    );
    const topic = stretchPlan([
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'topic', topicKey: 'x', negated: false },
      search,
    ]);
    expect(topic).toContain(
      'INDEX messages_by_stream_topic (stream_id=? AND topic_key=? AND id>? AND id<?)',
    );
    const link = stretchPlan([{ kind: 'hasColumn', column: 'has_link', negated: false }, search]);
    expect(link).toContain('INDEX messages_with_link (id>? AND id<?)');
    for (const p of [channel, topic, link]) expect(p).not.toContain('TEMP B-TREE');
  });

  it('walks has:link, has:image and has:attachment through their own index', () => {
    for (const column of ['has_link', 'has_image', 'has_attachment'] as const) {
      expect(plan([{ kind: 'hasColumn', column, negated: false }])).toContain(
        `USING INDEX messages_with_${column.slice(4)} (id<?)`,
      );
    }
  });
});
