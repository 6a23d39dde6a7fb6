/**
 * PATCH /users/{email} (Zulip's update_user_by_email_api: PATCH
 * /users/{user_id} for the user an address names) and DELETE /users/me
 * (deactivate_user_own_backend: anyone may leave, but not the only user or
 * the only owner).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watcher, Watchers } from '../helpers/event-queues.js';
import { quickMember } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

describe('PATCH /users/{email}', () => {
  it('changes the named user’s name and role, and everyone hears it', async () => {
    const person = await quickMember(t, 'Pat Person');
    await watchers.clear();
    const res = await t
      .as('admin')
      .patch(`/users/${encodeURIComponent(person.email)}`, { full_name: 'Pat Renamed', role: 300 });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('realm_user');
    expect(receivers(events)).toEqual(everyone);
    expect(events.member!.map((e) => e.person)).toEqual([
      { user_id: person.id, full_name: 'Pat Renamed' },
      { user_id: person.id, role: 300 },
    ]);
    const user = (await t.as('member').get(`/users/${person.id}`)).body.user;
    expect(user).toMatchObject({ full_name: 'Pat Renamed', role: 300 });
  });

  it('takes the same checks as PATCH /users/{user_id}', async () => {
    const person = await quickMember(t, 'Quinn Checked');
    const byEmail = (who: 'member' | 'admin', params: Record<string, unknown>) =>
      t.as(who).patch(`/users/${encodeURIComponent(person.email)}`, params);
    const byId = (who: 'member' | 'admin', params: Record<string, unknown>) =>
      t.as(who).patch(`/users/${person.id}`, params);
    for (const [who, params] of [
      ['member', { full_name: 'Nope' }],
      ['admin', { full_name: 'x' }],
      ['admin', { role: 123 }],
      ['admin', { role: 100 }],
    ] as const) {
      const a = await byEmail(who, params);
      expect(a.status).toBe(400);
      expect(a.body).toEqual((await byId(who, params)).body);
    }
    expectError(
      await t.as('admin').patch('/users/nobody@example.com', { full_name: 'Nobody' }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});

describe('DELETE /users/me', () => {
  it('deactivates the caller and their bots; everyone hears it; their queues end', async () => {
    const leaver = await quickMember(t, 'Lee Leaving');
    const bot = await t.as(leaver).post('/bots', {
      full_name: 'Leaving Bot',
      short_name: `leaving${Date.now()}`,
    });
    expect(bot.status, JSON.stringify(bot.body)).toBe(200);
    const own = await Watcher.register(t.as(leaver));
    await watchers.clear();

    expect((await t.as(leaver).delete('/users/me')).body).toEqual({ result: 'success', msg: '' });
    const events = await watchers.take('realm_user');
    expect(
      receivers(events, (e) => e.person.user_id === leaver.id && e.person.is_active === false),
    ).toEqual(everyone);
    expect(receivers(events, (e) => e.person.user_id === bot.body.user_id)).toEqual(everyone);
    const poll = await t.as('owner').get('/users/' + bot.body.user_id);
    expect(poll.body.user.is_active).toBe(false);
    // The account can no longer call anything, its queue included.
    expectError(
      await t
        .as(leaver)
        .get('/events', { queue_id: own.queueId, last_event_id: -1, dont_block: true }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });

  it('a bot can deactivate itself', async () => {
    const made = await t
      .as('member')
      .post('/bots', { full_name: 'Self Ender', short_name: `ender${Date.now()}` });
    const bot = {
      id: made.body.user_id,
      email: made.body.email ?? '',
      apiKey: made.body.api_key,
      password: null,
    };
    const self = await t.as('member').get(`/users/${bot.id}`);
    bot.email = self.body.user.email;
    expect((await t.as(bot).delete('/users/me')).status).toBe(200);
    expect((await t.as('owner').get(`/users/${bot.id}`)).body.user.is_active).toBe(false);
  });

  it('refuses the only owner', async () => {
    expectError(
      await t.as('owner').delete('/users/me'),
      400,
      'CANNOT_DEACTIVATE_LAST_USER',
      'Cannot deactivate the only organization owner.',
      { is_last_owner: true, entity: 'organization owner' },
    );
    // With a second owner, either may leave.
    const second = await quickMember(t, 'Second Owner', 100);
    expect((await t.as(second).delete('/users/me')).status).toBe(200);
  });

  it('refuses the only user', async () => {
    const alone = await startTestServer();
    try {
      for (const who of ['admin', 'moderator', 'member', 'guest'] as const) {
        expect((await alone.as('owner').delete(`/users/${alone.accounts[who].id}`)).status).toBe(
          200,
        );
      }
      expect((await alone.as('owner').delete(`/bots/${alone.accounts.bot.id}`)).status).toBe(200);
      expectError(
        await alone.as('owner').delete('/users/me'),
        400,
        'CANNOT_DEACTIVATE_LAST_USER',
        'Cannot deactivate the only user.',
        { is_last_owner: false, entity: 'user' },
      );
    } finally {
      await alone.close();
    }
  });
});

describe('DELETE /users/me/profile_data', () => {
  it('removes the caller’s values, with PATCH’s checks', async () => {
    const made = await t
      .as('admin')
      .post('/realm/profile_fields', { name: `Pronouns ${Date.now()}`, field_type: 1 });
    const locked = await t.as('admin').post('/realm/profile_fields', {
      name: `Badge ${Date.now()}`,
      field_type: 1,
      editable_by_user: false,
    });
    await t
      .as('member')
      .patch('/users/me/profile_data', { data: [{ id: made.body.id, value: 'they/them' }] });
    await watchers.clear();
    expect(
      (await t.as('member').delete('/users/me/profile_data', { data: [made.body.id] })).body,
    ).toEqual({
      result: 'success',
      msg: '',
    });
    const events = await watchers.take('realm_user');
    expect(receivers(events)).toEqual(everyone);
    expect(events.owner![0].person).toEqual({
      user_id: t.accounts.member.id,
      custom_profile_field: { id: made.body.id, value: null },
    });
    const me = (await t.as('member').get('/users/me')).body;
    expect(me.profile_data[made.body.id]).toBeUndefined();
    expectError(
      await t.as('member').delete('/users/me/profile_data', { data: [987654] }),
      400,
      'BAD_REQUEST',
      'Field id 987654 not found.',
    );
    expectError(
      await t.as('member').delete('/users/me/profile_data', { data: [locked.body.id] }),
      400,
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
  });
});
