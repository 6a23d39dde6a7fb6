/**
 * Demo-mode helpers (Zulip's development-server endpoints): list the users
 * one may log in as, and fetch anyone's API key without a password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMember } from '../helpers/fixtures.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from './support.js';

const DEMO_ONLY = 'This endpoint is only available in demo mode (start Hearth with --demo).';

describe('with --demo', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: true });
  });
  afterAll(() => t.close());

  const emailsOf = (list: { email: string }[]) => list.map((u) => u.email).sort();

  it('GET /dev_list_users lists active humans, administrators apart', async () => {
    const gone = await quickMember(t, 'Gone Gina');
    await t.as('admin').delete(`/users/${gone.id}`);
    const res = await t.anonymous().get('/dev_list_users');
    expect(res.status).toBe(200);
    const { owner, admin, moderator, member, guest } = t.accounts;
    expect(emailsOf(res.body.direct_admins)).toEqual([admin.email, owner.email].sort());
    expect(emailsOf(res.body.direct_users)).toEqual(
      [moderator.email, member.email, guest.email].sort(),
    );
    for (const entry of [...res.body.direct_admins, ...res.body.direct_users]) {
      expect(entry).toEqual({ email: expect.any(String), realm_uri: t.url, realm_url: t.url });
    }
  });

  it('POST /dev_fetch_api_key returns any user key without a password', async () => {
    for (const who of ['member', 'owner', 'guest'] as const) {
      const account = t.accounts[who];
      const res = await t.anonymous().post('/dev_fetch_api_key', { username: account.email });
      expect(res.body).toEqual({
        result: 'success',
        msg: '',
        api_key: account.apiKey,
        email: account.email,
        user_id: account.id,
      });
      const client = new ApiClient(t.url, { email: res.body.email, apiKey: res.body.api_key });
      expect((await client.get('/users/me')).body.user_id).toBe(account.id);
    }
  });

  it('accepts multipart, as zulip-js sends it', async () => {
    const { member } = t.accounts;
    const res = await t
      .anonymous()
      .post('/dev_fetch_api_key', { username: member.email }, { encoding: 'multipart' });
    expect(res.body.api_key).toBe(member.apiKey);
  });

  it('refuses unknown and deactivated users', async () => {
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: 'nobody@example.com' }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    const gone = await quickMember(t, 'Gone Gary');
    await t.as('admin').delete(`/users/${gone.id}`);
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: gone.email }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });

  it('requires a username', async () => {
    expectError(
      await t.anonymous().post('/dev_fetch_api_key'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument",
      { var_name: 'username' },
    );
  });

  it('server_settings advertises the dev login', async () => {
    const res = await t.anonymous().get('/server_settings');
    expect(res.body.authentication_methods.dev).toBe(true);
  });
});

describe('without --demo', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('GET /dev_list_users is a 400 JSON error', async () => {
    expectError(await t.anonymous().get('/dev_list_users'), 400, 'BAD_REQUEST', DEMO_ONLY);
    expectError(await t.as('owner').get('/dev_list_users'), 400, 'BAD_REQUEST', DEMO_ONLY);
  });

  it('POST /dev_fetch_api_key is a 400 JSON error and reveals nothing', async () => {
    for (const username of [t.accounts.owner.email, 'nobody@example.com']) {
      const res = await t.anonymous().post('/dev_fetch_api_key', { username });
      expectError(res, 400, 'BAD_REQUEST', DEMO_ONLY);
    }
  });
});
