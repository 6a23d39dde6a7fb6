/**
 * Zulip's password rule wherever a person sets a password: at least 6 and
 * at most 100 characters, and at least 10,000 guesses by zxcvbn, with the
 * account's own e-mail and name counting as known words. POST /users says
 * "The password is too weak." (Zulip's PASSWORD_TOO_WEAK_ERROR), PATCH
 * /settings "New password is too weak!"; the admin UI's procedures name the
 * field. The wizard's cases are in test/trpc/admin-pages.test.ts.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateGuesses, estimateInProcess } from '../../server/users/passwords.js';
import { expectError } from '../api/support.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { bearer, failure, trpcClient } from '../trpc/client.js';

const TOKEN = 'password-rule-admin-token';
const STRONG = 'violet kettle marmalade';

/** Refused everywhere: too short, common, a keyboard run, too long (as [what, password]). */
const WEAK: [string, string][] = [
  ['"a"', 'a'],
  ['"12345"', '12345'],
  ['"123456"', '123456'],
  ['"password"', 'password'],
  ['"qwerty123"', 'qwerty123'],
  ['101 characters', 'x'.repeat(101)],
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN, rateLimit: true });
});
afterAll(() => t.close());

let serial = 0;
const newEmail = () => `rule${++serial}@example.com`;

describe('POST /users', () => {
  it.each(WEAK)('refuses %s as too weak', async (_what, password) => {
    const res = await t
      .as('admin')
      .post('/users', { email: newEmail(), password, full_name: 'Weak Person' });
    expectError(res, 400, 'BAD_REQUEST', 'The password is too weak.');
  });

  it("refuses the new account's own e-mail and name", async () => {
    const email = 'harriet.vandermolen@example.com';
    for (const password of [email, 'Harriet Vandermolen']) {
      const res = await t
        .as('admin')
        .post('/users', { email, password, full_name: 'Harriet Vandermolen' });
      expectError(res, 400, 'BAD_REQUEST', 'The password is too weak.');
    }
  });

  it('reports an address in use before a weak password, as Zulip does', async () => {
    const res = await t
      .as('admin')
      .post('/users', { email: t.accounts.member.email, password: 'a', full_name: 'Dupe' });
    expectError(res, 400, 'BAD_REQUEST', `Email '${t.accounts.member.email}' already in use`);
  });

  it('accepts a strong one, which then logs in', async () => {
    const email = newEmail();
    const res = await t
      .as('admin')
      .post('/users', { email, password: STRONG, full_name: 'Strong Person' });
    expect(res.status).toBe(200);
    const login = await t.anonymous().post('/fetch_api_key', { username: email, password: STRONG });
    expect(login.status).toBe(200);
  });
});

describe('PATCH /settings', () => {
  it.each([...WEAK, ['5,000 characters', 'x'.repeat(5000)]])(
    'refuses %s as a new password',
    async (_what, password) => {
      const user = await t.createMember('Settings Person');
      const res = await t
        .as(user)
        .patch('/settings', { old_password: FIXTURE_PASSWORD, new_password: password });
      expectError(res, 400, 'BAD_REQUEST', 'New password is too weak!');
    },
  );

  it("refuses the account's own e-mail", async () => {
    const user = await t.createMember('Own Email');
    const res = await t
      .as(user)
      .patch('/settings', { old_password: FIXTURE_PASSWORD, new_password: user.email });
    expectError(res, 400, 'BAD_REQUEST', 'New password is too weak!');
  });

  it('accepts a strong one', async () => {
    const user = await t.createMember('Good Change');
    const res = await t
      .as(user)
      .patch('/settings', { old_password: FIXTURE_PASSWORD, new_password: STRONG });
    expect(res.status).toBe(200);
  });

  it('limits guesses at the old password like logins, with Zulip’s wording', async () => {
    const user = await t.createMember('Guessed At');
    for (let i = 0; i < 5; i++) {
      const res = await t
        .as(user)
        .patch('/settings', { old_password: `guess ${i}`, new_password: STRONG });
      expectError(res, 400, 'BAD_REQUEST', 'Wrong password!');
    }
    const refused = await t
      .as(user)
      .patch('/settings', { old_password: FIXTURE_PASSWORD, new_password: STRONG });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(
      /^You're making too many attempts! Try again in \d+ seconds\.$/,
    );
    // From another address the person can still change it.
    const elsewhere = await patchFrom('127.0.0.2', user.email, user.apiKey, {
      old_password: FIXTURE_PASSWORD,
      new_password: STRONG,
    });
    expect(elsewhere.status).toBe(200);
  });
});

describe('the admin UI', () => {
  const admin = () => trpcClient(t.url, bearer(TOKEN));

  it('users.create applies the rule and names the field', async () => {
    const error = await failure(
      admin().users.create.mutate({ email: newEmail(), fullName: 'Ui Person', password: '123456' }),
    );
    expect(error).toMatchObject({ field: 'password', message: 'The password is too weak.' });
    const ok = await admin().users.create.mutate({
      email: newEmail(),
      fullName: 'Ui Person',
      password: STRONG,
    });
    expect(ok.user_id).toBeGreaterThan(0);
    // No password at all is still allowed: the person gets one set later.
    const none = await admin().users.create.mutate({
      email: newEmail(),
      fullName: 'No Password Yet',
      password: null,
    });
    expect(none.user_id).toBeGreaterThan(0);
  });

  it('users.setPassword applies the rule', async () => {
    const person = await t.createMember('Reset Person');
    for (const password of ['123456', person.email, 'x'.repeat(101)]) {
      const error = await failure(
        admin().users.setPassword.mutate({ userId: person.id, password }),
      );
      expect(error).toMatchObject({ field: 'password', message: 'New password is too weak!' });
    }
    await admin().users.setPassword.mutate({ userId: person.id, password: STRONG });
  });
});

describe('the estimate', () => {
  it('runs in a process of its own and agrees with the library run in this one', async () => {
    for (const [password, inputs] of [
      ['hearth-demo', []],
      ['Tr0ub4dor&3', []],
      ['member@example.com', ['member@example.com']],
    ] as [string, string[]][]) {
      expect(await estimateGuesses(password, inputs)).toBe(
        await estimateInProcess(password, inputs),
      );
    }
  });
});

/** PATCH /settings sent from `localAddress`. */
function patchFrom(
  localAddress: string,
  email: string,
  apiKey: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams(params).toString();
    const req = http.request(
      `${t.url}/api/v1/settings`,
      {
        method: 'PATCH',
        localAddress,
        headers: {
          authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
