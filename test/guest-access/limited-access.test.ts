/**
 * Zulip's limited user access for guests (can_access_all_users_group, in
 * zerver/lib/users.py and its callers): with the setting at role:members, a
 * guest sees bots, themselves and the users sharing a channel or a DM with
 * them; everyone else is "Unknown user", in register, GET /users, the
 * per-user endpoints, message senders and realm_user events.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadRealm } from '../../server/shared/realm.js';
import { expectError } from '../api/support.js';
import { type Event, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import type { Account, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let sam: Account; // shares a channel with the guest
let dora: Account; // has a DM with the guest
let hal: Account; // shares nothing with the guest
let room: number;
let emailDomain: string;

const groupId = async (name: string): Promise<number> => {
  const groups = (await t.as('owner').get('/user_groups')).body.user_groups as Array<{
    id: number;
    name: string;
  }>;
  return groups.find((g) => g.name === name)!.id;
};

const setAccess = async (name: string) =>
  t.as('owner').patch('/realm', { can_access_all_users_group: { new: await groupId(name) } });

const placeholderOf = (id: number) => ({
  email: `user${id}@${emailDomain}`,
  user_id: id,
  avatar_version: 1,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  role: 400,
  is_bot: false,
  full_name: 'Unknown user',
  timezone: '',
  is_active: true,
  date_joined: '1970-01-01T00:00:00+00:00',
  delivery_email: null,
  avatar_url: '/static/images/unknown-user-avatar.png',
  profile_data: {},
  is_imported_stub: false,
});

const realmUsers = async (who: 'guest' | 'member', capabilities?: Record<string, boolean>) => {
  const res = await t.as(who).post('/register', {
    fetch_event_types: ['realm_user'],
    ...(capabilities ? { client_capabilities: capabilities } : {}),
  });
  expect(res.status).toBe(200);
  return res.body.realm_users as Array<Record<string, unknown>>;
};
const byId = (list: Array<Record<string, unknown>>, id: number) =>
  list.find((u) => u.user_id === id);

beforeAll(async () => {
  t = await startTestServer();
  sam = await quickMember(t, 'Sam Sharing');
  dora = await quickMember(t, 'Dora Direct');
  hal = await quickMember(t, 'Hal Hidden');
  room = createChannel(t, {
    name: 'guest room',
    subscribers: [t.accounts.guest.id, t.accounts.member.id, sam.id],
  });
  const sent = await t.as(dora).post('/messages', {
    type: 'direct',
    to: JSON.stringify([t.accounts.guest.id]),
    content: 'hello guest',
  });
  expect(sent.status).toBe(200);
  // The domain of the addresses Zulip makes up for users whose own is hidden.
  emailDomain = loadRealm(t.server.ctx).row.email_domain;
  watchers = new Watchers(t);
  await watchers.add('member');
  await watchers.add('guest');
  await watchers.add('guest_incomplete', t.accounts.guest, {
    client_capabilities: JSON.stringify({ user_list_incomplete: true }),
  });
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

describe('PATCH /realm can_access_all_users_group', () => {
  it('takes only role:everyone or role:members', async () => {
    expectError(
      await setAccess('role:moderators'),
      400,
      'BAD_REQUEST',
      "'can_access_all_users_group' setting cannot be set to 'role:moderators' group.",
    );
    expectError(
      await setAccess('role:nobody'),
      400,
      'BAD_REQUEST',
      "'can_access_all_users_group' setting cannot be set to 'role:nobody' group.",
    );
    expectError(
      await t.as('owner').patch('/realm', {
        can_access_all_users_group: { new: { direct_members: [sam.id], direct_subgroups: [] } },
      }),
      400,
      'BAD_REQUEST',
      "'can_access_all_users_group' must be a system user group.",
    );
  });

  it('leaves every user visible while it is role:everyone', async () => {
    const guestSees = await realmUsers('guest');
    expect(byId(guestSees, hal.id)).toMatchObject({ full_name: 'Hal Hidden' });
  });
});

describe('with can_access_all_users_group set to role:members', () => {
  beforeAll(async () => {
    const res = await setAccess('role:members');
    expect(res.status).toBe(200);
  });

  it('register gives the guest placeholders for users they share nothing with', async () => {
    const guestSees = await realmUsers('guest');
    expect(byId(guestSees, hal.id)).toEqual(placeholderOf(hal.id));
    expect(byId(guestSees, sam.id)).toMatchObject({ full_name: 'Sam Sharing' });
    expect(byId(guestSees, dora.id)).toMatchObject({ full_name: 'Dora Direct' });
    expect(byId(guestSees, t.accounts.bot.id)).toMatchObject({ full_name: 'Test Bot' });
    expect(byId(guestSees, t.accounts.admin.id)).toEqual(placeholderOf(t.accounts.admin.id));
    // Members still see everyone.
    expect(byId(await realmUsers('member'), hal.id)).toMatchObject({ full_name: 'Hal Hidden' });
  });

  it('register leaves them out for clients declaring user_list_incomplete', async () => {
    const guestSees = await realmUsers('guest', { user_list_incomplete: true });
    expect(byId(guestSees, hal.id)).toBeUndefined();
    expect(byId(guestSees, sam.id)).toMatchObject({ full_name: 'Sam Sharing' });
  });

  it('GET /users leaves them out; GET /users/{id} and /users/{email} refuse them', async () => {
    const members = (await t.as('guest').get('/users')).body.members as Array<
      Record<string, unknown>
    >;
    expect(byId(members, hal.id)).toBeUndefined();
    expect(byId(members, sam.id)).toMatchObject({ full_name: 'Sam Sharing' });
    expectError(
      await t.as('guest').get(`/users/${hal.id}`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('guest').get(`/users/${encodeURIComponent(hal.email)}`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('guest').get(`/users/${sam.id}`)).body.user.full_name).toBe('Sam Sharing');
    expect((await t.as('member').get(`/users/${hal.id}`)).body.user.full_name).toBe('Hal Hidden');
  });

  it('shows an unknown sender of a channel message as "Unknown user"', async () => {
    const sent = await t.as(hal).post('/messages', {
      type: 'stream',
      to: room,
      topic: 'from outside',
      content: 'knock knock',
    });
    expect(sent.status).toBe(200);
    const hidden = {
      sender_id: hal.id,
      sender_full_name: 'Unknown user',
      sender_email: `user${hal.id}@${emailDomain}`,
      avatar_url: '/static/images/unknown-user-avatar.png',
    };
    const events = await watchers.take('message');
    expect(events.guest![0].message).toMatchObject(hidden);
    expect(events.member![0].message).toMatchObject({ sender_full_name: 'Hal Hidden' });
    const fetched = await t.as('guest').get('/messages', {
      message_ids: JSON.stringify([sent.body.id]),
    });
    expect(fetched.body.messages[0]).toMatchObject(hidden);
    const picture = await t.anonymous().fetch('/static/images/unknown-user-avatar.png');
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
  });

  it('sends realm_user updates only to those who may see the user', async () => {
    await t.as(hal).patch('/settings', { full_name: 'Hal Renamed' });
    await t.as(sam).patch('/settings', { full_name: 'Sam Renamed' });
    const events = await watchers.take('realm_user');
    const about = (id: number) => (e: Event) => e.op === 'update' && e.person.user_id === id;
    expect(receivers(events, about(hal.id))).toEqual(['member']);
    expect(receivers(events, about(sam.id))).toEqual(['guest', 'guest_incomplete', 'member']);
  });

  it('announces a new user to guests as "Unknown user", unless their list may be incomplete', async () => {
    const newcomer = await quickMember(t, 'Nora Newcomer');
    const events = await watchers.take('realm_user');
    expect(events.member!.map((e) => e.person.full_name)).toEqual(['Nora Newcomer']);
    expect(events.guest).toEqual([
      { type: 'realm_user', op: 'add', person: placeholderOf(newcomer.id), id: expect.any(Number) },
    ]);
    expect(events.guest_incomplete).toEqual([]);
  });

  it('tells a guest about a user who joins their channel, and forgets them when they leave', async () => {
    const joined = await t.as(hal).post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'guest room' }]),
    });
    expect(joined.status).toBe(200);
    let events = await watchers.take();
    const adds = events.guest!.filter((e) => e.type === 'realm_user');
    expect(adds).toEqual([
      expect.objectContaining({
        op: 'add',
        person: expect.objectContaining({ user_id: hal.id, full_name: 'Hal Renamed' }),
      }),
    ]);
    expect(events.member!.filter((e) => e.type === 'realm_user')).toEqual([]);
    expect(byId(await realmUsers('guest'), hal.id)).toMatchObject({ full_name: 'Hal Renamed' });
    expect((await t.as('guest').get(`/users/${hal.id}`)).status).toBe(200);

    const left = await t.as(hal).delete('/users/me/subscriptions', {
      subscriptions: JSON.stringify(['guest room']),
    });
    expect(left.status).toBe(200);
    events = await watchers.take('realm_user');
    expect(events.guest).toEqual([
      {
        type: 'realm_user',
        op: 'remove',
        person: { user_id: hal.id, full_name: 'Unknown user' },
        id: expect.any(Number),
      },
    ]);
    expect(events.member).toEqual([]);
    expect(byId(await realmUsers('guest'), hal.id)).toEqual(placeholderOf(hal.id));
  });
});
