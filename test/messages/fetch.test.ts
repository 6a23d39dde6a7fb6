import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFlagRow } from '../../server/db/queries/flags.js';
import { setUserTopicPolicy, VisibilityPolicy } from '../../server/db/queries/user-topics.js';
import { userById } from '../../server/db/queries/users.js';
import { getMessages } from '../../server/messages/fetch.js';
import { Flag } from '../../server/shared/flags.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

const NEWEST = 10_000_000_000_000_000;
const START = Date.UTC(2024, 0, 1, 12, 0, 0);

let clock = START;
let t: TestServer;
let reader: Account; // a member who reads the channels, for first_unread
type Key =
  | 'g1'
  | 'g2'
  | 'g3'
  | 'g4'
  | 'g5'
  | 'lounge1'
  | 'secretBefore'
  | 'secretAfter'
  | 'openBefore'
  | 'dm1';
const ids = {} as Record<Key, number>;
let general: number;
let secret: number;
let openPrivate: number;

/** Sends (read by the sender) and moves the clock a minute on. */
async function send(
  who: FixtureName | Account,
  to: string,
  topic: string,
  content: string,
): Promise<number> {
  const id = await sendToChannel(t, who, to, topic, content, { read_by_sender: true });
  clock += 60_000;
  return id;
}

async function dm(who: FixtureName | Account, to: number[], content: string): Promise<number> {
  const id = await sendDirect(t, who, to, content, { read_by_sender: true });
  clock += 60_000;
  return id;
}

const get = (who: FixtureName | Account, params: Record<string, unknown>) =>
  t.as(who).get('/messages', params);

const idsOf = (body: { messages: Array<{ id: number }> }) => body.messages.map((m) => m.id);

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  const a = t.accounts;
  reader = await t.createMember('Rita Reader');
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.guest.id, reader.id],
  });
  createChannel(t, { name: 'lounge', subscribers: [a.owner.id, a.admin.id] });
  secret = createChannel(t, {
    name: 'secret',
    private: true,
    historyPublic: false,
    subscribers: [a.admin.id],
  });
  openPrivate = createChannel(t, {
    name: 'open-private',
    private: true,
    historyPublic: true,
    subscribers: [a.admin.id],
  });

  ids.g1 = await send('owner', 'general', 'greetings', 'hello world');
  ids.g2 = await send('admin', 'general', 'greetings', 'second message');
  ids.lounge1 = await send('admin', 'lounge', 'chat', 'lounge talk');
  ids.secretBefore = await send('admin', 'secret', 'plans', 'before member joined');
  ids.openBefore = await send('admin', 'open-private', 'plans', 'history is public');
  // The member joins both private channels now: protected history hides the past.
  t.server.ctx.transaction(() => {
    const db = t.server.ctx.db;
    for (const stream of [secret, openPrivate]) {
      db.prepare(
        `INSERT INTO subscriptions (stream_id, user_id, active, color, read_through)
         VALUES (?, ?, 1, '#76ce90', (SELECT max(id) FROM messages))`,
      ).run(stream, a.member.id);
      db.prepare(
        `INSERT INTO subscription_periods (user_id, stream_id, first_message_id)
         VALUES (?, ?, (SELECT max(id) FROM messages) + 1)`,
      ).run(a.member.id, stream);
    }
  });
  ids.secretAfter = await send('admin', 'secret', 'plans', 'after member joined');
  ids.g3 = await send('owner', 'general', 'Muted Topic', 'in a muted topic');
  ids.g4 = await send('owner', 'general', 'greetings', 'third greeting');
  ids.dm1 = await dm('owner', [a.member.id], 'a private word');
  ids.g5 = await send('admin', 'general', 'greetings', 'last greeting');
});
afterAll(() => t.close());

