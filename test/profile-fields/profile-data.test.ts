import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watchers } from '../helpers/event-queues.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let gone: Account;
const ids = { short: 0, long: 0, select: 0, date: 0, url: 0, users: 0, locked: 0 };

beforeAll(async () => {
  t = await startTestServer();
  gone = await t.createMember('Gone Away');
  expect((await t.as('admin').delete(`/users/${gone.id}`)).status).toBe(200);
  const make = async (key: keyof typeof ids, params: Record<string, unknown>) => {
    const res = await t.as('admin').post('/realm/profile_fields', { name: key, ...params });
    expect(res.body.result, JSON.stringify(res.body)).toBe('success');
    ids[key] = res.body.id;
  };
  await make('short', { field_type: 1 });
  await make('long', { field_type: 2 });
  await make('select', {
    field_type: 3,
    field_data: { a: { text: 'Alpha', order: '1' }, b: { text: 'Beta', order: '2' } },
  });
  await make('date', { field_type: 4 });
  await make('url', { field_type: 5 });
  await make('users', { field_type: 6 });
  await make('locked', { field_type: 1, editable_by_user: false });
});
afterAll(() => t.close());

const ok = { result: 'success', msg: '' };
const err = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const setOwn = (who: Parameters<TestServer['as']>[0], data: unknown) =>
  t.as(who).patch('/users/me/profile_data', { data });
async function profileOf(userId: number) {
  const res = await t.as('owner').get(`/users/${userId}`, { include_custom_profile_fields: true });
  return res.body.user.profile_data;
}

describe('PATCH /users/me/profile_data', () => {
  it('stores each type, renders text fields and shows values in user objects', async () => {
    const member = t.accounts.member;
    const res = await setOwn('member', [
      { id: ids.short, value: '**Hi**' },
      { id: ids.long, value: 'A longer text' },
      { id: ids.select, value: 'b' },
      { id: ids.date, value: '2024-02-29' },
      { id: ids.url, value: 'https://example.com/me' },
      { id: ids.users, value: [t.accounts.admin.id, t.accounts.guest.id] },
    ]);
    expect(res.body).toEqual(ok);
    expect(await profileOf(member.id)).toEqual({
      [ids.short]: { value: '**Hi**', rendered_value: '<p><strong>Hi</strong></p>' },
      [ids.long]: { value: 'A longer text', rendered_value: '<p>A longer text</p>' },
      [ids.select]: { value: 'b' },
      [ids.date]: { value: '2024-02-29' },
      [ids.url]: { value: 'https://example.com/me' },
      [ids.users]: { value: JSON.stringify([t.accounts.admin.id, t.accounts.guest.id]) },
    });
    const reg = await t.as('guest').post('/register', { fetch_event_types: ['realm_user'] });
    const me = reg.body.realm_users.find((u: { user_id: number }) => u.user_id === member.id);
    expect(me.profile_data[ids.select]).toEqual({ value: 'b' });
  });

  it('null and empty values remove the value', async () => {
    await setOwn('moderator', [
      { id: ids.short, value: 'x' },
      { id: ids.users, value: [t.accounts.member.id] },
    ]);
    expect(
      (
        await setOwn('moderator', [
          { id: ids.short, value: null },
          { id: ids.users, value: [] },
        ])
      ).body,
    ).toEqual(ok);
    expect(await profileOf(t.accounts.moderator.id)).toEqual({});
  });

  it.each([
    [() => [{ id: 9999, value: 'x' }], 'Field id 9999 not found.'],
    [
      () => [{ id: ids.locked, value: 'x' }],
      'You are not allowed to change this field. Contact an administrator to update it.',
    ],
    [() => [{ id: ids.short, value: 'x'.repeat(51) }], 'short is too long (limit: 50 characters)'],
    [() => [{ id: ids.long, value: 'x'.repeat(501) }], 'long is too long (limit: 500 characters)'],
    [() => [{ id: ids.short, value: [1] }], 'short is not a string'],
    [() => [{ id: ids.select, value: 'c' }], "'c' is not a valid choice for 'select'."],
    [() => [{ id: ids.date, value: '2023-02-29' }], 'date is not a date'],
    [() => [{ id: ids.date, value: '29/02/2024' }], 'date is not a date'],
    [() => [{ id: ids.url, value: 'not a url' }], 'url is not a URL'],
    [() => [{ id: ids.users, value: 'x' }], 'User IDs is not a list'],
    [() => [{ id: ids.users, value: [999999] }], 'Invalid user ID: 999999'],
    [() => [{ id: ids.users, value: [gone.id] }], () => `User with ID ${gone.id} is deactivated`],
    [
      () => [{ id: ids.users, value: [t.accounts.bot.id] }],
      () => `User with ID ${t.accounts.bot.id} is a bot`,
    ],
  ])('refuses %#: %s', async (data, msg) => {
    const before = await profileOf(t.accounts.guest.id);
    // A valid first entry is not written when a later one fails.
    const res = await setOwn('guest', [{ id: ids.short, value: 'first' }, ...data()]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err(typeof msg === 'string' ? msg : msg()));
    expect(await profileOf(t.accounts.guest.id)).toEqual(before);
  });

  it('data is required and must be a list of {id, value}', async () => {
    const missing = await t.as('member').patch('/users/me/profile_data', {});
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'data' });
    const bad = await setOwn('member', [{ id: ids.short }]);
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('role matrix: humans edit their own values, bots and deactivated users cannot', async () => {
    for (const who of ['guest', 'member', 'moderator', 'admin', 'owner'] as const) {
      expect((await setOwn(who, [{ id: ids.date, value: '2000-01-01' }])).body).toEqual(ok);
    }
    // Administrators may edit fields the organization locked.
    expect((await setOwn('admin', [{ id: ids.locked, value: 'mine' }])).body).toEqual(ok);
    expect((await setOwn('owner', [{ id: ids.locked, value: 'mine' }])).body).toEqual(ok);
    expect((await setOwn('bot', [{ id: ids.date, value: '2000-01-01' }])).body).toEqual(
      err('This endpoint does not accept bot requests.'),
    );
    expect((await setOwn(gone, [{ id: ids.date, value: '2000-01-01' }])).body).toMatchObject({
      code: 'USER_DEACTIVATED',
    });
  });
});

