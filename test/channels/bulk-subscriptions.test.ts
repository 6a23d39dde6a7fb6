/**
 * PATCH /users/me/subscriptions: Zulip's update_subscriptions_backend, the
 * add and delete forms of POST and DELETE /users/me/subscriptions run in one
 * transaction with their answers merged; and the legacy PATCH
 * /users/me/subscriptions/{stream_id} for one property.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let counter = 0;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of ['member', 'owner', 'guest']) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

function channel(subscribers: Array<'member' | 'owner'> = ['owner']) {
  counter++;
  const name = `bulk ${counter}`;
  const id = createChannel(t, { name, subscribers: subscribers.map((n) => t.accounts[n].id) });
  return { id, name };
}

const subscribed = async (name: string) =>
  (await t.as('member').get('/users/me/subscriptions')).body.subscriptions.some(
    (s: { name: string }) => s.name === name,
  );

describe('PATCH /users/me/subscriptions', () => {
  it('subscribes and unsubscribes at once, answering both', async () => {
    const join = channel();
    const leave = channel(['owner', 'member']);
    const res = await t.as('member').patch('/users/me/subscriptions', {
      add: [{ name: join.name }, { name: `new ${counter}` }],
      delete: [leave.name],
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [t.accounts.member.id]: [join.name, `new ${counter}`] },
      already_subscribed: {},
      new_subscription_messages_sent: false,
      removed: [leave.name],
      not_removed: [],
    });
    expect(await subscribed(join.name)).toBe(true);
    expect(await subscribed(`new ${counter}`)).toBe(true);
    expect(await subscribed(leave.name)).toBe(false);

    const events = await watchers.take('subscription');
    expect(events.member!.map((e) => e.op)).toEqual(['add', 'remove']);
    const peer = (op: string, id: number) => (e: { op: string; stream_ids: number[] }) =>
      e.op === op && e.stream_ids.includes(id);
    expect(receivers(events, peer('peer_add', join.id))).toEqual(['owner']);
    expect(receivers(events, peer('peer_remove', leave.id))).toEqual(['owner']);
  });

  it('with only one part, answers that part (and the other empty)', async () => {
    const leave = channel(['owner', 'member']);
    const res = await t.as('member').patch('/users/me/subscriptions', { delete: [leave.name] });
    expect(res.body).toMatchObject({
      subscribed: {},
      already_subscribed: {},
      removed: [leave.name],
    });
  });

  it('changes nothing when either part fails', async () => {
    const join = channel();
    const res = await t.as('member').patch('/users/me/subscriptions', {
      add: [{ name: join.name }],
      delete: ['no such channel anywhere'],
    });
    expectError(res, 400, 'BAD_REQUEST', 'Channel(s) (no such channel anywhere) do not exist');
    expect(await subscribed(join.name)).toBe(false);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('refuses an empty request', async () => {
    for (const params of [{}, { add: [], delete: [] }]) {
      expectError(
        await t.as('member').patch('/users/me/subscriptions', params),
        400,
        'BAD_REQUEST',
        'Nothing to do. Specify at least one of "add" or "delete".',
      );
    }
  });

  it('follows POST’s rules: a guest subscribes no one', async () => {
    const res = await t.as('guest').patch('/users/me/subscriptions', {
      add: [{ name: `guest made ${++counter}` }],
    });
    expectError(res, 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  it('changes one property of one subscription', async () => {
    const c = channel(['owner', 'member']);
    const res = await t
      .as('member')
      .patch(`/users/me/subscriptions/${c.id}`, { property: 'pin_to_top', value: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await watchers.take('subscription');
    expect(events.member).toEqual([
      expect.objectContaining({
        op: 'update',
        stream_id: c.id,
        property: 'pin_to_top',
        value: true,
      }),
    ]);
  });
});

describe('GET /users/{user_id}/channels', () => {
  it('lists the channels a user is in that the caller may see', async () => {
    const open = channel(['owner', 'member']);
    const hidden = createChannel(t, {
      name: `hidden ${++counter}`,
      private: true,
      subscribers: [t.accounts.member.id],
    });
    const seen = await t.as('owner').get(`/users/${t.accounts.member.id}/channels`);
    expect(seen.status).toBe(200);
    expect(seen.body.subscribed_channel_ids).toContain(open.id);
    // Administrators see private channels' metadata.
    expect(seen.body.subscribed_channel_ids).toContain(hidden);
    const asGuest = await t.as('guest').get(`/users/${t.accounts.member.id}/channels`);
    expect(asGuest.body.subscribed_channel_ids).not.toContain(hidden);
    expect(
      (await t.as('member').get(`/users/${t.accounts.member.id}/channels`)).body
        .subscribed_channel_ids,
    ).toContain(hidden);
    expectError(
      await t.as('owner').get('/users/987654/channels'),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});
