/**
 * The users endpoints and the spec's User object: fields, e-mail visibility,
 * avatars, creation, updates, deactivation and reactivation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserSettings } from '../../server/db/queries/users.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  FIXTURE_PASSWORD,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { expectError } from './support.js';

let t: TestServer;
/** A fixed clock, so date_joined is known exactly. */
const NOW = Date.UTC(2026, 0, 2, 3, 4, 56, 789);
beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
});
afterAll(() => t.close());

/** Hearth hosts every avatar (Zulip with ENABLE_GRAVATAR off): never null, never a third party. */
const hostedAvatar = (id: number, version = 1) => `/user_avatars/${id}.png?version=${version}`;

const setVisibility = (account: Account, value: number) =>
  setUserSettings(t.server.ctx.db, account.id, JSON.stringify({ email_address_visibility: value }));

const placeholder = (id: number) => `user${id}@test.hearth`;

/** The User object table of the spec; bot_type and bot_owner_id are there for bots only, as in Zulip. */
const USER_FIELDS = [
  'user_id',
  'delivery_email',
  'email',
  'full_name',
  'date_joined',
  'is_active',
  'is_owner',
  'is_admin',
  'is_guest',
  'is_bot',
  'role',
  'timezone',
  'avatar_url',
  'avatar_version',
  'is_imported_stub',
];
const BOT_FIELDS = ['bot_type', 'bot_owner_id'];

function expectUserShape(user: Record<string, unknown>): void {
  expect(
    Object.keys(user)
      .filter((k) => k !== 'profile_data' && k !== 'is_deleted')
      .sort(),
  ).toEqual((user.is_bot ? [...USER_FIELDS, ...BOT_FIELDS] : USER_FIELDS).sort());
  expect(user.user_id).toEqual(expect.any(Number));
  expect(typeof user.email).toBe('string');
  expect(user.date_joined).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}\+00:00$/);
  expect(typeof user.timezone).toBe('string');
  expect(Number.isInteger(user.avatar_version)).toBe(true);
  expect(typeof user.is_imported_stub).toBe('boolean');
  expect(typeof user.is_active).toBe('boolean');
  // is_deleted appears only when true.
  expect(user.is_deleted === undefined || user.is_deleted === true).toBe(true);
  expect(user.is_admin).toBe((user.role as number) <= 200);
  expect(user.is_owner).toBe(user.role === 100);
  expect(user.is_guest).toBe(user.role === 600);
  if (user.is_bot) {
    expect([1, 2, 3, 4]).toContain(user.bot_type);
    expect(user.delivery_email).toBe(user.email);
  } else {
    expect(user).not.toHaveProperty('bot_type');
    expect(user).not.toHaveProperty('bot_owner_id');
  }
}