describe('DELETE /users/me/profile_data', () => {
  it('removes the listed values, with the checks of setting them', async () => {
    await setOwn('admin', [
      { id: ids.short, value: 'keep me?' },
      { id: ids.url, value: 'https://example.com/a' },
    ]);
    const res = await t
      .as('admin')
      .delete('/users/me/profile_data', { data: [ids.short, ids.date] });
    expect(res.body).toEqual(ok);
    const profile = await profileOf(t.accounts.admin.id);
    expect(profile).not.toHaveProperty(String(ids.short));
    expect(profile[ids.url]).toEqual({ value: 'https://example.com/a' });
    expect(
      (await t.as('member').delete('/users/me/profile_data', { data: [999999] })).body,
    ).toEqual(err('Field id 999999 not found.'));
    expect(
      (await t.as('member').delete('/users/me/profile_data', { data: [ids.locked] })).body,
    ).toEqual(
      err('You are not allowed to change this field. Contact an administrator to update it.'),
    );
    expect((await t.as('bot').delete('/users/me/profile_data', { data: 'x' })).body).toEqual(
      err('This endpoint does not accept bot requests.'),
    );
  });
});

describe('PATCH /users/{user_id} profile_data', () => {
  it('administrators set anyone’s values, locked fields included', async () => {
    const target = t.accounts.guest.id;
    const res = await t.as('admin').patch(`/users/${target}`, {
      profile_data: [
        { id: ids.locked, value: 'set by admin' },
        { id: ids.select, value: 'a' },
      ],
    });
    expect(res.body).toEqual(ok);
    const data = await profileOf(target);
    expect(data[ids.locked].value).toBe('set by admin');
    expect(data[ids.select]).toEqual({ value: 'a' });
    const bad = await t
      .as('admin')
      .patch(`/users/${target}`, { profile_data: [{ id: ids.select, value: 'z' }] });
    expect(bad.body).toEqual(err("'z' is not a valid choice for 'select'."));
  });

  it('others may not', async () => {
    for (const who of ['member', 'moderator', 'guest'] as const) {
      const res = await t
        .as(who)
        .patch(`/users/${t.accounts.member.id}`, { profile_data: [{ id: ids.short, value: 'x' }] });
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    }
  });
});

