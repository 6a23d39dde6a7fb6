import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { draftsSynchronizationChanged } from '../../server/drafts/index.js';
import { isEvent, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { FakeClock, setRealm, setUser } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
let general: number;
let lounge: number;
let secret: number;
let plaza: number;
let archived: number;
let watchers: Watchers;

type Draft = Record<string, unknown>;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.moderator.id, a.member.id, a.guest.id, a.bot.id],
  });
  lounge = createChannel(t, { name: 'lounge', subscribers: [a.owner.id] });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  plaza = createChannel(t, { name: 'plaza', webPublic: true, subscribers: [a.owner.id] });
  archived = createChannel(t, { name: 'gone', subscribers: [a.owner.id, a.member.id] });
  expect((await t.as('admin').delete(`/streams/${archived}`)).status).toBe(200);

  watchers = new Watchers(t);
  await watchers.add('member', 'member', { event_types: ['drafts'] });
  await watchers.add('member:2', 'member');
  await watchers.add('member:messages-only', 'member', { event_types: ['message'] });
  await watchers.add('owner', 'owner');
  await watchers.add('guest', 'guest');
});
afterAll(() => t.close());

beforeEach(async () => {
  t.server.ctx.db.prepare('DELETE FROM drafts').run();
  await watchers.clear();
});

const member = () => t.as('member');

const channelDraft = (overrides: Draft = {}): Draft => ({
  type: 'stream',
  to: [general],
  topic: 'plans',
  content: 'see you **soon**',
  ...overrides,
});

const directDraft = (to: number[], overrides: Draft = {}): Draft => ({
  type: 'private',
  to,
  topic: '',
  content: 'hello',
  ...overrides,
});

async function createOk(client: ApiClient, drafts: Draft[]): Promise<number[]> {
  const res = await client.post('/drafts', { drafts });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result).toBe('success');
  return res.body.ids as number[];
}

async function listOf(client: ApiClient): Promise<Draft[]> {
  const res = await client.get('/drafts');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.count).toBe(res.body.drafts.length);
  return res.body.drafts as Draft[];
}