describe('GET /users/me', () => {
  it.each(['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const)(
    'returns the caller (%s) with max_message_id',
    async (who) => {
      const res = await t.as(who).get('/users/me');
      expect(res.status).toBe(200);
      const { result, msg, max_message_id, profile_data, ...user } = res.body;
      expect(max_message_id).toBe(-1);
      expectUserShape(user);
      expect(user.user_id).toBe(t.accounts[who].id);
      expect(user.delivery_email).toBe(t.accounts[who].email);
      expect(user.avatar_url).toBe(hostedAvatar(t.accounts[who].id));
      if (who === 'bot') expect(profile_data).toBeUndefined();
      else expect(profile_data).toEqual({});
    },
  );

  it('shows the real delivery_email even when the address is hidden from everyone', async () => {
    const me = await quickMember(t, 'Secret Sam');
    setVisibility(me, 4);
    const res = await t.as(me).get('/users/me');
    expect(res.body.delivery_email).toBe(me.email);
    expect(res.body.email).toBe(placeholder(me.id));
  });

  it('date_joined is the creation time to the minute, in UTC', async () => {
    const res = await t.as('member').get('/users/me');
    expect(res.body.date_joined).toBe('2026-01-02T03:04+00:00');
  });
});

describe('GET /users', () => {
  let gone: Account;
  beforeAll(async () => {
    gone = await quickMember(t, 'Gone Gwen');
    await t.as('admin').delete(`/users/${gone.id}`);
  });

  it('lists every user, bots and deactivated users included', async () => {
    const res = await t.as('member').get('/users');
    expect(res.status).toBe(200);
    const ids = res.body.members.map((m: { user_id: number }) => m.user_id);
    for (const account of Object.values(t.accounts)) expect(ids).toContain(account.id);
    expect(ids).toContain(gone.id);
    for (const user of res.body.members) expectUserShape(user);
    const byId = new Map(res.body.members.map((m: { user_id: number }) => [m.user_id, m]));
    expect(byId.get(gone.id)).toMatchObject({ is_active: false, full_name: 'Gone Gwen' });
    expect(byId.get(t.accounts.bot.id)).toMatchObject({
      is_bot: true,
      bot_type: 1,
      bot_owner_id: t.accounts.member.id,
      email: 'test-bot@test.hearth',
    });
  });

  it('avatar_url is the hosted avatar whatever client_gravatar says', async () => {
    const byDefault = await t.as('member').get('/users');
    for (const user of byDefault.body.members) {
      expect(user.avatar_url).toBe(hostedAvatar(user.user_id, user.avatar_version));
    }
    for (const client_gravatar of [true, false]) {
      const res = await t.as('member').get('/users', { client_gravatar });
      expect(res.body.members).toEqual(byDefault.body.members);
    }
  });

  it('include_custom_profile_fields adds profile_data to humans only', async () => {
    const without = await t.as('member').get('/users');
    for (const user of without.body.members) expect(user).not.toHaveProperty('profile_data');
    const withData = await t.as('member').get('/users', { include_custom_profile_fields: true });
    for (const user of withData.body.members) {
      if (user.is_bot) expect(user).not.toHaveProperty('profile_data');
      else expect(user.profile_data).toEqual({});
    }
  });

  it('user_ids returns only those users', async () => {
    const ids = [t.accounts.guest.id, t.accounts.bot.id, gone.id];
    const res = await t.as('member').get('/users', { user_ids: ids });
    expect(res.body.members.map((m: { user_id: number }) => m.user_id).sort()).toEqual(
      [...ids].sort(),
    );
    const empty = await t.as('member').get('/users', { user_ids: [] });
    expect(empty.body.members).toEqual([]);
  });
});

describe('GET /users/{user_id} and /users/{email}', () => {
  it('returns one user by id, deactivated users and bots included', async () => {
    const res = await t.as('guest').get(`/users/${t.accounts.admin.id}`);
    expect(res.status).toBe(200);
    expectUserShape(res.body.user);
    expect(res.body.user).toMatchObject({
      user_id: t.accounts.admin.id,
      full_name: 'Ada Admin',
      role: 200,
      delivery_email: 'admin@example.com',
      email: 'admin@example.com',
      is_active: true,
      is_imported_stub: false,
      timezone: '',
      avatar_version: 1,
      avatar_url: hostedAvatar(t.accounts.admin.id),
    });
    expect(res.body.user).not.toHaveProperty('is_deleted');
    const bot = await t.as('guest').get(`/users/${t.accounts.bot.id}`);
    expect(bot.body.user).toMatchObject({ is_bot: true, bot_owner_id: t.accounts.member.id });
  });

  it('returns one user by e-mail', async () => {
    const res = await t.as('member').get(`/users/${t.accounts.moderator.email}`);
    expect(res.status).toBe(200);
    expect(res.body.user.user_id).toBe(t.accounts.moderator.id);
    const upper = await t.as('member').get(`/users/${t.accounts.moderator.email.toUpperCase()}`);
    expect(upper.body.user.user_id).toBe(t.accounts.moderator.id);
    const bot = await t.as('member').get('/users/test-bot@test.hearth');
    expect(bot.body.user.user_id).toBe(t.accounts.bot.id);
  });

  it('honours include_custom_profile_fields; the avatar is hosted either way', async () => {
    const id = t.accounts.member.id;
    const plain = await t.as('owner').get(`/users/${id}`);
    expect(plain.body.user.avatar_url).toBe(hostedAvatar(id));
    expect(plain.body.user).not.toHaveProperty('profile_data');
    const full = await t
      .as('owner')
      .get(`/users/${id}`, { client_gravatar: false, include_custom_profile_fields: true });
    expect(full.body.user.avatar_url).toBe(hostedAvatar(t.accounts.member.id));
    expect(full.body.user.profile_data).toEqual({});
    const byEmail = await t
      .as('owner')
      .get(`/users/${t.accounts.member.email}`, { client_gravatar: false });
    expect(byEmail.body.user.avatar_url).toBe(hostedAvatar(t.accounts.member.id));
  });

  it('unknown users are "No such user"', async () => {
    for (const path of [
      '/users/999999',
      '/users/0',
      '/users/nobody@example.com',
      `/users/${placeholder(999999)}`,
      '/users/not-an-email',
    ]) {
      expectError(await t.as('member').get(path), 400, 'BAD_REQUEST', 'No such user');
    }
  });

  it('hidden addresses can be looked up by placeholder, and by real address only by those who may see it', async () => {
    const hidden = await quickMember(t, 'Hidden Harriet');
    setVisibility(hidden, 3);
    const byPlaceholder = await t.as('member').get(`/users/${placeholder(hidden.id)}`);
    expect(byPlaceholder.body.user).toMatchObject({ user_id: hidden.id, delivery_email: null });
    expectError(
      await t.as('member').get(`/users/${hidden.email}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    const byAdmin = await t.as('admin').get(`/users/${hidden.email}`);
    expect(byAdmin.body.user).toMatchObject({ user_id: hidden.id, delivery_email: hidden.email });
    const bySelf = await t.as(hidden).get(`/users/${hidden.email}`);
    expect(bySelf.body.user.user_id).toBe(hidden.id);
  });
});

describe('e-mail address visibility', () => {
  // Which viewer roles see delivery_email for each email_address_visibility value.
  const viewers: FixtureName[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];
  const visibleTo: Record<number, FixtureName[]> = {
    1: ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'],
    2: ['owner', 'admin', 'moderator', 'member', 'bot'],
    3: ['owner', 'admin'],
    4: [],
    5: ['owner', 'admin', 'moderator'],
  };
  let target: Account;
  beforeAll(async () => {
    target = await quickMember(t, 'Visibility Vic');
  });

  it.each([1, 2, 3, 4, 5])('email_address_visibility=%i', async (value) => {
    setVisibility(target, value);
    const email = value === 1 ? target.email : placeholder(target.id);
    for (const viewer of viewers) {
      const sees = visibleTo[value]!.includes(viewer);
      const one = await t.as(viewer).get(`/users/${target.id}`);
      expect(one.body.user, `${viewer} viewing setting ${value}`).toMatchObject({
        delivery_email: sees ? target.email : null,
        email,
        avatar_url: hostedAvatar(target.id),
      });
      const noClientGravatar = await t
        .as(viewer)
        .get(`/users/${target.id}`, { client_gravatar: false });
      expect(noClientGravatar.body.user.avatar_url).toBe(hostedAvatar(target.id));
      const list = await t.as(viewer).get('/users', { user_ids: [target.id] });
      expect(list.body.members[0]).toMatchObject({
        delivery_email: sees ? target.email : null,
        email,
      });
    }
    const self = await t.as(target).get(`/users/${target.id}`);
    expect(self.body.user).toMatchObject({ delivery_email: target.email, email });
  });

  it('bots always show their address', async () => {
    setUserSettings(
      t.server.ctx.db,
      t.accounts.bot.id,
      JSON.stringify({ email_address_visibility: 4 }),
    );
    const res = await t.as('guest').get(`/users/${t.accounts.bot.id}`);
    expect(res.body.user).toMatchObject({
      email: 'test-bot@test.hearth',
      delivery_email: 'test-bot@test.hearth',
    });
    setUserSettings(t.server.ctx.db, t.accounts.bot.id, '{}');
  });
});

describe('POST /users', () => {
  it('creates a member who can log in with the password', async () => {
    const res = await t.as('owner').post('/users', {
      email: 'New.Person@Example.com',
      password: 'new person password',
      full_name: '  New Person  ',
    });
    expect(res.body).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    const id = res.body.user_id;
    const user = (await t.as('owner').get(`/users/${id}`)).body.user;
    expectUserShape(user);
    expect(user).toMatchObject({
      user_id: id,
      email: 'New.Person@Example.com',
      delivery_email: 'New.Person@Example.com',
      full_name: 'New Person',
      role: 400,
      is_active: true,
      is_bot: false,
    });
    const login = await t.anonymous().post('/fetch_api_key', {
      username: 'new.person@example.com',
      password: 'new person password',
    });
    expect(login.body.user_id).toBe(id);
  });

  it('refuses an address already in use, whatever its case', async () => {
    for (const email of ['member@example.com', 'MEMBER@example.com', 'test-bot@test.hearth']) {
      expectError(
        await t.as('owner').post('/users', { email, password: 'pw pw pw', full_name: 'Dupe' }),
        400,
        'BAD_REQUEST',
        `Email '${email}' already in use`,
      );
    }
  });

  it('refuses a password "Set password" would refuse, with Zulip\'s message', async () => {
    const email = 'weak.password@example.com';
    expectError(
      await t.as('owner').post('/users', { email, password: 'abcde', full_name: 'Weak' }),
      400,
      'BAD_REQUEST',
      'The password is too weak.',
    );
    const taken = await t.as('owner').get('/users');
    expect(taken.body.members.some((u: { email: string }) => u.email === email)).toBe(false);
    // The address is checked first, as Zulip does.
    expectError(
      await t
        .as('owner')
        .post('/users', { email: 'member@example.com', password: 'x', full_name: 'Dup' }),
      400,
      'BAD_REQUEST',
      "Email 'member@example.com' already in use",
    );
  });

  it('refuses invalid addresses', async () => {
    for (const email of ['not-an-email', 'a@', '@b.c', 'two words@example.com', '']) {
      expectError(
        await t.as('owner').post('/users', { email, password: 'pw pw pw', full_name: 'Bad Mail' }),
        400,
        'BAD_REQUEST',
        `Invalid email '${email}'`,
      );
    }
  });

  it.each([
    ['', 'Name too short!'],
    ['   ', 'Name too short!'],
    ['A', 'Name too short!'],
    ['x'.repeat(101), 'Name too long!'],
    ['Bad@Name', 'Invalid characters in name!'],
    ['Star *Name*', 'Invalid characters in name!'],
    ['Quote "Name"', 'Invalid characters in name!'],
    ['Tab\tName', 'Invalid characters in name!'],
    ['Name|12', 'Invalid format!'],
  ])('refuses the full name %j: %s', async (fullName, msg) => {
    const email = `name-${Math.random().toString(36).slice(2)}@example.com`;
    expectError(
      await t.as('owner').post('/users', { email, password: 'pw pw pw', full_name: fullName }),
      400,
      'BAD_REQUEST',
      msg,
    );
  });

  it('accepts names of 2 to 100 characters, any script', async () => {
    for (const [i, fullName] of [
      'Al',
      'x'.repeat(100),
      'Zoë Ångström',
      '李小龙',
      'O|Brien',
    ].entries()) {
      const res = await t.as('admin').post('/users', {
        email: `ok-name-${i}@example.com`,
        password: 'pw pw pw',
        full_name: fullName,
      });
      expect(res.status, fullName).toBe(200);
    }
  });
});

describe('PATCH /users/{user_id}', () => {
  it('changes full_name and role', async () => {
    const user = await quickMember(t, 'Before Name');
    const res = await t
      .as('admin')
      .patch(`/users/${user.id}`, { full_name: '  After Name ', role: 600 });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const me = await t.as(user).get('/users/me');
    expect(me.body).toMatchObject({ full_name: 'After Name', role: 600, is_guest: true });
  });

  it('with nothing to change succeeds and changes nothing', async () => {
    const user = await quickMember(t, 'Same Name');
    expect((await t.as('admin').patch(`/users/${user.id}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await t.as(user).get('/users/me')).body).toMatchObject({
      full_name: 'Same Name',
      role: 400,
    });
  });

  it('applies the name rules and refuses invalid roles', async () => {
    const user = await quickMember(t, 'Rule Follower');
    expectError(
      await t.as('admin').patch(`/users/${user.id}`, { full_name: 'x' }),
      400,
      'BAD_REQUEST',
      'Name too short!',
    );
    expectError(
      await t.as('admin').patch(`/users/${user.id}`, { role: 1 }),
      400,
      'BAD_REQUEST',
      'Invalid role',
    );
    expectError(
      await t.as('admin').patch('/users/999999', { full_name: 'Nobody Here' }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expect((await t.as(user).get('/users/me')).body.full_name).toBe('Rule Follower');
  });

  it('can rename bots', async () => {
    const res = await t
      .as('admin')
      .patch(`/users/${t.accounts.bot.id}`, { full_name: 'Renamed Bot' });
    expect(res.status).toBe(200);
    expect((await t.as('bot').get('/users/me')).body.full_name).toBe('Renamed Bot');
    await t.as('admin').patch(`/users/${t.accounts.bot.id}`, { full_name: 'Test Bot' });
  });
});

describe('DELETE /users/{user_id} and POST /users/{user_id}/reactivate', () => {
  it('deactivates: the user is marked inactive and can no longer call the API', async () => {
    const user = await quickMember(t, 'Short Stay');
    expect((await t.as('admin').delete(`/users/${user.id}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await t.as('owner').get(`/users/${user.id}`)).body.user.is_active).toBe(false);
    expectError(
      await t.as(user).get('/users/me'),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });

  it("drops the user's event queues", async () => {
    const user = await quickMember(t, 'Queue Holder');
    const registered = await t.as(user).post('/register', { event_types: ['realm_user'] });
    expect(registered.status).toBe(200);
    const queueId = registered.body.queue_id;
    expect([...t.server.ctx.events.queuesOf(user.id)]).toHaveLength(1);

    await t.as('admin').delete(`/users/${user.id}`);
    expect([...t.server.ctx.events.queuesOf(user.id)]).toHaveLength(0);
    await t.as('admin').post(`/users/${user.id}/reactivate`);
    expectError(
      await t.as(user).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${queueId}`,
      { queue_id: queueId },
    );
  });

  it('refuses an already deactivated user, bots and unknown ids', async () => {
    const user = await quickMember(t, 'Twice Gone');
    await t.as('admin').delete(`/users/${user.id}`);
    expectError(
      await t.as('admin').delete(`/users/${user.id}`),
      400,
      'BAD_REQUEST',
      'User is deactivated',
    );
    expectError(
      await t.as('admin').delete(`/users/${t.accounts.bot.id}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(await t.as('admin').delete('/users/999999'), 400, 'BAD_REQUEST', 'No such user');
    expect((await t.as('bot').get('/users/me')).status).toBe(200);
  });

  it('reactivates: the user can call the API and log in again', async () => {
    const user = await t.createMember('Comeback Kid');
    await t.as('admin').delete(`/users/${user.id}`);
    expect((await t.as('admin').post(`/users/${user.id}/reactivate`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await t.as(user).get('/users/me')).body).toMatchObject({
      user_id: user.id,
      is_active: true,
    });
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: user.email, password: FIXTURE_PASSWORD });
    expect(login.body.api_key).toBe(user.apiKey);
    expectError(
      await t.as('admin').post('/users/999999/reactivate'),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});