describe('GET /messages anchors and windows', () => {
  it('anchor=newest returns the newest messages and the sentinel anchor', async () => {
    const res = await get('owner', {
      anchor: 'newest',
      num_before: 2,
      num_after: 0,
      narrow: [['stream', 'general']],
    });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([ids.g4, ids.g5]);
    expect(res.body.anchor).toBe(NEWEST);
    expect(res.body.found_newest).toBe(true);
    expect(res.body.found_oldest).toBe(false);
    expect(res.body.found_anchor).toBe(false);
    expect(res.body.history_limited).toBe(false);
  });

  it('anchor=oldest starts at the first message', async () => {
    const res = await get('owner', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 2,
      narrow: JSON.stringify([{ operator: 'channel', operand: general }]),
    });
    expect(idsOf(res.body)).toEqual([ids.g1, ids.g2]);
    expect(res.body.anchor).toBe(0);
    expect(res.body.found_oldest).toBe(true);
    expect(res.body.found_newest).toBe(false);
  });

  it('an id anchor takes num_before, the anchor and num_after', async () => {
    const narrow = [['stream', 'general']];
    const res = await get('owner', { anchor: String(ids.g3), num_before: 1, num_after: 1, narrow });
    expect(idsOf(res.body)).toEqual([ids.g2, ids.g3, ids.g4]);
    expect(res.body.anchor).toBe(ids.g3);
    expect(res.body.found_anchor).toBe(true);
    expect(res.body.found_oldest).toBe(false);
    expect(res.body.found_newest).toBe(false);

    const wide = await get('owner', { anchor: ids.g3, num_before: 10, num_after: 10, narrow });
    expect(idsOf(wide.body)).toEqual([ids.g1, ids.g2, ids.g3, ids.g4, ids.g5]);
    expect(wide.body.found_oldest).toBe(true);
    expect(wide.body.found_newest).toBe(true);

    // The anchor need not match: the window is around where it would be.
    const missing = await get('owner', {
      anchor: ids.lounge1,
      num_before: 1,
      num_after: 1,
      narrow,
    });
    expect(idsOf(missing.body)).toEqual([ids.g2, ids.g3]);
    expect(missing.body.found_anchor).toBe(false);
  });

  it('include_anchor=false excludes the anchor at one end', async () => {
    const narrow = [['stream', 'general']];
    const before = await get('owner', {
      anchor: ids.g3,
      num_before: 5,
      num_after: 0,
      include_anchor: false,
      narrow,
    });
    expect(idsOf(before.body)).toEqual([ids.g1, ids.g2]);
    expect(before.body.found_anchor).toBe(false);
    const after = await get('owner', {
      anchor: ids.g3,
      num_before: 0,
      num_after: 1,
      include_anchor: false,
      narrow,
    });
    expect(idsOf(after.body)).toEqual([ids.g4]);
    const both = await get('owner', {
      anchor: ids.g3,
      num_before: 1,
      num_after: 1,
      include_anchor: false,
      narrow,
    });
    expect(both.status).toBe(400);
    expect(both.body.msg).toBe('The anchor can only be excluded at an end of the range');
  });

  it('accepts anchors above the newest id, as zulip-terminal and zulip-js send them', async () => {
    const zt = await get('owner', { anchor: '10000000000000000', num_before: 1, num_after: 0 });
    expect(zt.body.anchor).toBe(NEWEST);
    expect(idsOf(zt.body)).toEqual([ids.g5]);
    expect(zt.body.found_newest).toBe(true);
    const huge = await get('owner', { anchor: '99999999999999999999', num_before: 1 });
    expect(huge.body.anchor).toBe(NEWEST);
    const js = await get('owner', { anchor: 1000000000, num_before: 1, num_after: 5 });
    expect(js.body.anchor).toBe(1000000000);
    expect(idsOf(js.body)).toEqual([ids.g5]);
    expect(js.body.found_newest).toBe(true);
    const negative = await get('owner', { anchor: -5, num_after: 1 });
    expect(negative.body.anchor).toBe(0);
    expect(idsOf(negative.body)).toEqual([ids.g1]);
  });

  it('anchors at a date: the first message sent at or after it', async () => {
    const sentG2 = new Date(START + 60_000).toISOString(); // g2 was sent one minute after g1
    const res = await get('owner', {
      anchor: sentG2,
      num_before: 1,
      num_after: 1,
      narrow: [['stream', 'general']],
    });
    expect(res.body.anchor).toBe(ids.g2);
    expect(idsOf(res.body)).toEqual([ids.g1, ids.g2, ids.g3]);
    const day = await get('owner', { anchor: '2024-01-01', num_after: 1 });
    expect(day.body.anchor).toBe(ids.g1);
    const future = await get('owner', { anchor: '2999-01-01T00:00:00Z', num_before: 1 });
    expect(future.body.anchor).toBe(NEWEST);
  });

  it('first_unread: the oldest unread outside muted topics, else newest', async () => {
    const db = t.server.ctx.db;
    // Rita has read general through g2; g3 is in a topic she muted.
    db.prepare('UPDATE subscriptions SET read_through = ? WHERE user_id = ? AND stream_id = ?').run(
      ids.g2,
      reader.id,
      general,
    );
    setUserTopicPolicy(db, {
      userId: reader.id,
      streamId: general,
      topic: 'muted topic',
      policy: VisibilityPolicy.muted,
      now: 0,
    });
    const res = await get(reader, { anchor: 'first_unread', num_before: 1, num_after: 1 });
    expect(res.body.anchor).toBe(ids.g4);
    expect(idsOf(res.body)).toEqual([ids.g3, ids.g4, ids.g5]);
    expect(res.body.found_anchor).toBe(true);

    // zulip-terminal's first request.
    const zt = await get(reader, {
      anchor: 0,
      num_before: 30,
      num_after: 10,
      use_first_unread_anchor: true,
      apply_markdown: true,
      client_gravatar: true,
      narrow: '[]',
    });
    expect(zt.body.anchor).toBe(ids.g4);

    // Nothing unread: newest.
    db.prepare('UPDATE subscriptions SET read_through = ? WHERE user_id = ? AND stream_id = ?').run(
      ids.g5,
      reader.id,
      general,
    );
    const none = await get(reader, { anchor: 'first_unread', num_before: 2, num_after: 2 });
    expect(none.body.anchor).toBe(NEWEST);
    expect(idsOf(none.body)).toEqual([ids.g4, ids.g5]);

    // An unread override row below the watermark counts.
    setFlagRow(db, reader.id, ids.g2, 0);
    const marked = await get(reader, { anchor: 'first_unread', num_before: 0, num_after: 0 });
    expect(marked.body.anchor).toBe(ids.g2);
    expect(idsOf(marked.body)).toEqual([ids.g2]);
  });

  it('rejects bad parameters with Zulip messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ num_before: 1 }, "Missing 'anchor' argument."],
      [{ anchor: 'sideways' }, 'Invalid anchor'],
      [
        { anchor: 'newest', num_before: 4000, num_after: 1001 },
        'Too many messages requested (maximum 5000).',
      ],
      [{ anchor: 'newest', num_before: -1 }, 'num_before is too small'],
      [{ anchor: 'newest', num_after: 'x' }, 'num_after is not valid JSON'],
      [
        { anchor: 'newest', message_ids: [ids.g1] },
        'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
      ],
      [{ anchor: 'newest', narrow: '{}' }, 'narrow is not a list'],
    ];
    for (const [params, msg] of cases) {
      const res = await get('owner', params);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    // 5001 ids do not fit in a query string; the action applies the same cap.
    const owner = userById(t.server.ctx.db, t.accounts.owner.id)!;
    expect(() =>
      getMessages(t.server.ctx, owner, {
        anchor: undefined,
        numBefore: undefined,
        numAfter: undefined,
        includeAnchor: undefined,
        useFirstUnreadAnchor: undefined,
        narrow: [],
        messageIds: Array.from({ length: 5001 }, (_, i) => i + 1),
        applyMarkdown: true,
        allowEmptyTopicName: false,
      }),
    ).toThrow('Too many messages requested (maximum 5000).');
    const incompatible = await get('owner', { num_after: 1, message_ids: [ids.g1] });
    expect(incompatible.body.parameters).toContain('message_ids');
  });

  it('message_ids returns the received ones among them, without anchor fields', async () => {
    const res = await get('member', {
      message_ids: [ids.g1, ids.lounge1, ids.secretBefore, ids.dm1, 999999],
    });
    expect(res.status).toBe(200);
    // As in Zulip, without a channel narrow only received messages count.
    expect(idsOf(res.body)).toEqual([ids.g1, ids.dm1]);
    const lounge = await get('member', {
      message_ids: [ids.g1, ids.lounge1],
      narrow: [['stream', 'lounge']],
    });
    expect(idsOf(lounge.body)).toEqual([ids.lounge1]);
    expect(res.body.anchor).toBeUndefined();
    expect(res.body.found_anchor).toBe(false);
    expect(res.body.found_newest).toBe(false);
    const narrowed = await get('member', {
      message_ids: [ids.g1, ids.dm1],
      narrow: [['is', 'private']],
    });
    expect(idsOf(narrowed.body)).toEqual([ids.dm1]);
  });
});

