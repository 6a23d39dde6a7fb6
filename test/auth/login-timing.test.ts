/**
 * POST /fetch_api_key must not tell, by the time it takes, whether an
 * account exists: an unknown e-mail, a bot, an account without a password
 * and a deactivated one all cost one key derivation, as a wrong password
 * does. Counted through the derivation itself (a structural check: timing
 * targets live in the bench, never in tests).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordKdf } from '../../server/shared/credentials.js';
import { createUser } from '../../server/users/users.js';
import { expectError } from '../api/support.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let passwordless: string;
let deactivated: string;

beforeAll(async () => {
  t = await startTestServer();
  passwordless = 'no-password@example.com';
  await createUser(t.server.ctx, null, {
    email: passwordless,
    password: null,
    fullName: 'No Password',
  });
  const gone = await t.createMember('Gone Member');
  deactivated = gone.email;
  expect((await t.as('admin').delete(`/users/${gone.id}`)).status).toBe(200);
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Logs in and returns how many keys were derived on the way. */
async function derivationsFor(username: string, password: string) {
  const derive = vi.spyOn(passwordKdf, 'derive');
  const res = await t.anonymous().post('/fetch_api_key', { username, password });
  const calls = derive.mock.calls.length;
  derive.mockRestore();
  return { res, calls };
}

describe('POST /fetch_api_key costs one derivation whatever the account', () => {
  it('a wrong password for a real account', async () => {
    const { res, calls } = await derivationsFor(t.accounts.member.email, 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(calls).toBe(1);
  });

  it('an e-mail no account has', async () => {
    const { res, calls } = await derivationsFor('nobody-here@example.com', 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(calls).toBe(1);
  });

  it("a bot's e-mail", async () => {
    const { res, calls } = await derivationsFor(t.accounts.bot.email, 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(calls).toBe(1);
  });

  it('an account that has no password', async () => {
    const { res, calls } = await derivationsFor(passwordless, 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(calls).toBe(1);
  });

  it('a deactivated account', async () => {
    const { res, calls } = await derivationsFor(deactivated, 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(calls).toBe(1);
  });

  it('the right password (the same single derivation)', async () => {
    const { res, calls } = await derivationsFor(t.accounts.member.email, FIXTURE_PASSWORD);
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
  });
});
