import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock, setRealm } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
const inAnHour = () => nowSeconds() + 3600;
let general: number;
let secret: number;
let watchers: Watchers;

beforeAll(async () => {
  // Delivery is driven by hand in delivery.test.ts; here nothing may be sent.
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.member.id, a.guest.id, a.admin.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  for (const who of ['owner', 'admin', 'member', 'guest'] as const) {
    await watchers.add(who, who, { event_types: ['scheduled_messages'] });
  }
  await watchers.add('member:2', 'member', {
    event_types: ['scheduled_messages'],
  });
  await watchers.add('member:messages-only', 'member', {
    event_types: ['message'],
  });
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

const member = () => t.as('member');

const channelParams = (overrides: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: general,
  topic: 'plans',
  content: 'see you **soon**',
  scheduled_delivery_timestamp: inAnHour(),
  ...overrides,
});

async function scheduleOk(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const res = await client.post('/scheduled_messages', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result).toBe('success');
  return res.body.scheduled_message_id as number;
}

async function listOf(client: ApiClient) {
  const res = await client.get('/scheduled_messages');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.scheduled_messages as Array<Record<string, unknown>>;
}

async function clearAll(): Promise<void> {
  for (const who of ['owner', 'member', 'guest'] as const) {
    for (const m of await listOf(t.as(who))) {
      await t.as(who).delete(`/scheduled_messages/${m.scheduled_message_id}`);
    }
  }
  await watchers.clear();
}

describe('POST /scheduled_messages', () => {
  beforeEach(clearAll);

  it('creates a channel message with rendered content, listed for its owner only', async () => {
    const when = inAnHour();
    const id = await scheduleOk(member(), channelParams({ scheduled_delivery_timestamp: when }));
    expect(await listOf(member())).toEqual([
      {
        scheduled_message_id: id,
        type: 'stream',
        to: general,
        topic: 'plans',
        content: 'see you **soon**',
        rendered_content: '<p>see you <strong>soon</strong></p>',
        scheduled_delivery_timestamp: when,
        failed: false,
      },
    ]);
    expect(await listOf(t.as('owner'))).toEqual([]);
    expect(await listOf(t.as('guest'))).toEqual([]);
  });

  it('accepts "channel" as the type', async () => {
    const id = await scheduleOk(member(), channelParams({ type: 'channel' }));
    const [m] = await listOf(member());
    expect(m).toMatchObject({ scheduled_message_id: id, type: 'stream', to: general });
  });

  it('creates direct messages: `to` is the other person, or everyone in a group', async () => {
    const a = t.accounts;
    const one = await scheduleOk(member(), {
      type: 'direct',
      to: [a.owner.id],
      content: 'hi',
      scheduled_delivery_timestamp: inAnHour(),
    });
    const group = await scheduleOk(member(), {
      type: 'private',
      to: [a.owner.id, a.guest.id],
      content: 'hi all',
      topic: 'ignored for direct messages',
      scheduled_delivery_timestamp: inAnHour() + 10,
    });
    const self = await scheduleOk(member(), {
      type: 'direct',
      to: [a.member.id],
      content: 'note to self',
      scheduled_delivery_timestamp: inAnHour() + 20,
    });
    const list = await listOf(member());
    expect(list.map((m) => m.scheduled_message_id)).toEqual([one, group, self]);
    expect(list[0]).toMatchObject({ type: 'private', to: [a.owner.id] });
    expect(list[0]).not.toHaveProperty('topic');
    expect(list[1]).toMatchObject({
      type: 'private',
      to: [a.owner.id, a.member.id, a.guest.id].sort((x, y) => x - y),
    });
    expect(list[1]).not.toHaveProperty('topic');
    expect(list[2]).toMatchObject({ type: 'private', to: [a.member.id] });
  });

  it('lists soonest first', async () => {
    const late = await scheduleOk(
      member(),
      channelParams({ scheduled_delivery_timestamp: inAnHour() + 60 }),
    );
    const early = await scheduleOk(
      member(),
      channelParams({ scheduled_delivery_timestamp: inAnHour() }),
    );
    expect((await listOf(member())).map((m) => m.scheduled_message_id)).toEqual([early, late]);
  });

  it('answers STREAM_DOES_NOT_EXIST with stream_id for a missing channel', async () => {
    const res = await member().post('/scheduled_messages', channelParams({ to: 9999 }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'STREAM_DOES_NOT_EXIST',
      msg: "Channel with ID '9999' does not exist",
      stream_id: 9999,
    });
  });

  it('answers BAD_REQUEST for an invalid user id', async () => {
    const res = await member().post('/scheduled_messages', {
      type: 'direct',
      to: [t.accounts.owner.id, 9999],
      content: 'hi',
      scheduled_delivery_timestamp: inAnHour(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid user ID 9999' });
  });

  it('refuses a time that is not in the future', async () => {
    for (const when of [nowSeconds(), nowSeconds() - 60]) {
      const res = await member().post(
        '/scheduled_messages',
        channelParams({ scheduled_delivery_timestamp: when }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Scheduled delivery time must be in the future.',
      });
    }
    expect(await listOf(member())).toEqual([]);
  });

  it('checks the channel like sending does: a private channel the sender is not in', async () => {
    const res = await member().post('/scheduled_messages', channelParams({ to: secret }));
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: "Not authorized to send to channel 'secret'",
    });
  });

  it('requires a topic for channel messages and applies the empty-topic equivalences', async () => {
    // The reference's 400 schema for this endpoint lacks REQUEST_VARIABLE_MISSING's var_name.
    const missing = await member().post(
      '/scheduled_messages',
      channelParams({ topic: undefined }),
      { skipSchema: true },
    );
    expect(missing.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Missing topic' });
    for (const topic of ['(no topic)', 'general chat', '  ']) {
      await scheduleOk(member(), channelParams({ topic }));
    }
    // GET /scheduled_messages has no allow_empty_topic_name: the display name, as GET /messages.
    expect((await listOf(member())).map((m) => m.topic)).toEqual([
      'general chat',
      'general chat',
      'general chat',
    ]);
    setRealm(t, { mandatory_topics: true });
    try {
      const res = await member().post(
        '/scheduled_messages',
        channelParams({ topic: '(no topic)' }),
      );
      expect(res.body).toMatchObject({
        code: 'BAD_REQUEST',
        msg: 'Topics are required in this organization',
      });
    } finally {
      setRealm(t, { mandatory_topics: false });
    }
  });

  it('truncates long topics and content as sending does; refuses empty content', async () => {
    await scheduleOk(
      member(),
      channelParams({ topic: 'x'.repeat(80), content: 'a'.repeat(12000) }),
    );
    const [m] = await listOf(member());
    expect(m!.topic).toBe(`${'x'.repeat(57)}...`);
    expect(m!.content).toHaveLength(10000);
    expect(String(m!.content).endsWith('\n[message truncated]')).toBe(true);
    const empty = await member().post('/scheduled_messages', channelParams({ content: '  ' }));
    expect(empty.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Message must not be empty' });
  });

  it('rejects malformed parameters with a JSON error', async () => {
    const badTo = await member().post('/scheduled_messages', channelParams({ to: 'general' }));
    expect(badTo.status).toBe(400);
    expect(badTo.body.result).toBe('error');
    const badType = await member().post('/scheduled_messages', channelParams({ type: 'email' }));
    expect(badType.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid type' });
    const noTime = await member().post(
      '/scheduled_messages',
      channelParams({ scheduled_delivery_timestamp: undefined }),
      { skipSchema: true },
    );
    expect(noTime.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'scheduled_delivery_timestamp',
    });
  });

  it('edits with scheduled_message_id (the spec form), or answers Scheduled message does not exist', async () => {
    const id = await scheduleOk(member(), channelParams());
    const when = inAnHour() + 99;
    const same = await scheduleOk(
      member(),
      channelParams({
        scheduled_message_id: id,
        content: 'changed',
        topic: 'new plans',
        scheduled_delivery_timestamp: when,
      }),
    );
    expect(same).toBe(id);
    expect(await listOf(member())).toEqual([
      expect.objectContaining({
        scheduled_message_id: id,
        topic: 'new plans',
        content: 'changed',
        rendered_content: '<p>changed</p>',
        scheduled_delivery_timestamp: when,
      }),
    ]);
    // 404 as in PATCH and DELETE; the reference lists no 404 for this (older) form.
    const missing = await member().post(
      '/scheduled_messages',
      channelParams({ scheduled_message_id: id + 1000 }),
      { skipSchema: true },
    );
    expect(missing.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Scheduled message does not exist',
    });
    // Someone else's scheduled message does not exist for you.
    const foreign = await t
      .as('owner')
      .post('/scheduled_messages', channelParams({ scheduled_message_id: id }), {
        skipSchema: true,
      });
    expect(foreign.body).toMatchObject({ msg: 'Scheduled message does not exist' });
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  beforeEach(clearAll);

  it('changes only the fields given and re-renders', async () => {
    const id = await scheduleOk(member(), channelParams());
    const res = await member().patch(`/scheduled_messages/${id}`, { content: '*new*' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [m] = await listOf(member());
    expect(m).toMatchObject({
      topic: 'plans',
      to: general,
      content: '*new*',
      rendered_content: '<p><em>new</em></p>',
    });
  });

  it('changes the type only together with `to`, and to a channel only with a topic', async () => {
    const id = await scheduleOk(member(), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'hi',
      scheduled_delivery_timestamp: inAnHour(),
    });
    const noTo = await member().patch(`/scheduled_messages/${id}`, { type: 'stream' });
    expect(noTo.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Recipient required when updating type of scheduled message.',
    });
    const noTopic = await member().patch(`/scheduled_messages/${id}`, {
      type: 'stream',
      to: general,
    });
    expect(noTopic.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Topic required when updating scheduled message type to channel.',
    });
    const ok = await member().patch(`/scheduled_messages/${id}`, {
      type: 'channel',
      to: general,
      topic: 'moved',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await listOf(member()))[0]).toMatchObject({
      type: 'stream',
      to: general,
      topic: 'moved',
      content: 'hi',
    });
  });

  it('validates like creation: past time, missing channel, bad user', async () => {
    const id = await scheduleOk(member(), channelParams());
    const past = await member().patch(`/scheduled_messages/${id}`, {
      scheduled_delivery_timestamp: nowSeconds() - 1,
    });
    expect(past.body).toMatchObject({ msg: 'Scheduled delivery time must be in the future.' });
    const channel = await member().patch(`/scheduled_messages/${id}`, { to: 4242 });
    expect(channel.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: 4242 });
    const user = await member().patch(`/scheduled_messages/${id}`, {
      type: 'direct',
      to: [777],
    });
    expect(user.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID 777' });
    expect((await listOf(member()))[0]).toMatchObject({ to: general, type: 'stream' });
  });

  it('answers 404 Scheduled message does not exist for unknown or foreign ids', async () => {
    const id = await scheduleOk(member(), channelParams());
    for (const [client, target] of [
      [member(), id + 1000],
      [t.as('owner'), id],
    ] as const) {
      const res = await client.patch(`/scheduled_messages/${target}`, { content: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Scheduled message does not exist',
      });
    }
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  beforeEach(clearAll);

  it('deletes the owner’s message; others get 404', async () => {
    const id = await scheduleOk(member(), channelParams());
    const foreign = await t.as('owner').delete(`/scheduled_messages/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Scheduled message does not exist',
    });
    const res = await member().delete(`/scheduled_messages/${id}`);
    expect(res.status).toBe(200);
    expect(await listOf(member())).toEqual([]);
    const again = await member().delete(`/scheduled_messages/${id}`);
    expect(again.status).toBe(404);
  });
});

describe('scheduled_messages events', () => {
  beforeEach(clearAll);

  it('add, update and remove reach exactly the owner’s queues', async () => {
    const when = inAnHour();
    const id = await scheduleOk(member(), channelParams({ scheduled_delivery_timestamp: when }));
    const added = await watchers.take('scheduled_messages');
    expect(receivers(added)).toEqual(['member', 'member:2']);
    expect(added.member).toEqual([
      {
        id: expect.any(Number),
        type: 'scheduled_messages',
        op: 'add',
        scheduled_messages: [
          {
            scheduled_message_id: id,
            type: 'stream',
            to: general,
            topic: 'plans',
            content: 'see you **soon**',
            rendered_content: '<p>see you <strong>soon</strong></p>',
            scheduled_delivery_timestamp: when,
            failed: false,
          },
        ],
      },
    ]);
    expect(added['member:2']).toEqual(added.member);

    await member().patch(`/scheduled_messages/${id}`, { topic: 'later' });
    const updated = await watchers.take('scheduled_messages');
    expect(receivers(updated)).toEqual(['member', 'member:2']);
    expect(updated.member).toEqual([
      {
        id: expect.any(Number),
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: expect.objectContaining({
          scheduled_message_id: id,
          topic: 'later',
          failed: false,
        }),
      },
    ]);

    await member().delete(`/scheduled_messages/${id}`);
    const removed = await watchers.take('scheduled_messages');
    expect(receivers(removed)).toEqual(['member', 'member:2']);
    expect(removed.member).toEqual([
      {
        id: expect.any(Number),
        type: 'scheduled_messages',
        op: 'remove',
        scheduled_message_id: id,
      },
    ]);
  });

  it('a rejected request emits nothing', async () => {
    await member().post('/scheduled_messages', channelParams({ to: 9999 }));
    await member().delete('/scheduled_messages/123456');
    expect(receivers(await watchers.take())).toEqual([]);
  });
});

describe('POST /register scheduled_messages', () => {
  beforeEach(clearAll);

  it('holds the user’s undelivered scheduled messages, soonest first', async () => {
    const late = await scheduleOk(
      member(),
      channelParams({ scheduled_delivery_timestamp: inAnHour() + 5 }),
    );
    const early = await scheduleOk(member(), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'dm',
      scheduled_delivery_timestamp: inAnHour(),
    });
    const res = await member().post('/register', { fetch_event_types: ['scheduled_messages'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.scheduled_messages).toEqual([
      expect.objectContaining({
        scheduled_message_id: early,
        type: 'private',
        to: [t.accounts.owner.id],
      }),
      expect.objectContaining({ scheduled_message_id: late, type: 'stream', topic: 'plans' }),
    ]);
    const other = await t
      .as('owner')
      .post('/register', { fetch_event_types: ['scheduled_messages'] });
    expect(other.body.scheduled_messages).toEqual([]);
    const without = await member().post('/register', { fetch_event_types: ['message'] });
    expect(without.body).not.toHaveProperty('scheduled_messages');
  });
});