describe('GET /messages access', () => {
  it('the combined feed holds received messages only; a channel narrow adds its history', async () => {
    const feed = await get('member', { anchor: 'newest', num_before: 100 });
    expect(idsOf(feed.body)).toEqual([
      ids.g1,
      ids.g2,
      ids.secretAfter,
      ids.g3,
      ids.g4,
      ids.dm1,
      ids.g5,
    ]);
    const lounge = await get('member', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['stream', 'lounge']],
    });
    expect(idsOf(lounge.body)).toEqual([ids.lounge1]);
    expect(lounge.body.messages[0].flags).toEqual(['read', 'historical']);
  });

  it('protected history shows only messages received; public history shows all', async () => {
    const secretRes = await get('member', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['stream', 'secret']],
    });
    expect(idsOf(secretRes.body)).toEqual([ids.secretAfter]);
    const open = await get('member', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['stream', 'open-private']],
    });
    expect(idsOf(open.body)).toEqual([ids.openBefore]);
  });

  it('a private channel one cannot see is an unknown channel', async () => {
    const res = await get('moderator', { anchor: 'newest', narrow: [['stream', 'secret']] });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid narrow operator: unknown channel secret');
    // An administrator knows the channel exists but cannot read it unsubscribed.
    const admin = await get('owner', {
      anchor: 'newest',
      num_before: 10,
      narrow: [{ operator: 'channel', operand: secret }],
    });
    expect(admin.status).toBe(200);
    expect(idsOf(admin.body)).toEqual([]);
  });

  it('a guest sees only the channels it is subscribed to', async () => {
    const feed = await get('guest', { anchor: 'newest', num_before: 100 });
    expect(
      idsOf(feed.body).every((id) => [ids.g1, ids.g2, ids.g3, ids.g4, ids.g5].includes(id)),
    ).toBe(true);
    const lounge = await get('guest', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['stream', 'lounge']],
    });
    expect(lounge.status).toBe(400);
    const publicOnes = await get('guest', {
      anchor: 'newest',
      num_before: 10,
      narrow: [['streams', 'public']],
    });
    // Only what it received there: no public history for guests.
    expect(idsOf(publicOnes.body)).toEqual(idsOf(feed.body));
  });

  it('channels:public brings public history to members', async () => {
    const res = await get('member', {
      anchor: 'newest',
      num_before: 100,
      narrow: [{ operator: 'channels', operand: 'public' }],
    });
    expect(idsOf(res.body)).toEqual([ids.g1, ids.g2, ids.lounge1, ids.g3, ids.g4, ids.g5]);
  });
});

