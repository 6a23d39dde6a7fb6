/**
 * Requests authenticate from an in-memory cache of API key -> user; every
 * change to a user or the organization must reach the very next request:
 * a regenerated key, a deactivation and reactivation, a role change, an
 * organization deactivation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateOrganization } from '../../server/realm/index.js';
import { Role } from '../../server/shared/roles.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the authentication cache', () => {
  it('refuses a regenerated key at once and accepts the new one', async () => {
    const account = await t.createMember('Key Changer');
    expect((await t.as(account).get('/users/me')).status).toBe(200);
    const res = await t.as(account).post('/users/me/api_key/regenerate');
    expect(res.status).toBe(200);
    const old = await t.as(account).get('/users/me');
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ code: 'INVALID_API_KEY' });
    const fresh = { ...account, apiKey: res.body.api_key as string };
    expect((await t.as(fresh).get('/users/me')).status).toBe(200);
  });

  it('refuses a deactivated user at once and accepts them again after reactivation', async () => {
    const account = await t.createMember('Deactivated Soon');
    expect((await t.as(account).get('/users/me')).status).toBe(200);
    expect((await t.as('admin').delete(`/users/${account.id}`)).status).toBe(200);
    const refused = await t.as(account).get('/users/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'USER_DEACTIVATED' });
    expect((await t.as('admin').post(`/users/${account.id}/reactivate`)).status).toBe(200);
    expect((await t.as(account).get('/users/me')).status).toBe(200);
  });

  it('acts with the new role on the next request', async () => {
    const account = await t.createMember('Promoted Soon');
    expect((await t.as(account).get('/users/me')).body.role).toBe(Role.member);
    const promote = await t.as('admin').patch(`/users/${account.id}`, { role: Role.administrator });
    expect(promote.status).toBe(200);
    expect((await t.as(account).get('/users/me')).body.role).toBe(Role.administrator);
    // Administrator-only: the role of the cached row would refuse it.
    expect(
      (await t.as(account).patch(`/users/${t.accounts.guest.id}`, { full_name: 'Guest G' })).status,
    ).toBe(200);
    const demote = await t.as('admin').patch(`/users/${account.id}`, { role: Role.member });
    expect(demote.status).toBe(200);
    expect((await t.as(account).get('/users/me')).body.role).toBe(Role.member);
  });

  it('sees writes that bypass the query modules', async () => {
    const account = await t.createMember('Raw Write');
    expect((await t.as(account).get('/users/me')).status).toBe(200);
    t.server.ctx.db.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(account.id);
    const refused = await t.as(account).get('/users/me');
    expect(refused.body).toMatchObject({ code: 'USER_DEACTIVATED' });
    t.server.ctx.db.prepare('UPDATE users SET is_active = 1 WHERE id = ?').run(account.id);
    expect((await t.as(account).get('/users/me')).status).toBe(200);
  });

  it('refuses everyone once the organization is deactivated', async () => {
    expect((await t.as('member').get('/users/me')).status).toBe(200);
    // The admin door's operation (no API endpoint deactivates the organization).
    expect(deactivateOrganization(t.server.ctx)).toBe(true);
    const refused = await t.as('member').get('/users/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'REALM_DEACTIVATED' });
  });
});
