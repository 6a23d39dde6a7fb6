/**
 * POST /jwt/fetch_api_key: bad tokens and unknown addresses count against
 * the client address and the e-mail the token claims, 50 per 10 minutes;
 * past that those bad ones get 429, but a token signed with the key always
 * works (nobody can guess one). Requests that name nobody (no token, JWT
 * off) do not count. A fake clock stands in for waiting.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setJwtKey } from '../../server/auth/index.js';
import { expectError } from '../api/support.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KEY = 'rate-limited-jwt-key-0123456789abcdef';
const BUDGET = 50;

let t: TestServer;
let clock = Date.UTC(2026, 0, 5, 9, 0, 0);

beforeAll(async () => {
  t = await startTestServer({ rateLimit: true, now: () => clock });
  setJwtKey(t.server.ctx, null, KEY);
});
afterAll(() => t.close());

const sign = (claims: Record<string, unknown>, key = KEY) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));

const exchange = (token: string) =>
  t.anonymous().post('/jwt/fetch_api_key', { token }, { skipSchema: true });

/** Past the per-address limit of 100 anonymous requests a minute, not the 10-minute window. */
const nextMinute = () => {
  clock += 61_000;
};

describe('failed JWT logins', () => {
  it('requests without a token do not count', async () => {
    for (let i = 0; i < BUDGET + 5; i++) {
      expectError(await exchange(''), 400, 'BAD_REQUEST', 'No JSON web token passed in request');
    }
    const good = await exchange(await sign({ email: t.accounts.member.email }));
    expect(good.body.api_key).toBe(t.accounts.member.apiKey);
    nextMinute();
  });

  it('nor do tokens of deactivated accounts', async () => {
    const token = await sign({ email: t.accounts.guest.email });
    await t.as('admin').delete(`/users/${t.accounts.guest.id}`);
    for (let i = 0; i < BUDGET + 5; i++) {
      expectError(await exchange(token), 401, 'USER_DEACTIVATED', 'Account is deactivated');
    }
    await t.as('admin').post(`/users/${t.accounts.guest.id}/reactivate`);
    expect((await exchange(token)).status).toBe(200);
    nextMinute();
  });

  it('bad tokens use up their budget: then they get 429, while a good token still works', async () => {
    const good = await sign({ email: t.accounts.owner.email });
    const wrongKey = await sign({ email: t.accounts.owner.email }, `${KEY}-wrong`);
    const nobody = await sign({ email: 'nobody@example.com' });
    for (let i = 0; i < BUDGET; i++) {
      expectError(await exchange(wrongKey), 400, 'BAD_REQUEST', 'Bad JSON web token');
    }
    const refused = await exchange(wrongKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      result: 'error',
      code: 'RATE_LIMIT_HIT',
      msg: 'API usage exceeded rate limit',
    });
    expect(refused.body['retry-after']).toBeGreaterThan(0);
    expect(refused.body['retry-after']).toBeLessThanOrEqual(600);

    // A token signed with the key is never refused for others' failures.
    expect((await exchange(good)).body.api_key).toBe(t.accounts.owner.apiKey);
    // Tokens claiming another address count on their own.
    expect((await exchange(nobody)).status).toBe(401);
    // Password logins from the address are not held up either.
    const login = await t
      .anonymous()
      .post(
        '/fetch_api_key',
        { username: t.accounts.owner.email, password: 'whatever' },
        { skipSchema: true },
      );
    expect(login.status).toBe(401);
    nextMinute();

    clock += 10 * 60_000 + 1000;
    expectError(await exchange(wrongKey), 400, 'BAD_REQUEST', 'Bad JSON web token');
  });

  it('unknown addresses and tokens without one count too', async () => {
    clock += 10 * 60_000 + 1000;
    const nobody = await sign({ email: 'nobody@example.com' });
    const noEmail = await sign({ sub: 'owner' });
    for (let i = 0; i < BUDGET; i++) {
      expect((await exchange(nobody)).status).toBe(401);
      expect((await exchange(noEmail)).status).toBe(400);
      if (i % 40 === 39) nextMinute();
    }
    expect((await exchange(nobody)).status).toBe(429);
    expect((await exchange(noEmail)).status).toBe(429);
    expect((await exchange(await sign({ email: t.accounts.member.email }))).status).toBe(200);
  });
});