describe('message objects', () => {
  it('carries the full dict with flags, and raw markdown without apply_markdown', async () => {
    const res = await get('member', {
      anchor: ids.dm1,
      num_before: 0,
      num_after: 0,
    });
    const [message] = res.body.messages;
    expect(message).toMatchObject({
      id: ids.dm1,
      type: 'private',
      sender_id: t.accounts.owner.id,
      sender_full_name: 'Olivia Owner',
      content: '<p>a private word</p>',
      content_type: 'text/html',
      subject: '',
      flags: [],
      reactions: [],
      submessages: [],
      topic_links: [],
    });
    expect(message.display_recipient.map((r: { id: number }) => r.id)).toEqual(
      [t.accounts.owner.id, t.accounts.member.id].sort((a, b) => a - b),
    );
    const raw = await get('member', { anchor: ids.g1, num_after: 0, apply_markdown: false });
    expect(raw.body.messages[0]).toMatchObject({
      content: 'hello world',
      content_type: 'text/x-markdown',
      display_recipient: 'general',
      stream_id: general,
      subject: 'greetings',
    });
  });

  it('adds edit_history for edited messages as the organization allows', async () => {
    const db = t.server.ctx.db;
    db.prepare('UPDATE messages SET last_edit_time = ?, last_moved_time = ? WHERE id = ?').run(
      1_700_000_100,
      1_700_000_200,
      ids.g2,
    );
    db.prepare(
      `INSERT INTO message_edits (message_id, user_id, timestamp, prev_content, prev_rendered_content, topic)
       VALUES (?, ?, 1700000100, 'old text', '<p>old text</p>', 'greetings')`,
    ).run(ids.g2, t.accounts.admin.id);
    db.prepare(
      `INSERT INTO message_edits (message_id, user_id, timestamp, prev_topic, topic)
       VALUES (?, ?, 1700000200, 'hello', 'greetings')`,
    ).run(ids.g2, t.accounts.admin.id);
    const fetch = async () =>
      (await get('member', { anchor: ids.g2, num_after: 0 })).body.messages[0];
    let message = await fetch();
    expect(message.last_edit_timestamp).toBe(1_700_000_100);
    expect(message.edit_history).toEqual([
      {
        timestamp: 1_700_000_200,
        user_id: t.accounts.admin.id,
        prev_topic: 'hello',
        topic: 'greetings',
      },
      {
        timestamp: 1_700_000_100,
        user_id: t.accounts.admin.id,
        prev_content: 'old text',
        prev_rendered_content: '<p>old text</p>',
      },
    ]);
    const setPolicy = (policy: string) =>
      db
        .prepare(
          "UPDATE realm SET settings = json_set(settings, '$.message_edit_history_visibility_policy', ?)",
        )
        .run(policy);
    setPolicy('moves');
    message = await fetch();
    expect(message.edit_history).toEqual([
      {
        timestamp: 1_700_000_200,
        user_id: t.accounts.admin.id,
        prev_topic: 'hello',
        topic: 'greetings',
      },
    ]);
    setPolicy('none');
    message = await fetch();
    expect(message.edit_history).toBeUndefined();
    expect(message.last_edit_timestamp).toBe(1_700_000_100);
    setPolicy('all');
  });

  it('shows the empty topic as the display name unless allowed', async () => {
    const id = await send('owner', 'general', '', 'no topic here');
    const shown = await get('owner', { anchor: id, num_after: 0 });
    expect(shown.body.messages[0].subject).toBe('general chat');
    const raw = await get('owner', { anchor: id, num_after: 0, allow_empty_topic_name: true });
    expect(raw.body.messages[0].subject).toBe('');
    const byName = await get('owner', {
      anchor: 'newest',
      num_before: 5,
      narrow: [
        ['stream', 'general'],
        ['topic', 'general chat'],
      ],
    });
    expect(idsOf(byName.body)).toEqual([id]);
  });
});

