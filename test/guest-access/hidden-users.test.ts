/**
 * What else limited user access for guests (can_access_all_users_group at
 * role:members) hides, as Zulip does: direct messages to users the guest may
 * not see, mentions of them, their presence and status, user groups of a
 * deactivated user the guest never saw, and lookups by the made-up
 * `user{id}@` addresses.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadRealm } from '../../server/shared/realm.js';
import { expectError } from '../api/support.js';
import { Watchers } from '../helpers/event-queues.js';
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

const NO_ACCESS = 'You do not have permission to access some of the recipients.';

const groupId = async (name: string): Promise<number> => {
  const groups = (await t.as('owner').get('/user_groups')).body.user_groups as Array<{
    id: number;
    name: string;
  }>;
  return groups.find((g) => g.name === name)!.id;
};

const setAccess = async (name: string) =>
  t.as('owner').patch('/realm', { can_access_all_users_group: { new: await groupId(name) } });

const dmFromGuest = (to: number[]) =>
  t.as('guest').post('/messages', {
    type: 'direct',
    to: JSON.stringify(to),
    content: 'hello',
  });

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
  emailDomain = loadRealm(t.server.ctx).row.email_domain;
  watchers = new Watchers(t);
  await watchers.add('member');
  await watchers.add('guest');
  expect((await setAccess('role:members')).status).toBe(200);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

describe('direct messages from a guest', () => {
  it('refuses recipients the guest may not see, before any other check', async () => {
    expectError(await dmFromGuest([hal.id]), 400, 'BAD_REQUEST', NO_ACCESS);
    expectError(await dmFromGuest([dora.id, hal.id]), 400, 'BAD_REQUEST', NO_ACCESS);
    expectError(
      await t.as('guest').post('/messages', {
        type: 'direct',
        to: JSON.stringify([`user${hal.id}@${emailDomain}`]),
        content: 'by address',
      }),
      400,
      'BAD_REQUEST',
      NO_ACCESS,
    );
    expect((await dmFromGuest([dora.id])).status).toBe(200);
    expect((await dmFromGuest([sam.id, t.accounts.bot.id])).status).toBe(200);
    // Members are not limited.
    expect(
      (
        await t.as('member').post('/messages', {
          type: 'direct',
          to: JSON.stringify([hal.id]),
          content: 'hi hal',
        })
      ).status,
    ).toBe(200);
  });
});

describe('mentions by a guest', () => {
  it('leaves a mention of a user the guest may not see as text', async () => {
    const content = `@**Hal Hidden** @**Sam Sharing** @**Hal Hidden|${hal.id}**`;
    const sent = await t.as('guest').post('/messages', {
      type: 'stream',
      to: room,
      topic: 'mentions',
      content,
    });
    expect(sent.status).toBe(200);
    const fetched = await t.as('guest').get('/messages', {
      message_ids: JSON.stringify([sent.body.id]),
    });
    const html = fetched.body.messages[0].content as string;
    expect(html).toContain(`data-user-id="${sam.id}"`);
    expect(html).not.toContain(`data-user-id="${hal.id}"`);
    // As any unknown name: the asterisks are bold text (Zulip renders it so too).
    expect(html).toContain('<p>@<strong>Hal Hidden</strong> ');

    const preview = await t.as('guest').post('/messages/render', { content });
    expect(preview.body.rendered).not.toContain(`data-user-id="${hal.id}"`);
    // A member's mention of the same user renders.
    const byMember = await t.as('member').post('/messages/render', { content });
    expect(byMember.body.rendered).toContain(`data-user-id="${hal.id}"`);
  });
});

describe('presence and status of users a guest may not see', () => {
  // Hearth limits presence as Zulip does with CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE.
  it('keeps them out of presence events, register and GET /realm/presence', async () => {
    for (const who of [hal, sam]) {
      const res = await t.as(who).post('/users/me/presence', { status: 'active' });
      expect(res.status).toBe(200);
    }
    const events = await watchers.take('presence');
    const about = (list: Array<{ user_id: number }>) => list.map((e) => e.user_id).sort();
    expect(about(events.member!)).toEqual([sam.id, hal.id].sort());
    expect(about(events.guest!)).toEqual([sam.id]);

    const state = await t.as('guest').post('/register', {
      fetch_event_types: ['presence'],
      slim_presence: true,
    });
    expect(Object.keys(state.body.presences)).toContain(String(sam.id));
    expect(Object.keys(state.body.presences)).not.toContain(String(hal.id));
    const memberState = await t.as('member').post('/register', {
      fetch_event_types: ['presence'],
      slim_presence: true,
    });
    expect(Object.keys(memberState.body.presences)).toContain(String(hal.id));

    const polled = await t.as('guest').post('/users/me/presence', {
      status: 'active',
      slim_presence: true,
    });
    expect(Object.keys(polled.body.presences)).not.toContain(String(hal.id));
    const realmWide = await t.as('guest').get('/realm/presence');
    expect(Object.keys(realmWide.body.presences)).toContain(sam.email);
    expect(Object.keys(realmWide.body.presences)).not.toContain(`user${hal.id}@${emailDomain}`);
    expect(Object.keys(realmWide.body.presences)).not.toContain(hal.email);
  });

  it('refuses GET /users/{id}/presence for them', async () => {
    expectError(
      await t.as('guest').get(`/users/${hal.id}/presence`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('guest').get(`/users/${sam.id}/presence`)).status).toBe(200);
    expect((await t.as('member').get(`/users/${hal.id}/presence`)).status).toBe(200);
  });

  it('sends their user_status events only to those who may see them', async () => {
    expect((await t.as(hal).post('/users/me/status', { status_text: 'away' })).status).toBe(200);
    expect((await t.as(sam).post('/users/me/status', { status_text: 'here' })).status).toBe(200);
    const events = await watchers.take('user_status');
    expect(events.member!.map((e) => e.user_id)).toEqual([hal.id, sam.id]);
    expect(events.guest!.map((e) => e.user_id)).toEqual([sam.id]);
  });
});

describe('GET /users/{email} with a made-up user{id}@ address', () => {
  it('looks the user up by the id in it, as Zulip does, then checks access', async () => {
    const madeUp = (id: number) => encodeURIComponent(`user${id}@${emailDomain}`);
    expectError(
      await t.as('guest').get(`/users/${madeUp(hal.id)}`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('guest').get(`/users/${madeUp(sam.id)}`)).body.user.user_id).toBe(sam.id);
    expectError(
      await t.as('member').get(`/users/${madeUp(99999)}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    // Also for a user whose real address everyone may see.
    expect((await t.as('owner').patch('/settings', { email_address_visibility: 1 })).status).toBe(
      200,
    );
    const owner = await t.as('member').get(`/users/${madeUp(t.accounts.owner.id)}`);
    expect(owner.status).toBe(200);
    expect(owner.body.user.user_id).toBe(t.accounts.owner.id);
    expect(owner.body.user.email).toBe(t.accounts.owner.email);
  });
});

describe('deactivating a user a guest may not see', () => {
  it('tells the guest the user left their groups, and members only is_active', async () => {
    const created = await t.as('owner').post('/user_groups/create', {
      name: 'hal team',
      description: 'with hal',
      members: JSON.stringify([hal.id, sam.id]),
    });
    expect(created.status).toBe(200);
    const team = created.body.group_id as number;
    const membersGroup = await groupId('role:members');
    await watchers.clear();

    expect((await t.as('owner').delete(`/users/${hal.id}`)).status).toBe(200);
    const events = await watchers.take();
    const guestGroups = events.guest!.filter((e) => e.type === 'user_group');
    expect(guestGroups.map((e) => [e.op, e.group_id, e.user_ids])).toEqual(
      expect.arrayContaining([
        ['remove_members', membersGroup, [hal.id]],
        ['remove_members', team, [hal.id]],
      ]),
    );
    expect(guestGroups.every((e) => e.op === 'remove_members')).toBe(true);
    expect(events.guest!.filter((e) => e.type === 'realm_user')).toEqual([]);
    expect(events.member!.filter((e) => e.type === 'user_group')).toEqual([]);
    expect(events.member!.filter((e) => e.type === 'realm_user')).toEqual([
      expect.objectContaining({ op: 'update', person: { user_id: hal.id, is_active: false } }),
    ]);
  });
});
