/**
 * Personal subscription settings: POST /users/me/subscriptions/properties
 * and POST /users/me/subscriptions/{stream_id}, every property and value
 * rule, and the update events (two for a mute change) to the user only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { type Event, isEvent, receivers, type Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { channelWatchers } from './support.js';

let t: TestServer;
let watchers: Watchers;
let mine: number;
let notMine: number;
let hidden: number;

beforeAll(async () => {
  t = await startTestServer();
  mine = createChannel(t, {
    name: 'mine',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
  notMine = createChannel(t, { name: 'not mine', subscribers: [t.accounts.admin.id] });
  hidden = createChannel(t, { name: 'hidden', private: true, subscribers: [t.accounts.admin.id] });
  watchers = channelWatchers(t);
  await watchers.add('member');
  await watchers.add('admin');
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const bulk = (data: unknown) =>
  t.as('member').post('/users/me/subscriptions/properties', { subscription_data: data });
const updates = (events: Event[]) =>
  events
    .filter(isEvent('subscription', 'update'))
    .map((e: Event) => [e.stream_id, e.property, e.value]);
async function mySubscription() {
  const res = await t.as('member').get('/users/me/subscriptions');
  return res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === mine);
}

describe('POST /users/me/subscriptions/properties', () => {
  it('sets each boolean property and tells only the user', async () => {
    const properties = [
      'pin_to_top',
      'desktop_notifications',
      'audible_notifications',
      'push_notifications',
      'email_notifications',
      'wildcard_mentions_notify',
    ];
    const res = await bulk(
      properties.map((property) => ({ stream_id: mine, property, value: true })),
    );
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take();
    expect(updates(events.member!)).toEqual(properties.map((p) => [mine, p, true]));
    expect(receivers(events, isEvent('subscription', 'update'))).toEqual(['member']);
    const sub = await mySubscription();
    for (const property of properties) expect(sub[property]).toBe(true);

    await bulk([{ stream_id: mine, property: 'desktop_notifications', value: false }]);
    expect((await mySubscription()).desktop_notifications).toBe(false);
  });

  it('announces a mute change twice: in_home_view, then is_muted', async () => {
    await bulk([{ stream_id: mine, property: 'is_muted', value: true }]);
    let events = await watchers.take();
    expect(updates(events.member!)).toEqual([
      [mine, 'in_home_view', false],
      [mine, 'is_muted', true],
    ]);
    expect(await mySubscription()).toMatchObject({ is_muted: true, in_home_view: false });

    await bulk([{ stream_id: mine, property: 'in_home_view', value: true }]);
    events = await watchers.take();
    expect(updates(events.member!)).toEqual([
      [mine, 'in_home_view', true],
      [mine, 'is_muted', false],
    ]);
    expect(await mySubscription()).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it('sets the colour', async () => {
    await bulk([{ stream_id: mine, property: 'color', value: '#abcdef' }]);
    const events = await watchers.take();
    expect(updates(events.member!)).toEqual([[mine, 'color', '#abcdef']]);
    expect((await mySubscription()).color).toBe('#abcdef');
  });

  it('checks properties and values', async () => {
    expectError(
      await bulk([{ stream_id: mine, property: 'volume', value: true }]),
      400,
      'BAD_REQUEST',
      'Unknown subscription property: volume',
    );
    expectError(
      await bulk([{ stream_id: mine, property: 'pin_to_top', value: 'yes' }]),
      400,
      'BAD_REQUEST',
      'pin_to_top is not a boolean',
    );
    expectError(
      await bulk([{ stream_id: mine, property: 'color', value: 'blue' }]),
      400,
      'BAD_REQUEST',
      'color is not a valid hex color code',
    );
    expectError(
      await bulk([{ stream_id: mine, property: 'color', value: true }]),
      400,
      'BAD_REQUEST',
      'color is not a string',
    );
    expectError(
      await bulk([{ stream_id: mine, property: 'pin_to_top' }]),
      400,
      'BAD_REQUEST',
      'Invalid subscription_data[0]["value"]',
    );
  });

  it('needs a subscription to a channel the user can see', async () => {
    expectError(
      await bulk([{ stream_id: notMine, property: 'pin_to_top', value: true }]),
      400,
      'BAD_REQUEST',
      `Not subscribed to channel ID ${notMine}`,
    );
    for (const id of [hidden, 99999]) {
      expectError(
        await bulk([{ stream_id: id, property: 'pin_to_top', value: true }]),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
    }
  });

  it('changes nothing when any change is refused', async () => {
    const before = await mySubscription();
    const res = await bulk([
      { stream_id: mine, property: 'pin_to_top', value: !before.pin_to_top },
      { stream_id: notMine, property: 'pin_to_top', value: true },
    ]);
    expect(res.status).toBe(400);
    expect((await mySubscription()).pin_to_top).toBe(before.pin_to_top);
    expect((await watchers.take()).member).toEqual([]);
  });
});

describe('POST /users/me/subscriptions/{stream_id}', () => {
  it('changes one property; the value is JSON when it is a boolean, else text', async () => {
    let res = await t.as('member').post(`/users/me/subscriptions/${mine}`, {
      property: 'is_muted',
      value: true,
    });
    expect(res.status).toBe(200);
    expect(updates((await watchers.take()).member!)).toEqual([
      [mine, 'in_home_view', false],
      [mine, 'is_muted', true],
    ]);
    res = await t.as('member').post(`/users/me/subscriptions/${mine}`, {
      property: 'color',
      value: '#fff',
    });
    expect(res.status).toBe(200);
    expect((await mySubscription()).color).toBe('#fff');
    expectError(
      await t.as('member').post(`/users/me/subscriptions/${mine}`, {
        property: 'pin_to_top',
        value: 'maybe',
      }),
      400,
      'BAD_REQUEST',
      'pin_to_top is not a boolean',
    );
  });

  it("is also PATCH, Zulip's method for it", async () => {
    const res = await t
      .as('member')
      .patch(`/users/me/subscriptions/${mine}`, { property: 'pin_to_top', value: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await mySubscription()).pin_to_top).toBe(true);
    await watchers.take();
  });

  it('accepts multipart and the python form encoding alike', async () => {
    const res = await t
      .as('member')
      .post(
        `/users/me/subscriptions/${mine}`,
        { property: 'pin_to_top', value: false },
        { encoding: 'multipart' },
      );
    expect(res.status).toBe(200);
    expect((await mySubscription()).pin_to_top).toBe(false);
  });
});