describe('GET /messages/{message_id}', () => {
  it('returns the message with flags and the raw content', async () => {
    const res = await t.as('member').get(`/messages/${ids.g1}`, { message_id: ids.g1 });
    expect(res.status).toBe(200);
    expect(res.body.raw_content).toBe('hello world');
    expect(res.body.message.id).toBe(ids.g1);
    expect(res.body.message.content).toBe('<p>hello world</p>');
    expect(res.body.message.flags).toEqual([]); // from the owner, above the member's watermark
    const historical = await t.as('member').get(`/messages/${ids.lounge1}`);
    expect(historical.body.message.flags).toEqual(['read', 'historical']);
    const markdown = await t.as('member').get(`/messages/${ids.g1}`, { apply_markdown: false });
    expect(markdown.body.message.content).toBe('hello world');
  });

  it('answers "Invalid message(s)" for missing or inaccessible messages', async () => {
    const cases: Array<[FixtureName, number]> = [
      ['member', 999999],
      ['member', ids.secretBefore],
      ['moderator', ids.secretAfter],
      ['moderator', ids.dm1],
      ['guest', ids.lounge1],
    ];
    for (const [who, id] of cases) {
      const res = await t.as(who).get(`/messages/${id}`);
      expect(res.status, `${who} ${id}`).toBe(400);
      expect(res.body.msg).toBe('Invalid message(s)');
    }
    expect((await t.as('member').get(`/messages/${ids.secretAfter}`)).status).toBe(200);
    expect((await t.as('member').get(`/messages/${ids.openBefore}`)).status).toBe(200);
  });
});