describe('events', () => {
  it('a value change reaches every active user, with rendered_value for text', async () => {
    const w = new Watchers(t, { event_types: ['realm_user', 'custom_profile_fields'] });
    const names = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const;
    for (const n of names) await w.add(n);
    await w.clear();
    await setOwn('member', [
      { id: ids.short, value: 'hello' },
      { id: ids.date, value: '2001-01-01' },
    ]);
    const got = await w.take();
    for (const n of names) {
      expect(got[n]!.map(({ id: _, ...e }: { id: number }) => e)).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: {
            user_id: t.accounts.member.id,
            custom_profile_field: { id: ids.short, value: 'hello', rendered_value: '<p>hello</p>' },
          },
        },
        {
          type: 'realm_user',
          op: 'update',
          person: {
            user_id: t.accounts.member.id,
            custom_profile_field: { id: ids.date, value: '2001-01-01' },
          },
        },
      ]);
    }
    // Unchanged values say nothing; removals say null.
    await setOwn('member', [
      { id: ids.date, value: '2001-01-01' },
      { id: ids.short, value: null },
    ]);
    const again = await w.take();
    expect(again.guest!.map((e: { person: unknown }) => e.person)).toEqual([
      { user_id: t.accounts.member.id, custom_profile_field: { id: ids.short, value: null } },
    ]);
  });

  it('field changes send the full list to everyone; dropped choices clear values', async () => {
    await setOwn('member', [{ id: ids.select, value: 'a' }]);
    const w = new Watchers(t, { event_types: ['realm_user', 'custom_profile_fields'] });
    const names = ['owner', 'member', 'guest', 'bot'] as const;
    for (const n of names) await w.add(n);
    await w.clear();
    const data = { b: { text: 'Beta', order: '1' } };
    expect(
      (await t.as('admin').patch(`/realm/profile_fields/${ids.select}`, { field_data: data })).body,
    ).toEqual(ok);
    const list = (await t.as('member').get('/realm/profile_fields')).body.custom_fields;
    const got = await w.take();
    for (const n of names) {
      const types = got[n]!.map((e: { type: string }) => e.type);
      // The member and the guest had chosen 'a'.
      expect(types.filter((x: string) => x === 'realm_user')).toHaveLength(2);
      const fieldsEvent = got[n]!.find((e: { type: string }) => e.type === 'custom_profile_fields');
      expect(fieldsEvent.fields).toEqual(list);
    }
    expect((await profileOf(t.accounts.member.id))[ids.select]).toBeUndefined();

    const created = await t
      .as('admin')
      .post('/realm/profile_fields', { name: 'Ev', field_type: 8 });
    await t.as('admin').patch('/realm/profile_fields', {
      order: [created.body.id, ...list.map((f: { id: number }) => f.id)],
    });
    await t.as('admin').delete(`/realm/profile_fields/${created.body.id}`);
    const more = await w.take('custom_profile_fields');
    for (const n of names) expect(more[n]!).toHaveLength(3);
    expect(more.owner![2].fields).toEqual(
      list.map((f: { id: number }) => expect.objectContaining({ id: f.id })),
    );
  });

  it('a failed request sends nothing', async () => {
    const w = new Watchers(t);
    await w.add('owner');
    await w.clear();
    await setOwn('member', [
      { id: ids.short, value: 'ok' },
      { id: 9999, value: 'x' },
    ]);
    await t.as('member').post('/realm/profile_fields', { name: 'No', field_type: 1 });
    expect((await w.take()).owner).toEqual([]);
  });
});

describe('register state', () => {
  it('custom_profile_fields before and after a change', async () => {
    const state = async () =>
      (await t.as('guest').post('/register', { fetch_event_types: ['custom_profile_fields'] }))
        .body;
    const before = await state();
    expect(before.custom_profile_field_types.SELECT).toEqual({ id: 3, name: 'List of options' });
    expect(before.custom_profile_fields).toEqual(
      (await t.as('guest').get('/realm/profile_fields')).body.custom_fields,
    );
    const res = await t.as('admin').post('/realm/profile_fields', { name: 'Later', field_type: 4 });
    const after = await state();
    expect(after.custom_profile_fields).toHaveLength(before.custom_profile_fields.length + 1);
    expect(after.custom_profile_fields.at(-1)).toEqual({
      id: res.body.id,
      name: 'Later',
      type: 4,
      hint: '',
      field_data: '',
      order: res.body.id,
      required: false,
      editable_by_user: true,
    });
  });
});