async function registeredDrafts(client: ApiClient): Promise<Draft[]> {
  const res = await client.post('/register', { fetch_event_types: ['drafts'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.drafts as Draft[];
}

function expectError(
  res: { status: number; body: Record<string, unknown> },
  msg: string,
  status = 400,
  code = 'BAD_REQUEST',
  extra: Record<string, unknown> = {},
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { result: 'error', code, msg, ...extra },
  });
}

const storedCount = () =>
  (t.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM drafts').get() as { n: number }).n;

describe('POST /drafts', () => {
  it('creates channel, direct and unaddressed drafts; ids in the order given', async () => {
    const a = t.accounts;
    const ids = await createOk(member(), [
      channelDraft({ timestamp: 1_700_000_300 }),
      directDraft([a.owner.id], { timestamp: 1_700_000_100 }),
      { type: '', to: [], topic: '', content: 'unaddressed', timestamp: 1_700_000_200 },
    ]);
    expect(ids).toHaveLength(3);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    // GET /drafts: least recently edited first.
    expect(await listOf(member())).toEqual([
      {
        id: ids[1],
        type: 'private',
        to: [a.owner.id],
        topic: '',
        content: 'hello',
        timestamp: 1_700_000_100,
      },
      {
        id: ids[2],
        type: '',
        to: [],
        topic: '',
        content: 'unaddressed',
        timestamp: 1_700_000_200,
      },
      {
        id: ids[0],
        type: 'stream',
        to: [general],
        topic: 'plans',
        content: 'see you **soon**',
        timestamp: 1_700_000_300,
      },
    ]);
    // Drafts are their owner's alone.
    expect(await listOf(t.as('owner'))).toEqual([]);
  });

  it('fills in the edit time with now when it is absent or null', async () => {
    const [a, b] = await createOk(member(), [
      channelDraft(),
      channelDraft({ content: 'null time', timestamp: null }),
    ]);
    const drafts = await listOf(member());
    expect(drafts.map((d) => [d.id, d.timestamp])).toEqual([
      [a, nowSeconds()],
      [b, nowSeconds()],
    ]);
  });

  it('shows whole seconds but orders by the full edit time', async () => {
    const [late, early] = await createOk(member(), [
      channelDraft({ content: 'late', timestamp: 1_700_000_000.75 }),
      channelDraft({ content: 'early', timestamp: 1_700_000_000.25 }),
    ]);
    const drafts = await listOf(member());
    expect(drafts.map((d) => [d.id, d.timestamp])).toEqual([
      [early, 1_700_000_000],
      [late, 1_700_000_000],
    ]);
  });

  it('accepts a zero timestamp and refuses a negative one', async () => {
    await createOk(member(), [channelDraft({ timestamp: 0 })]);
    expect((await listOf(member()))[0]!.timestamp).toBe(0);
    expectError(
      await member().post('/drafts', { drafts: [channelDraft({ timestamp: -1 })] }),
      'Timestamp must not be negative.',
    );
    expectError(
      await member().post('/drafts', { drafts: [channelDraft({ timestamp: 1e15 })] }),
      'Timestamp is too large.',
    );
  });

  it('shows a direct draft the way Zulip names the conversation', async () => {
    const a = t.accounts;
    const ids = await createOk(member(), [
      directDraft([a.owner.id]),
      directDraft([a.member.id]),
      directDraft([a.member.id, a.owner.id]),
      directDraft([a.guest.id, a.owner.id, a.member.id, a.guest.id]),
      directDraft([a.bot.id]),
    ]);
    const byId = new Map((await listOf(member())).map((d) => [d.id, d.to]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      [a.owner.id],
      [a.member.id],
      [a.owner.id],
      [a.owner.id, a.guest.id].sort((x, y) => x - y),
      [a.bot.id],
    ]);
  });

  it('drops what does not belong to the draft type', async () => {
    const a = t.accounts;
    const ids = await createOk(member(), [
      { type: '', to: [general, a.owner.id], topic: 'ignored', content: 'one' },
      directDraft([a.owner.id], { topic: 'ignored too' }),
      // A direct draft to nobody is unaddressed.
      directDraft([], { content: 'three' }),
    ]);
    const byId = new Map((await listOf(member())).map((d) => [d.id, d]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      expect.objectContaining({ type: '', to: [], topic: '' }),
      expect.objectContaining({ type: 'private', to: [a.owner.id], topic: '' }),
      expect.objectContaining({ type: '', to: [], topic: '', content: 'three' }),
    ]);
  });

  it('stores content as a message would be stored, and truncates long topics', async () => {
    const long = 'x'.repeat(10_050);
    const ids = await createOk(member(), [
      channelDraft({ content: '\n\n  indented\n  ', topic: 'y'.repeat(70) }),
      channelDraft({ content: long }),
      // The topic is kept as given: no "(no topic)" translation for drafts.
      channelDraft({ topic: '(no topic)' }),
    ]);
    const byId = new Map((await listOf(member())).map((d) => [d.id, d]));
    expect(byId.get(ids[0]!)).toMatchObject({
      content: 'indented',
      topic: `${'y'.repeat(57)}...`,
    });
    const truncated = byId.get(ids[1]!)!.content as string;
    expect([...truncated]).toHaveLength(10_000);
    expect(truncated.endsWith('\n[message truncated]')).toBe(true);
    expect(byId.get(ids[2]!)!.topic).toBe('(no topic)');
  });

  it('creates nothing when `drafts` is absent or empty', async () => {
    const res = await member().post('/drafts', {});
    expect(res.status).toBe(200);
    expect(res.body.ids).toEqual([]);
    expect(await createOk(member(), [])).toEqual([]);
    expect(await listOf(member())).toEqual([]);
  });

  describe('refuses, creating nothing', () => {
    const cases: Array<[string, () => Draft, string]> = [
      [
        'no channel',
        () => channelDraft({ to: [] }),
        'Must specify exactly 1 channel ID for channel messages',
      ],
      [
        'two channels',
        () => channelDraft({ to: [general, lounge] }),
        'Must specify exactly 1 channel ID for channel messages',
      ],
      ['a missing channel', () => channelDraft({ to: [999_999] }), 'Invalid channel ID'],
      [
        "a private channel the user isn't in",
        () => channelDraft({ to: [secret] }),
        'Invalid channel ID',
      ],
      ['an archived channel', () => channelDraft({ to: [archived] }), 'Invalid channel ID'],
      [
        'a null byte in the topic (before the channel count)',
        () => channelDraft({ to: [], topic: 'a\u0000b' }),
        'Topic must not contain null bytes',
      ],
      [
        'a null byte in the content',
        () => channelDraft({ content: 'a\u0000b' }),
        'Message must not contain null bytes',
      ],
      ['a missing user', () => directDraft([999_999]), 'Invalid user ID 999999'],
    ];
    it.each(cases)('%s', async (_name, draft, msg) => {
      const res = await member().post('/drafts', { drafts: [channelDraft(), draft()] });
      expectError(res, msg);
      expect(storedCount()).toBe(0);
      expect(await watchers.take()).toEqual({
        member: [],
        'member:2': [],
        'member:messages-only': [],
        owner: [],
        guest: [],
      });
    });

    it('a deactivated user', async () => {
      const leaver = await quickMember(t, 'Lee Leaver');
      expect((await t.as('admin').delete(`/users/${leaver.id}`)).status).toBe(200);
      const res = await member().post('/drafts', {
        drafts: [directDraft([t.accounts.owner.id, leaver.id])],
      });
      expectError(res, `'${leaver.email}' is no longer using Zulip.`);
      expect(storedCount()).toBe(0);
    });
  });

  describe('reports malformed drafts in Zulip words', () => {
    const cases: Array<[string, () => unknown, string]> = [
      ['not a list', () => ({ type: '' }), 'drafts is not a list'],
      ['not a dict', () => [5], 'drafts[0] is not a dict'],
      [
        'a missing key',
        () => [{ type: 'stream', to: [1], topic: 't' }],
        'content key is missing from drafts[0]',
      ],
      [
        'an unknown key',
        () => [{ ...channelDraft(), id: 4 }],
        'Argument "id" at drafts[0]["id"] is unexpected',
      ],
      ['an unknown type', () => [channelDraft({ type: 'direct' })], 'Invalid drafts[0]["type"]'],
      [
        'a `to` that is not a list',
        () => [channelDraft({ to: 5 })],
        'drafts[0]["to"] is not a list',
      ],
      [
        'a `to` of strings',
        () => [channelDraft({ to: ['general'] })],
        'drafts[0]["to"][0] is not an integer',
      ],
      [
        'a topic that is not a string',
        () => [channelDraft({ topic: 1 })],
        'drafts[0]["topic"] is not a string',
      ],
      [
        'blank content',
        () => [channelDraft(), channelDraft({ content: ' \n ' })],
        'drafts[1]["content"] cannot be blank',
      ],
      [
        'a timestamp that is not a number',
        () => [channelDraft({ timestamp: '1700000000' })],
        'drafts[0]["timestamp"] is not an integer',
      ],
    ];
    it.each(cases)('%s', async (_name, drafts, msg) => {
      expectError(await member().post('/drafts', { drafts: drafts() }), msg);
      expect(storedCount()).toBe(0);
    });

    it('text that is not JSON', async () => {
      expectError(await member().post('/drafts', { drafts: '[{' }), 'drafts is not valid JSON');
    });
  });

  it('needs authentication', async () => {
    const res = await t.anonymous().post('/drafts', { drafts: [channelDraft()] });
    expect(res.status).toBe(401);
    expect(storedCount()).toBe(0);
  });
});

describe('who may draft where', () => {
  const everyone: FixtureName[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];

  it.each(everyone)('%s keeps their own drafts', async (who) => {
    const ids = await createOk(t.as(who), [
      channelDraft(),
      directDraft([t.accounts.owner.id]),
      { type: '', to: [], topic: '', content: 'later' },
    ]);
    expect((await listOf(t.as(who))).map((d) => d.id)).toEqual(ids);
  });

  it('follows channel access: members reach public channels, guests only theirs', async () => {
    await createOk(member(), [channelDraft({ to: [lounge] }), channelDraft({ to: [plaza] })]);
    expectError(
      await t.as('guest').post('/drafts', { drafts: [channelDraft({ to: [lounge] })] }),
      'Invalid channel ID',
    );
    // Web-public channels are readable by guests.
    await createOk(t.as('guest'), [channelDraft({ to: [plaza] })]);
  });

  it('follows channel access for private channels: subscribers only', async () => {
    await createOk(t.as('owner'), [channelDraft({ to: [secret] })]);
    for (const who of ['admin', 'member', 'guest'] as const) {
      expectError(
        await t.as(who).post('/drafts', { drafts: [channelDraft({ to: [secret] })] }),
        'Invalid channel ID',
      );
    }
  });

  it('does not apply the direct-message permission settings to drafts', async () => {
    const a = t.accounts;
    setRealm(t, { direct_message_permission_group: 'role:nobody' });
    try {
      const send = await member().post('/messages', {
        type: 'direct',
        to: [a.admin.id],
        content: 'hi',
      });
      expectError(send, 'Direct messages are disabled in this organization.');
      await createOk(member(), [directDraft([a.admin.id])]);
    } finally {
      setRealm(t, { direct_message_permission_group: 'role:everyone' });
    }
  });
});

describe('PATCH /drafts/{draft_id}', () => {
  it('replaces the draft, with now as its edit time unless given', async () => {
    const a = t.accounts;
    const [id] = await createOk(member(), [channelDraft({ timestamp: 1_600_000_000 })]);
    const res = await member().patch(`/drafts/${id}`, {
      draft: directDraft([a.owner.id, a.guest.id], { content: 'changed  ' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await listOf(member())).toEqual([
      {
        id,
        type: 'private',
        to: [a.owner.id, a.guest.id].sort((x, y) => x - y),
        topic: '',
        content: 'changed',
        timestamp: nowSeconds(),
      },
    ]);
    await member().patch(`/drafts/${id}`, {
      draft: channelDraft({ topic: 'again', timestamp: 1_650_000_000 }),
    });
    expect(await listOf(member())).toEqual([
      expect.objectContaining({
        id,
        type: 'stream',
        to: [general],
        topic: 'again',
        timestamp: 1_650_000_000,
      }),
    ]);
  });

  it('answers 404 for a missing draft or one of another user, before checking the draft', async () => {
    const [ownersDraft] = await createOk(t.as('owner'), [channelDraft()]);
    for (const id of [ownersDraft, 999_999]) {
      expectError(
        await member().patch(`/drafts/${id}`, { draft: channelDraft({ to: [] }) }),
        'Draft does not exist',
        404,
      );
    }
    expect((await listOf(t.as('owner')))[0]).toMatchObject({ id: ownersDraft, topic: 'plans' });
  });

  it('checks the new draft as a created one is checked, changing nothing on error', async () => {
    const [id] = await createOk(member(), [channelDraft()]);
    expectError(
      await member().patch(`/drafts/${id}`, { draft: channelDraft({ to: [secret] }) }),
      'Invalid channel ID',
    );
    expectError(
      await member().patch(`/drafts/${id}`, { draft: channelDraft({ to: [general, lounge] }) }),
      'Must specify exactly 1 channel ID for channel messages',
    );
    expectError(
      await member().patch(`/drafts/${id}`, { draft: { ...channelDraft(), id } }),
      'Argument "id" at draft["id"] is unexpected',
    );
    expectError(
      await member().patch(`/drafts/${id}`, { draft: channelDraft({ content: '' }) }),
      'draft["content"] cannot be blank',
    );
    expectError(
      await member().patch(`/drafts/${id}`, {}),
      "Missing 'draft' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
      { var_name: 'draft' },
    );
    expect((await listOf(member()))[0]).toMatchObject({ id, to: [general], topic: 'plans' });
    expect((await watchers.take('drafts')).member).toEqual([
      expect.objectContaining({ op: 'add' }),
    ]);
  });
});

describe('DELETE /drafts/{draft_id}', () => {
  it('deletes the draft', async () => {
    const [keep, drop] = await createOk(member(), [channelDraft(), channelDraft({ content: 'b' })]);
    const res = await member().delete(`/drafts/${drop}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect((await listOf(member())).map((d) => d.id)).toEqual([keep]);
    expectError(await member().delete(`/drafts/${drop}`), 'Draft does not exist', 404);
  });

  it("answers 404 for another user's draft and leaves it alone", async () => {
    const [ownersDraft] = await createOk(t.as('owner'), [channelDraft()]);
    expectError(await member().delete(`/drafts/${ownersDraft}`), 'Draft does not exist', 404);
    expect(await listOf(t.as('owner'))).toHaveLength(1);
  });
});

describe('drafts events', () => {
  const nobodyElse = {
    'member:messages-only': [],
    owner: [],
    guest: [],
  };

  it('reach every queue of the owner and nobody else, for add, update and remove', async () => {
    const a = t.accounts;
    const [one, two] = await createOk(member(), [
      channelDraft({ timestamp: 1_700_000_000 }),
      directDraft([a.owner.id], { timestamp: 1_700_000_001 }),
    ]);
    const added = [
      {
        type: 'drafts',
        op: 'add',
        drafts: [
          {
            id: one,
            type: 'stream',
            to: [general],
            topic: 'plans',
            content: 'see you **soon**',
            timestamp: 1_700_000_000,
          },
          {
            id: two,
            type: 'private',
            to: [a.owner.id],
            topic: '',
            content: 'hello',
            timestamp: 1_700_000_001,
          },
        ],
      },
    ];
    const withIds = (events: Array<Record<string, unknown>>) =>
      events.map(({ id: _eventId, ...rest }) => rest);
    let events = await watchers.take();
    expect(withIds(events.member!)).toEqual(added);
    expect(withIds(events['member:2']!)).toEqual(added);
    expect(events).toMatchObject(nobodyElse);

    await member().patch(`/drafts/${one}`, {
      draft: channelDraft({ topic: 'new', timestamp: 1_700_000_005 }),
    });
    const updated = [
      {
        type: 'drafts',
        op: 'update',
        draft: {
          id: one,
          type: 'stream',
          to: [general],
          topic: 'new',
          content: 'see you **soon**',
          timestamp: 1_700_000_005,
        },
      },
    ];
    events = await watchers.take();
    expect(withIds(events.member!)).toEqual(updated);
    expect(withIds(events['member:2']!)).toEqual(updated);
    expect(events).toMatchObject(nobodyElse);

    await member().delete(`/drafts/${two}`);
    events = await watchers.take();
    const removed = [{ type: 'drafts', op: 'remove', draft_id: two }];
    expect(withIds(events.member!)).toEqual(removed);
    expect(withIds(events['member:2']!)).toEqual(removed);
    expect(events).toMatchObject(nobodyElse);
  });

  it("go to the acting user's own queues when others act", async () => {
    await createOk(t.as('guest'), [channelDraft()]);
    const events = await watchers.take();
    expect(receivers(events, isEvent('drafts', 'add'))).toEqual(['guest']);
  });

  it('are sent for an empty create too, as Zulip does', async () => {
    await createOk(member(), []);
    const events = await watchers.take();
    expect(
      receivers(
        events,
        isEvent('drafts', 'add', (e) => e.drafts.length === 0),
      ),
    ).toEqual(['member', 'member:2']);
  });
});

describe('POST /register drafts', () => {
  it('lists the drafts, most recently edited first, and follows changes', async () => {
    expect(await registeredDrafts(member())).toEqual([]);
    const [older, newer] = await createOk(member(), [
      channelDraft({ timestamp: 1_700_000_000 }),
      channelDraft({ content: 'newer', timestamp: 1_700_000_500 }),
    ]);
    await createOk(t.as('owner'), [channelDraft()]);
    expect((await registeredDrafts(member())).map((d) => d.id)).toEqual([newer, older]);
    expect((await registeredDrafts(member()))[0]).toEqual({
      id: newer,
      type: 'stream',
      to: [general],
      topic: 'plans',
      content: 'newer',
      timestamp: 1_700_000_500,
    });
    await member().patch(`/drafts/${older}`, { draft: channelDraft({ timestamp: 1_700_000_900 }) });
    expect((await registeredDrafts(member())).map((d) => d.id)).toEqual([older, newer]);
    await member().delete(`/drafts/${older}`);
    expect((await registeredDrafts(member())).map((d) => d.id)).toEqual([newer]);
  });

  it('only with drafts among the fetched types', async () => {
    await createOk(member(), [channelDraft()]);
    const res = await member().post('/register', { fetch_event_types: ['realm_user'] });
    expect(res.body).not.toHaveProperty('drafts');
    const all = await member().post('/register', {});
    expect(all.body.drafts).toHaveLength(1);
  });

  it('holds at most the 1000 most recently edited drafts; GET /drafts has all', async () => {
    const drafts = Array.from({ length: 1001 }, (_, i) =>
      channelDraft({ content: `draft ${i}`, timestamp: 1_700_000_000 + i }),
    );
    const ids = await createOk(member(), drafts);
    const registered = await registeredDrafts(member());
    expect(registered).toHaveLength(1000);
    expect(registered[0]!.id).toBe(ids[1000]);
    expect(registered.map((d) => d.id)).not.toContain(ids[0]);
    expect(await listOf(member())).toHaveLength(1001);
  });
});

describe('enable_drafts_synchronization', () => {
  let syncOff: Account;

  beforeAll(async () => {
    syncOff = await quickMember(t, 'Sam Sync');
  });

  it('off: every drafts endpoint refuses', async () => {
    const client = t.as(syncOff);
    const [id] = await createOk(client, [channelDraft({ to: [lounge] })]);
    setUser(t, syncOff.id, { enable_drafts_synchronization: false });
    try {
      const msg = 'User has disabled synchronizing drafts.';
      expectError(await client.get('/drafts'), msg);
      expectError(await client.post('/drafts', { drafts: [channelDraft({ to: [lounge] })] }), msg);
      expectError(
        await client.patch(`/drafts/${id}`, { draft: channelDraft({ to: [lounge] }) }),
        msg,
      );
      expectError(await client.delete(`/drafts/${id}`), msg);
      // Not even a missing draft gets past the setting.
      expectError(await client.delete('/drafts/999999'), msg);
      expect(storedCount()).toBe(1);
    } finally {
      setUser(t, syncOff.id, { enable_drafts_synchronization: true });
    }
    expect(await listOf(client)).toHaveLength(1);
  });

  it('turning it off deletes the user’s drafts, without events', async () => {
    const client = t.as(syncOff);
    await createOk(client, [channelDraft({ to: [lounge] }), channelDraft({ to: [lounge] })]);
    const [othersDraft] = await createOk(member(), [channelDraft()]);
    const watcher = await watchers.add(`sync-off:${Date.now()}`, syncOff);
    await watchers.clear();

    draftsSynchronizationChanged(t.server.ctx, syncOff.id, true);
    expect(await listOf(client)).toHaveLength(2);

    draftsSynchronizationChanged(t.server.ctx, syncOff.id, false);
    expect(await listOf(client)).toEqual([]);
    expect(await registeredDrafts(client)).toEqual([]);
    expect((await listOf(member())).map((d) => d.id)).toEqual([othersDraft]);
    expect(await watcher.take()).toEqual([]);
    expect((await watchers.take()).member).toEqual([]);
  });
});

describe('paths', () => {
  it('answers 404 for a draft id that is not a number', async () => {
    const res = await member().delete('/drafts/abc', {}, { skipSchema: true });
    expect(res.status).toBe(404);
  });
});