describe('/messages/matches_narrow', () => {
  it('reports which received messages match, with search highlights', async () => {
    const res = await t.as('member').post('/messages/matches_narrow', {
      msg_ids: JSON.stringify([ids.g1, ids.g2, ids.lounge1, ids.dm1]),
      narrow: JSON.stringify([{ operator: 'search', operand: 'hello' }]),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.messages)).toEqual([String(ids.g1)]);
    expect(res.body.messages[ids.g1]).toEqual({
      match_content: '<p><span class="highlight">hello</span> world</p>',
      match_subject: 'greetings',
    });
    const plain = await t.as('member').get('/messages/matches_narrow', {
      msg_ids: [ids.g1, ids.dm1, ids.lounge1],
      narrow: [['stream', 'general']],
    });
    expect(plain.body.messages).toEqual({
      [ids.g1]: { match_content: '<p>hello world</p>', match_subject: 'greetings' },
    });
    const missing = await t.as('member').post('/messages/matches_narrow', { msg_ids: '[]' });
    expect(missing.body.code).toBe('REQUEST_VARIABLE_MISSING');
  });
});

describe('read state through the watermark', () => {
  it('is:unread and flags follow watermarks and override rows', async () => {
    const db = t.server.ctx.db;
    const member = t.accounts.member.id;
    db.prepare('UPDATE subscriptions SET read_through = ? WHERE user_id = ? AND stream_id = ?').run(
      ids.g3,
      member,
      general,
    );
    setFlagRow(db, member, ids.g4, Flag.read | Flag.starred);
    const unread = await get('member', {
      anchor: 'newest',
      num_before: 100,
      narrow: [
        ['stream', 'general'],
        ['is', 'unread'],
      ],
    });
    // g4 was read out of order, g5 is above the watermark, the rest below it.
    expect(idsOf(unread.body)).toContain(ids.g5);
    expect(idsOf(unread.body)).not.toContain(ids.g4);
    expect(idsOf(unread.body)).not.toContain(ids.g3);
    const starred = await get('member', {
      anchor: 'newest',
      num_before: 100,
      narrow: [{ operator: 'is', operand: 'starred' }],
    });
    expect(idsOf(starred.body)).toEqual([ids.g4]);
    expect(starred.body.messages[0].flags).toEqual(['read', 'starred']);
  });
});
