/**
 * Roles (100 owner, 200 administrator, 300 moderator, 400 member, 600 guest)
 * and who may call the administrative user endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMember } from '../helpers/fixtures.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ADMIN_REQUIRED = 'Must be an organization administrator';
const OWNER_REQUIRED = 'Must be an organization owner';

async function userOf(id: number) {
  const res = await t.as('owner').get(`/users/${id}`);
  expect(res.status).toBe(200);
  return res.body.user;
}

describe('role values', () => {
  it.each([
    ['owner', 100, { is_owner: true, is_admin: true, is_guest: false, is_bot: false }],
    ['admin', 200, { is_owner: false, is_admin: true, is_guest: false, is_bot: false }],
    ['moderator', 300, { is_owner: false, is_admin: false, is_guest: false, is_bot: false }],
    ['member', 400, { is_owner: false, is_admin: false, is_guest: false, is_bot: false }],
    ['guest', 600, { is_owner: false, is_admin: false, is_guest: true, is_bot: false }],
    ['bot', 400, { is_owner: false, is_admin: false, is_guest: false, is_bot: true }],
  ] as const)('%s has role %i', async (who, role, flags) => {
    const res = await t.as(who).get('/users/me');
    expect(res.body).toMatchObject({ role, ...flags });
  });
});

describe('admin-only endpoints', () => {
  const forbidden: FixtureName[] = ['moderator', 'member', 'guest', 'bot'];

  it.each(forbidden)('POST /users is refused to %s', async (who) => {
    const email = `by-${who}@example.com`;
    const res = await t
      .as(who)
      .post('/users', { email, password: 'a long password', full_name: 'Not Created' });
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', ADMIN_REQUIRED);
    const lookup = await t.as('owner').get(`/users/${email}`);
    expectError(lookup, 400, 'BAD_REQUEST', 'No such user');
  });

  it.each(forbidden)('PATCH /users/{id} is refused to %s', async (who) => {
    const target = await quickMember(t, 'Patch Target');
    const res = await t.as(who).patch(`/users/${target.id}`, { full_name: 'Hacked', role: 200 });
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', ADMIN_REQUIRED);
    expect(await userOf(target.id)).toMatchObject({ full_name: 'Patch Target', role: 400 });
    // Not even one's own role.
    const self = await t.as(who).patch(`/users/${t.accounts[who].id}`, { role: 200 });
    expectError(self, 400, 'UNAUTHORIZED_PRINCIPAL', ADMIN_REQUIRED);
  });

  it.each(forbidden)('DELETE /users/{id} is refused to %s', async (who) => {
    const target = await quickMember(t, 'Delete Target');
    const res = await t.as(who).delete(`/users/${target.id}`);
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', ADMIN_REQUIRED);
    expect((await userOf(target.id)).is_active).toBe(true);
  });

  it.each(forbidden)('POST /users/{id}/reactivate is refused to %s', async (who) => {
    const target = await quickMember(t, 'Reactivate Target');
    await t.as('admin').delete(`/users/${target.id}`);
    const res = await t.as(who).post(`/users/${target.id}/reactivate`);
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', ADMIN_REQUIRED);
    expect((await userOf(target.id)).is_active).toBe(false);
  });

  it.each(['owner', 'admin'] as const)('%s may use all four', async (who) => {
    const created = await t.as(who).post('/users', {
      email: `made-by-${who}@example.com`,
      password: 'a long password',
      full_name: `Made By ${who}`,
    });
    expect(created.status).toBe(200);
    const id = created.body.user_id;
    expect(await userOf(id)).toMatchObject({ role: 400, is_active: true });

    const patched = await t.as(who).patch(`/users/${id}`, { full_name: 'Renamed', role: 300 });
    expect(patched.body).toEqual({ result: 'success', msg: '' });
    expect(await userOf(id)).toMatchObject({ full_name: 'Renamed', role: 300 });

    expect((await t.as(who).delete(`/users/${id}`)).body).toEqual({ result: 'success', msg: '' });
    expect((await userOf(id)).is_active).toBe(false);

    const back = await t.as(who).post(`/users/${id}/reactivate`);
    expect(back.body).toEqual({ result: 'success', msg: '' });
    expect((await userOf(id)).is_active).toBe(true);
  });

  it('administrators may set every non-owner role', async () => {
    const target = await quickMember(t, 'Role Cycle');
    for (const role of [200, 300, 600, 400]) {
      const res = await t.as('admin').patch(`/users/${target.id}`, { role });
      expect(res.status).toBe(200);
      expect((await userOf(target.id)).role).toBe(role);
      expect((await t.as(target).get('/users/me')).body.role).toBe(role);
    }
  });

  it('an invalid role is refused', async () => {
    const target = await quickMember(t, 'Role Invalid');
    for (const role of [0, 250, 500, 700, -100]) {
      expectError(
        await t.as('owner').patch(`/users/${target.id}`, { role }),
        400,
        'BAD_REQUEST',
        'Invalid role',
      );
    }
    expect((await userOf(target.id)).role).toBe(400);
  });
});

describe('owner-only rules', () => {
  it('only owners may grant the owner role', async () => {
    const target = await quickMember(t, 'Would Be Owner');
    expectError(
      await t.as('admin').patch(`/users/${target.id}`, { role: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expect((await userOf(target.id)).role).toBe(400);
    // An administrator may not make themselves owner either.
    expectError(
      await t.as('admin').patch(`/users/${t.accounts.admin.id}`, { role: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
  });

  it('only owners may remove the owner role, and never from the last owner', async () => {
    const { owner } = t.accounts;
    expectError(
      await t.as('admin').patch(`/users/${owner.id}`, { role: 200 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expectError(
      await t.as('owner').patch(`/users/${owner.id}`, { role: 200 }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expect((await userOf(owner.id)).role).toBe(100);
    // Setting the role an owner already has is not a change.
    expect((await t.as('owner').patch(`/users/${owner.id}`, { role: 100 })).status).toBe(200);
  });

  it('only owners may deactivate owners, and never the last one', async () => {
    const { owner } = t.accounts;
    expectError(
      await t.as('admin').delete(`/users/${owner.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expectError(
      await t.as('owner').delete(`/users/${owner.id}`),
      400,
      'BAD_REQUEST',
      'Cannot deactivate the only organization owner',
    );
    expect((await userOf(owner.id)).is_active).toBe(true);
  });

  it('with a second owner, owners can be demoted and deactivated', async () => {
    const second = await quickMember(t, 'Second Owner');
    expect((await t.as('owner').patch(`/users/${second.id}`, { role: 100 })).status).toBe(200);
    expect(await userOf(second.id)).toMatchObject({ role: 100, is_owner: true, is_admin: true });

    // The new owner may now deactivate and reactivate the first one...
    expect((await t.as(second).delete(`/users/${t.accounts.owner.id}`)).status).toBe(200);
    expectError(
      await t.as(second).patch(`/users/${second.id}`, { role: 400 }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expect((await t.as(second).post(`/users/${t.accounts.owner.id}/reactivate`)).status).toBe(200);

    // ...and, with two active owners again, may step down.
    expect((await t.as(second).patch(`/users/${second.id}`, { role: 400 })).status).toBe(200);
    expect(await userOf(second.id)).toMatchObject({ role: 400, is_owner: false });
    expect((await t.as('owner').get('/users/me')).body.role).toBe(100);
  });
});
