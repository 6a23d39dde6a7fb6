/**
 * Default channels: POST and DELETE /default_streams (administrators), the
 * default_streams event (the whole list, to every active non-guest),
 * POST /register's realm_default_streams, and the subscriptions a new
 * account gets (Zulip's set_up_streams_and_groups_for_new_human_user).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];
const nonGuests = everyone.filter((n) => n !== 'guest');
let counter = 0;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const id of await registered()) {
    await t.as('admin').delete('/default_streams', { stream_id: id });
  }
  await watchers.clear();
});

function channel(opts: { private?: boolean; subscribers?: FixtureName[] } = {}): number {
  counter++;
  return createChannel(t, {
    name: `defaults ${counter}`,
    private: opts.private,
    subscribers: (opts.subscribers ?? ['owner']).map((n) => t.accounts[n].id),
  });
}

async function registered(who: FixtureName = 'member'): Promise<number[]> {
  const res = await t.as(who).post('/register', { fetch_event_types: ['default_streams'] });
  expect(res.status).toBe(200);
  return res.body.realm_default_streams;
}

const add = (who: FixtureName, streamId: unknown) =>
  t.as(who).post('/default_streams', { stream_id: streamId });
const remove = (who: FixtureName, streamId: unknown) =>
  t.as(who).delete('/default_streams', { stream_id: streamId });

describe('POST /default_streams', () => {
  it('makes a channel default and tells every non-guest the whole list', async () => {
    const a = channel();
    const b = channel();
    expect((await add('admin', b)).body).toEqual({ result: 'success', msg: '' });
    expect((await add('owner', a)).status).toBe(200);
    expect(await registered()).toEqual([a, b]);
    const events = await watchers.take('default_streams');
    expect(receivers(events)).toEqual(nonGuests);
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'default_streams', default_streams: [b] },
      { id: expect.any(Number), type: 'default_streams', default_streams: [a, b] },
    ]);
    // GET /streams marks it too.
    const streams = await t.as('member').get('/streams', { include_default: true });
    const listed = streams.body.streams.find((s: { stream_id: number }) => s.stream_id === a);
    expect(listed.is_default).toBe(true);
  });

  it('is a quiet success for a channel that already is default', async () => {
    const a = channel();
    await add('admin', a);
    await watchers.clear();
    expect((await add('admin', a)).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('refuses private channels, even to their subscribers', async () => {
    const secret = channel({ private: true, subscribers: ['admin'] });
    expectError(
      await add('admin', secret),
      400,
      'BAD_REQUEST',
      'Private channels cannot be made default.',
    );
    expect(await registered()).toEqual([]);
  });

  it('refuses channels the administrator cannot read, archived and unknown ones', async () => {
    const hidden = channel({ private: true, subscribers: ['member'] });
    const archived = channel();
    await t.as('owner').delete(`/streams/${archived}`);
    for (const id of [hidden, archived, 987654]) {
      expectError(await add('admin', id), 400, 'BAD_REQUEST', 'Invalid channel ID');
    }
  });

  it('checks its parameter', async () => {
    expectError(
      await t.as('admin').post('/default_streams', {}, { skipSchema: true }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'stream_id' argument",
      { var_name: 'stream_id' },
    );
    expectError(await add('admin', 'general'), 400, 'BAD_REQUEST', 'stream_id is not valid JSON');
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('is refused to %s', async (who) => {
    expectError(
      await add(who, channel()),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(await registered()).toEqual([]);
  });
});

describe('DELETE /default_streams', () => {
  it('removes it and tells every non-guest', async () => {
    const a = channel();
    const b = channel();
    await add('admin', a);
    await add('admin', b);
    await watchers.clear();
    expect((await remove('admin', a)).body).toEqual({ result: 'success', msg: '' });
    expect(await registered()).toEqual([b]);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(nonGuests);
    expect(events.bot).toEqual([
      { id: expect.any(Number), type: 'default_streams', default_streams: [b] },
    ]);
  });

  it('like Zulip, answers success and sends the list for a channel that is not default', async () => {
    const a = channel();
    expect((await remove('admin', a)).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual(nonGuests);
    expectError(await remove('admin', 987654), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });

  it.each(['moderator', 'member', 'guest'] as const)('is refused to %s', async (who) => {
    const a = channel();
    await add('admin', a);
    expectError(
      await remove(who, a),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(await registered()).toEqual([a]);
  });

  it('a default channel that is archived stops being default', async () => {
    const a = channel();
    await add('admin', a);
    await t.as('owner').delete(`/streams/${a}`);
    expect(await registered()).toEqual([]);
  });
});

describe('new accounts', () => {
  it('POST /users subscribes the new person to the default channels, and their peers hear it', async () => {
    const a = channel({ subscribers: ['owner', 'member'] });
    const b = channel();
    const other = channel();
    await add('admin', a);
    await add('admin', b);
    await watchers.clear();

    counter++;
    const res = await t.as('admin').post('/users', {
      email: `newcomer${counter}@example.com`,
      password: 'a long enough password',
      full_name: 'New Comer',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.user_id;
    const subscribed = (await t.as('admin').get(`/users/${id}/subscriptions/${a}`)).body;
    expect(subscribed.is_subscribed).toBe(true);
    expect((await t.as('admin').get(`/users/${id}/subscriptions/${b}`)).body.is_subscribed).toBe(
      true,
    );
    expect(
      (await t.as('admin').get(`/users/${id}/subscriptions/${other}`)).body.is_subscribed,
    ).toBe(false);

    const events = await watchers.take('subscription');
    const peerAdd = (e: { op: string; stream_ids: number[]; user_ids: number[] }) =>
      e.op === 'peer_add' && e.stream_ids.includes(a) && e.user_ids.includes(id);
    expect(receivers(events, peerAdd)).toEqual(nonGuests);
    // Without a Welcome Bot (organizations not made by the first run) no welcome is sent.
    const dms = await t.as('admin').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [id] }],
    });
    expect(dms.body.messages).toEqual([]);
  });
});
