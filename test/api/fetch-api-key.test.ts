/**
 * POST /fetch_api_key: e-mail and password for the API key, without Basic
 * credentials (zulip-terminal sends a form, zulip-js multipart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserSettings } from '../../server/db/queries/users.js';
import {
  ApiClient,
  type Encoding,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { API_KEY, expectError } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const INCORRECT = 'Your username or password is incorrect';

const login = (username: string, password: string, encoding?: Encoding) =>
  t.anonymous().post('/fetch_api_key', { username, password }, { encoding });

describe('POST /fetch_api_key', () => {
  it.each(['form', 'multipart', 'query'] as const)(
    'returns api_key, email and user_id (%s)',
    async (encoding) => {
      const { member } = t.accounts;
      const res = await login(member.email, FIXTURE_PASSWORD, encoding);
      expect(res.body).toEqual({
        result: 'success',
        msg: '',
        api_key: member.apiKey,
        email: member.email,
        user_id: member.id,
      });
      expect(res.body.api_key).toMatch(API_KEY);
    },
  );

  it('the returned key authenticates', async () => {
    const { admin } = t.accounts;
    const res = await login(admin.email, FIXTURE_PASSWORD);
    const client = new ApiClient(t.url, { email: res.body.email, apiKey: res.body.api_key });
    const me = await client.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(admin.id);
  });

  it('ignores Basic credentials and does not need them', async () => {
    const res = await t
      .as('owner')
      .post('/fetch_api_key', { username: t.accounts.guest.email, password: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(t.accounts.guest.id);
  });

  it('the username is case-insensitive and trimmed', async () => {
    const { moderator } = t.accounts;
    const res = await login(`  ${moderator.email.toUpperCase()} `, FIXTURE_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(moderator.id);
  });

  it('a wrong password is 401', async () => {
    for (const password of ['wrong', '', `${FIXTURE_PASSWORD} `, FIXTURE_PASSWORD.toUpperCase()]) {
      expectError(
        await login(t.accounts.member.email, password),
        401,
        'AUTHENTICATION_FAILED',
        INCORRECT,
      );
    }
  });

  it('an unknown user is 401 with the same message', async () => {
    expectError(
      await login('nobody@example.com', FIXTURE_PASSWORD),
      401,
      'AUTHENTICATION_FAILED',
      INCORRECT,
    );
    expectError(await login('', FIXTURE_PASSWORD), 401, 'AUTHENTICATION_FAILED', INCORRECT);
  });

  it('bots cannot log in with a password', async () => {
    const { bot } = t.accounts;
    for (const password of ['', bot.apiKey, FIXTURE_PASSWORD]) {
      expectError(await login(bot.email, password), 401, 'AUTHENTICATION_FAILED', INCORRECT);
    }
  });

  it('a deactivated user with the right password gets USER_DEACTIVATED', async () => {
    const user = await t.createMember('Left Company');
    await t.as('admin').delete(`/users/${user.id}`);
    expectError(
      await login(user.email, FIXTURE_PASSWORD),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    // A wrong password does not reveal that the account exists.
    expectError(await login(user.email, 'wrong'), 401, 'AUTHENTICATION_FAILED', INCORRECT);
    await t.as('admin').post(`/users/${user.id}/reactivate`);
    expect((await login(user.email, FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('returns the placeholder as email when the address is hidden', async () => {
    const user = await t.createMember('Private Person');
    setUserSettings(t.server.ctx.db, user.id, JSON.stringify({ email_address_visibility: 4 }));
    const res = await login(user.email, FIXTURE_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(`user${user.id}@test.hearth`);
    const client = new ApiClient(t.url, { email: res.body.email, apiKey: res.body.api_key });
    expect((await client.get('/users/me')).body.user_id).toBe(user.id);
  });

  it('requires both parameters', async () => {
    expectError(
      await t.anonymous().post('/fetch_api_key', { password: FIXTURE_PASSWORD }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument",
      { var_name: 'username' },
    );
    expectError(
      await t.anonymous().post('/fetch_api_key', { username: t.accounts.member.email }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
      { var_name: 'password' },
    );
  });

  it('is POST only', async () => {
    const res = await t.anonymous().get('/fetch_api_key', {
      username: t.accounts.member.email,
      password: FIXTURE_PASSWORD,
    });
    expectError(res, 404, 'NOT_FOUND', 'Endpoint not found');
  });
});
