/**
 * Subscribing and unsubscribing (oneself and others), GET
 * /users/me/subscriptions, colours, and the subscription events with
 * exactly who receives them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptionColors } from '../../server/channels/rules.js';
import { setRealmSettings } from '../../server/db/queries/realm.js';
import { setStreamArchived } from '../../server/db/queries/streams.js';
import { setUserActive } from '../../server/db/queries/users.js';
import { expectError } from '../api/support.js';
import { type Event, isEvent, receivers, type Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { channelId, subscribeAs, watchEveryone } from './support.js';

let t: TestServer;
let other: Account;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  ({ other, watchers } = await watchEveryone(t));
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const subAdd = isEvent('subscription', 'add');
const peerAdd = isEvent('subscription', 'peer_add');
const peerRemove = isEvent('subscription', 'peer_remove');
const subRemove = isEvent('subscription', 'remove');
const streamCreate = isEvent('stream', 'create');
const streamDelete = isEvent('stream', 'delete');

describe('subscribing oneself', () => {
  it('subscribes to an existing public channel and tells the others who see it', async () => {
    const id = createChannel(t, { name: 'lobby', subscribers: [t.accounts.admin.id] });
    const body = await subscribeAs(t, 'member', ['lobby']);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [String(t.accounts.member.id)]: ['lobby'] },
      already_subscribed: {},
      new_subscription_messages_sent: false,
    });

    const events = await watchers.take();
    expect(receivers(events, subAdd)).toEqual(['member']);
    const add = events.member!.find(subAdd);
    expect(add.subscriptions).toHaveLength(1);
    expect(add.subscriptions[0]).toMatchObject({
      stream_id: id,
      name: 'lobby',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      subscribers: [t.accounts.admin.id, t.accounts.member.id].sort((a, b) => a - b),
    });
    expect(add.subscriptions[0].color).toMatch(/^#[0-9a-f]{6}$/);
    // Guests do not see a public channel's subscribers; the subscriber gets `add` instead.
    expect(receivers(events, peerAdd)).toEqual(['admin', 'moderator', 'other', 'owner']);
    expect(events.owner!.find(peerAdd)).toMatchObject({
      stream_ids: [id],
      user_ids: [t.accounts.member.id],
    });
    expect(receivers(events, streamCreate)).toEqual([]);
  });

  it('reports channels already subscribed to and sends nothing for them', async () => {
    createChannel(t, { name: 'again', subscribers: [t.accounts.member.id] });
    const body = await subscribeAs(t, 'member', ['again']);
    expect(body.subscribed).toEqual({});
    expect(body.already_subscribed).toEqual({ [String(t.accounts.member.id)]: ['again'] });
    const events = await watchers.take();
    expect(Object.values(events).flat()).toEqual([]);
  });

  it('refuses guests', async () => {
    createChannel(t, { name: 'open door', subscribers: [] });
    const res = await t.as('guest').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'open door' }],
    });
    expectError(res, 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });

  it('refuses a private channel without access, unless errors are not fatal', async () => {
    createChannel(t, { name: 'vault', private: true, subscribers: [t.accounts.owner.id] });
    createChannel(t, { name: 'yard', subscribers: [] });
    const fatal = await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'yard' }, { name: 'vault' }],
    });
    expectError(fatal, 400, 'BAD_REQUEST', 'Unable to access channel (vault).');

    const lenient = await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'yard' }, { name: 'vault' }],
      authorization_errors_fatal: false,
    });
    expect(lenient.status).toBe(200);
    expect(lenient.body.subscribed).toEqual({ [String(t.accounts.member.id)]: ['yard'] });
    expect(lenient.body.unauthorized).toEqual(['vault']);
  });

  it('treats an archived channel as inaccessible', async () => {
    const id = createChannel(t, { name: 'attic', subscribers: [] });
    setStreamArchived(t.server.ctx.db, id, true);
    const res = await t.as('member').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'attic' }],
    });
    expectError(res, 400, 'BAD_REQUEST', 'Unable to access channel (attic).');
  });

  it('validates names and colours', async () => {
    expectError(
      await t.as('member').post('/users/me/subscriptions', { subscriptions: [{ name: '  ' }] }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
    expectError(
      await t.as('member').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'x', color: 'red' }],
      }),
      400,
      'BAD_REQUEST',
      'add.color is not a valid hex color code',
    );
    expectError(
      await t.as('member').post('/users/me/subscriptions', { subscriptions: 'lobby' }),
      400,
      'BAD_REQUEST',
      'subscriptions is not valid JSON',
    );
    expectError(
      // The reference's 400 schema here has no var_name (every endpoint sends it).
      await t.as('member').post('/users/me/subscriptions', {}, { skipSchema: true }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'subscriptions' argument",
      { var_name: 'subscriptions' },
    );
  });
});

describe('colours', () => {
  it('gives each new subscription the next palette colour the user does not use yet', async () => {
    const fresh = await quickMember(t, 'Fay Fresh');
    const a = createChannel(t, { name: 'paint a', subscribers: [] });
    const b = createChannel(t, { name: 'paint b', subscribers: [] });
    const c = createChannel(t, { name: 'paint c', subscribers: [] });
    // Palette order follows channel ids, not the order of the request.
    await subscribeAs(t, fresh, ['paint c', 'paint a', 'paint b'], {});
    const subs = (await t.as(fresh).get('/users/me/subscriptions')).body.subscriptions;
    const color = (id: number) => subs.find((s: { stream_id: number }) => s.stream_id === id).color;
    expect([color(a), color(b), color(c)]).toEqual(subscriptionColors.slice(0, 3));

    const d = createChannel(t, { name: 'paint d', subscribers: [] });
    const e = createChannel(t, { name: 'paint e', subscribers: [] });
    // A requested colour is taken before the palette hands out the next one.
    await t.as(fresh).post('/users/me/subscriptions', {
      subscriptions: [{ name: 'paint e', color: subscriptionColors[3] }, { name: 'paint d' }],
    });
    const later = (await t.as(fresh).get('/users/me/subscriptions')).body.subscriptions;
    const color2 = (id: number) =>
      later.find((s: { stream_id: number }) => s.stream_id === id).color;
    expect(color2(e)).toBe(subscriptionColors[3]);
    expect(color2(d)).toBe(subscriptionColors[4]);
  });

  it('keeps the old colour when resubscribing', async () => {
    createChannel(t, { name: 'return', subscribers: [] });
    await subscribeAs(t, 'moderator', ['return']);
    const id = channelId(t, 'return');
    await t.as('moderator').post(`/users/me/subscriptions/${id}`, {
      property: 'color',
      value: '#123456',
    });
    await t.as('moderator').delete('/users/me/subscriptions', { subscriptions: ['return'] });
    await subscribeAs(t, 'moderator', ['return']);
    const subs = (await t.as('moderator').get('/users/me/subscriptions')).body.subscriptions;
    expect(subs.find((s: { stream_id: number }) => s.stream_id === id).color).toBe('#123456');
  });
});

describe('subscribing others', () => {
  it('adds a member to a private channel: they learn of it, its subscribers and admins see the peer', async () => {
    const id = createChannel(t, {
      name: 'inner circle',
      private: true,
      subscribers: [t.accounts.admin.id, t.accounts.moderator.id],
    });
    const res = await t.as('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'inner circle' }],
      principals: [t.accounts.member.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [String(t.accounts.member.id)]: ['inner circle'] });

    const events = await watchers.take();
    // The member could not see the channel before: create first, then add.
    expect(receivers(events, streamCreate)).toEqual(['member']);
    const memberEvents = events.member!.map((e: Event) => `${e.type}/${e.op}`);
    expect(memberEvents).toEqual(['stream/create', 'subscription/add']);
    expect(events.member![0].streams[0]).toMatchObject({ stream_id: id, invite_only: true });
    expect(receivers(events, subAdd)).toEqual(['member']);
    // Subscribers, and administrators (who see every private channel's subscribers).
    expect(receivers(events, peerAdd)).toEqual(['admin', 'moderator', 'owner']);
  });

  it('accepts e-mail principals', async () => {
    createChannel(t, { name: 'mailroom', subscribers: [] });
    const res = await t.as('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'mailroom' }],
      principals: [t.accounts.member.email, other.email],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.subscribed).sort()).toEqual(
      [String(t.accounts.member.id), String(other.id)].sort(),
    );
  });

  it('checks the principals', async () => {
    createChannel(t, { name: 'checks', subscribers: [] });
    const post = (principals: unknown) =>
      t.as('admin').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'checks' }],
        principals,
      });
    expectError(await post([99999]), 400, 'BAD_REQUEST', 'Invalid user ID: 99999');
    expectError(await post(['nobody@example.com']), 400, 'BAD_REQUEST', 'No such user');
    const gone = await quickMember(t, 'Gone Soon');
    setUserActive(t.server.ctx.db, gone.id, false);
    expectError(await post([gone.id]), 400, 'BAD_REQUEST', 'User is deactivated');
    expectError(await post([1, 'a@b.c']), 400, 'BAD_REQUEST', 'Invalid principals');
  });

  it("follows the organization's and the channel's add-subscribers permissions", async () => {
    const id = createChannel(t, { name: 'guarded', subscribers: [t.accounts.member.id] });
    const addOther = () =>
      t.as('member').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'guarded' }],
        principals: [other.id],
      });
    setRealmSettings(
      t.server.ctx.db,
      JSON.stringify({ can_add_subscribers_group: 'role:administrators' }),
    );
    try {
      expectError(await addOther(), 400, 'BAD_REQUEST', 'Insufficient permission');
      // Listing only oneself is not subscribing others.
      const self = await t.as('member').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'guarded' }],
        principals: [t.accounts.member.id],
      });
      expect(self.status).toBe(200);
      // The channel's own group grants it.
      const admin = t.as('admin');
      const patched = await admin.patch(`/streams/${id}`, {
        can_add_subscribers_group: {
          new: { direct_members: [t.accounts.member.id], direct_subgroups: [] },
        },
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect((await addOther()).status).toBe(200);
    } finally {
      setRealmSettings(t.server.ctx.db, '{}');
    }
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes and reports what was not subscribed', async () => {
    const id = createChannel(t, {
      name: 'leaving',
      subscribers: [t.accounts.member.id, t.accounts.guest.id],
    });
    createChannel(t, { name: 'never', subscribers: [] });
    const res = await t.as('member').delete('/users/me/subscriptions', {
      subscriptions: ['leaving', 'never'],
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      removed: ['leaving'],
      not_removed: ['never'],
    });
    const events = await watchers.take();
    expect(receivers(events, subRemove)).toEqual(['member']);
    expect(events.member!.find(subRemove).subscriptions).toEqual([
      { name: 'leaving', stream_id: id },
    ]);
    // The guest is subscribed, so sees the subscribers too; the member keeps seeing the public channel.
    expect(receivers(events, peerRemove)).toEqual([
      'admin',
      'guest',
      'moderator',
      'other',
      'owner',
    ]);
    expect(events.guest!.find(peerRemove)).toMatchObject({
      stream_ids: [id],
      user_ids: [t.accounts.member.id],
    });
    expect(receivers(events, streamDelete)).toEqual([]);
  });

  it('tells someone leaving a private channel that it is gone, but not an administrator', async () => {
    const id = createChannel(t, {
      name: 'backroom',
      private: true,
      subscribers: [t.accounts.member.id, t.accounts.admin.id, t.accounts.moderator.id],
    });
    await t.as('member').delete('/users/me/subscriptions', { subscriptions: ['backroom'] });
    await t.as('admin').delete('/users/me/subscriptions', { subscriptions: ['backroom'] });
    const events = await watchers.take();
    expect(receivers(events, streamDelete)).toEqual(['member']);
    expect(events.member!.find(streamDelete)).toMatchObject({
      streams: [{ stream_id: id }],
      stream_ids: [id],
    });
    // Peers of a private channel: its subscribers and the administrators.
    expect(receivers(events, peerRemove)).toEqual(['admin', 'moderator', 'owner']);
  });

  it('marks the channel read, with an event listing the messages', async () => {
    createChannel(t, { name: 'chatter', subscribers: [t.accounts.member.id, other.id] });
    const sent = await t.as(other).post('/messages', {
      type: 'stream',
      to: 'chatter',
      topic: 'news',
      content: 'unread for the member',
    });
    expect(sent.status).toBe(200);
    await watchers.clear();
    await t.as('member').delete('/users/me/subscriptions', { subscriptions: ['chatter'] });
    const events = await watchers.take();
    const flags = events.member!.find(isEvent('update_message_flags', 'add'));
    expect(flags).toMatchObject({ flag: 'read', messages: [sent.body.id], all: false });
    expect(receivers(events, isEvent('update_message_flags', 'add'))).toEqual(['member']);
  });

  it('removes others only with permission', async () => {
    createChannel(t, { name: 'kick', subscribers: [other.id, t.accounts.bot.id] });
    expectError(
      await t.as('member').delete('/users/me/subscriptions', {
        subscriptions: ['kick'],
        principals: [other.id],
      }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // One's own bot is not "someone else".
    const bot = await t.as('member').delete('/users/me/subscriptions', {
      subscriptions: ['kick'],
      principals: [t.accounts.bot.id],
    });
    expect(bot.body.removed).toEqual(['kick']);
    const admin = await t.as('admin').delete('/users/me/subscriptions', {
      subscriptions: ['kick'],
      principals: [other.email],
    });
    expect(admin.body.removed).toEqual(['kick']);
  });

  it('names the channels that do not exist', async () => {
    expectError(
      await t.as('member').delete('/users/me/subscriptions', { subscriptions: ['nope', 'nada'] }),
      400,
      'BAD_REQUEST',
      'Channel(s) (nope, nada) do not exist',
    );
  });
});

describe('GET /users/me/subscriptions', () => {
  it('lists active subscriptions by name, with subscribers on request', async () => {
    const viewer = await quickMember(t, 'Vera Viewer');
    createChannel(t, { name: 'b-list', subscribers: [viewer.id, t.accounts.owner.id] });
    createChannel(t, { name: 'A-list', subscribers: [viewer.id] });
    const gone = createChannel(t, { name: 'c-list', subscribers: [viewer.id] });
    setStreamArchived(t.server.ctx.db, gone, true);
    createChannel(t, { name: 'd-list', subscribers: [viewer.id] });
    await t.as(viewer).delete('/users/me/subscriptions', { subscriptions: ['d-list'] });

    const plain = await t.as(viewer).get('/users/me/subscriptions');
    expect(plain.body.subscriptions.map((s: { name: string }) => s.name)).toEqual([
      'A-list',
      'b-list',
    ]);
    expect(plain.body.subscriptions[0]).not.toHaveProperty('subscribers');
    const full = await t.as(viewer).get('/users/me/subscriptions', { include_subscribers: 'true' });
    expect(full.body.subscriptions[1].subscribers).toEqual(
      [viewer.id, t.accounts.owner.id].sort((a, b) => a - b),
    );
  });
});
