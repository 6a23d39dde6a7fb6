/**
 * Zulip's require_realm_admin and require_realm_owner decorators run before
 * the view reads its parameters: someone without the role is told so, even
 * when the request is also missing parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer();
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
});
afterAll(() => t.close());

const adminRequired = {
  result: 'error',
  code: 'UNAUTHORIZED_PRINCIPAL',
  msg: 'Must be an organization administrator',
};
const ownerRequired = { ...adminRequired, msg: 'Must be an organization owner' };

describe('the role is checked before the parameters', () => {
  it('PATCH /realm by a member', async () => {
    const res = await t
      .as('member')
      .patch('/realm', { waiting_period_threshold: 'soon' }, { skipSchema: true });
    expect(res.body).toEqual(adminRequired);
  });

  it.each([
    ['POST', '/realm/profile_fields'],
    ['PATCH', '/realm/profile_fields'],
    ['PATCH', '/realm/profile_fields/1'],
    ['DELETE', '/realm/profile_fields/999'],
    ['POST', '/realm/playgrounds'],
    ['DELETE', '/realm/playgrounds/999'],
    ['POST', '/streams/GENERAL/delete_topic'],
  ])('%s %s by a member', async (method, path) => {
    const res = await t
      .as('member')
      .request(method, path.replace('GENERAL', String(general)), {}, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(adminRequired);
  });

  it.each([
    ['POST', '/realm/domains'],
    ['PATCH', '/realm/domains/example.org'],
    ['DELETE', '/realm/domains/example.org'],
  ])('%s %s by an administrator', async (method, path) => {
    const res = await t.as('admin').request(method, path, {}, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(ownerRequired);
  });

  it.each([
    ['POST', '/users/me/status', { away: 'maybe' }],
    ['POST', '/users/1/status', { emoji_name: 5 }],
    ['POST', '/users/me/presence', {}],
    ['PATCH', '/settings', { enter_sends: 'maybe' }],
    ['PATCH', '/users/me/profile_data', {}],
    ['DELETE', '/users/me/profile_data', {}],
  ] as const)('%s %s by a bot (human_users_only)', async (method, path, params) => {
    const res = await t.as('bot').request(method, path, params, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'This endpoint does not accept bot requests.',
    });
  });

  it.each([
    ['GET', '/user_groups', { include_deactivated_groups: 'maybe' }],
    ['PATCH', '/user_groups/1', { can_manage_group: 'x' }],
    ['POST', '/user_groups/1/members', { add: 'x' }],
    ['GET', '/user_groups/1/members', { direct_member_only: 'x' }],
    ['GET', '/user_groups/1/members/1', { direct_member_only: 'x' }],
    ['GET', '/user_groups/1/subgroups', { direct_subgroup_only: 'x' }],
    ['POST', '/user_groups/1/subgroups', { add: 'x' }],
  ] as const)('%s %s by a guest (require_member_or_admin)', async (method, path, params) => {
    const res = await t.as('guest').request(method, path, params, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Not allowed for guest users',
    });
  });

  it.each([
    ['GET', '/user_groups', { include_deactivated_groups: 'maybe' }],
    ['PATCH', '/user_groups/1', { can_manage_group: 'x' }],
    ['POST', '/user_groups/1/members', { add: 'x' }],
  ] as const)('%s %s by a bot (require_member_or_admin)', async (method, path, params) => {
    const res = await t.as('bot').request(method, path, params, { skipSchema: true });
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'This endpoint does not accept bot requests.',
    });
  });

  it('leaves the parameters to whoever has the role', async () => {
    const res = await t.as('admin').post('/realm/profile_fields', {}, { skipSchema: true });
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'field_type' });
  });
});
