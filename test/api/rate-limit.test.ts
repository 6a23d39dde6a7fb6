/**
 * Rate limiting: 200 requests per 60 s per user, 100 per 60 s per IP for
 * unauthenticated endpoints. Failed authentications never lock out someone
 * whose credential is right because of others' failures: 50 wrong keys or
 * tokens per 10 minutes for an account from an address turn that address's
 * wrong ones for the account into 429s (right ones always pass); 5 failed
 * passwords per 30 minutes lock a username from that address, and 25 from
 * all addresses lock it from addresses it was not used from. A fake clock
 * stands in for waiting.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  type ApiClient,
  type ApiResponse,
  basicAuth,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { expectError } from './support.js';

const RATE_LIMIT_MSG = 'API usage exceeded rate limit';

/** Skipped on bursts: the same responses are validated on the single requests. */
const fast = { skipSchema: true };

/** Sends `count` requests, `batch` at a time, and returns them in order. */
async function burst(
  count: number,
  send: () => Promise<ApiResponse>,
  batch = 25,
): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  while (out.length < count) {
    const n = Math.min(batch, count - out.length);
    out.push(...(await Promise.all(Array.from({ length: n }, send))));
  }
  return out;
}

function rateHeaders(res: ApiResponse) {
  return {
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  };
}

function expectRateLimited(res: ApiResponse, maxWait: number): void {
  expect(res.status).toBe(429);
  const { 'retry-after': retryAfter, ...rest } = res.body;
  expect(rest).toEqual({ result: 'error', msg: RATE_LIMIT_MSG, code: 'RATE_LIMIT_HIT' });
  expect(typeof retryAfter).toBe('number');
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxWait);
  const header = Number(res.headers.get('retry-after'));
  expect(Number.isFinite(header)).toBe(true);
  expect(header).toBeGreaterThan(0);
  expect(header).toBeLessThanOrEqual(maxWait);
  expect(Math.abs(header - retryAfter)).toBeLessThanOrEqual(1);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

/** Loopback covers 127.0.0.0/8 (on Linux): a second client address without a network. */
const OTHER_ADDRESS = '127.0.0.2';
const ADMIN_TOKEN = 'rate-limit-admin-token';
const FAILED_AUTH_BUDGET = 50;

/** A request sent from `localAddress` (the address the server sees). */
function requestFrom(
  localAddress: string,
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('with rate limiting on', () => {
  let t: TestServer;
  let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
  const now = () => clock;
  /** Moves past every window so each test starts fresh. */
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };

  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true, now, adminToken: ADMIN_TOKEN });
  });
  afterAll(() => t.close());

  const wrongKey = (account: Account) => basicAuth(account.email, 'x'.repeat(32));
  const meFrom = (address: string, authorization: string) =>
    requestFrom(address, t.url, 'GET', '/api/v1/users/me', { authorization });
  const loginFrom = (address: string, username: string, password: string) =>
    requestFrom(
      address,
      t.url,
      'POST',
      `/api/v1/fetch_api_key?${new URLSearchParams({ username, password })}`,
    );

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const trpcUsers = (headers: Record<string, string>) =>
    fetch(`${t.url}/trpc/users.list`, { headers });
  /** An events request as a long-polling client sends it, on a fresh queue. */
  async function pollEvents(who: 'owner' | 'member') {
    const queue = await t.as(who).post('/register', { event_types: ['message'] });
    expect(queue.status).toBe(200);
    return t.as(who).get('/events', {
      queue_id: queue.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
  }

  it(`after ${FAILED_AUTH_BUDGET} wrong keys for an account, those get 429; right keys never wait`, async () => {
    advance(3600);
    // A bot left on the member's old key, on this machine.
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) {
      const res = await meFrom('127.0.0.1', wrongKey(t.accounts.member));
      statuses.push(res.status);
      if (i === 0) expectError(res, 401, 'INVALID_API_KEY', 'Invalid API key');
      if (i === 149) expectRateLimited(res, 600);
    }
    expect(statuses).toEqual([
      ...Array(FAILED_AUTH_BUDGET).fill(401),
      ...Array(150 - FAILED_AUTH_BUDGET).fill(429),
    ]);
    // Right credentials from the same address pass: the member's own key, the
    // owner's key, the chat's event long-poll, tRPC with a key or the admin token.
    expect((await t.as('member').get('/users/me')).status).toBe(200);
    expect((await t.as('owner').post('/users/me/presence', { status: 'active' })).status).toBe(200);
    expect((await pollEvents('owner')).status).toBe(200);
    expect((await pollEvents('member')).status).toBe(200);
    const owner = basicAuth(t.accounts.owner.email, t.accounts.owner.apiKey);
    expect((await trpcUsers({ authorization: owner })).status).toBe(200);
    expect((await trpcUsers(bearer(ADMIN_TOKEN))).status).toBe(200);
    // Another account's wrong key from this address is its own matter: still 401.
    expectError(
      await meFrom('127.0.0.1', wrongKey(t.accounts.admin)),
      401,
      'INVALID_API_KEY',
      'Invalid API key',
    );
    // The same wrong key from another address has a budget of its own.
    expectError(
      await meFrom(OTHER_ADDRESS, wrongKey(t.accounts.member)),
      401,
      'INVALID_API_KEY',
      'Invalid API key',
    );

    // Failures leave the window after 10 minutes.
    advance(9 * 60);
    expectRateLimited(await meFrom('127.0.0.1', wrongKey(t.accounts.member)), 61);
    advance(61);
    expect((await meFrom('127.0.0.1', wrongKey(t.accounts.member))).status).toBe(401);
  });

  it('unreadable credentials, wrong tRPC keys and admin tokens count too; missing ones do not', async () => {
    advance(3600);
    const unreadable = () =>
      t.anonymous().get('/users/me', {}, { headers: { authorization: 'Basic !!!' } });
    for (let i = 0; i < FAILED_AUTH_BUDGET; i++) expect((await unreadable()).status).toBe(401);
    expectRateLimited(await unreadable(), 600);
    for (let i = 0; i < FAILED_AUTH_BUDGET + 10; i++) {
      expect((await t.anonymous().get('/users/me')).status).toBe(401);
    }

    // Wrong keys for one account count together over REST and tRPC.
    for (let i = 0; i < FAILED_AUTH_BUDGET; i++) {
      const res =
        i % 2 === 0
          ? await trpcUsers({ authorization: wrongKey(t.accounts.admin) })
          : await t.as({ ...t.accounts.admin, apiKey: 'nope' }).get('/users/me', {}, fast);
      expect(res.status).toBe(401);
    }
    expectRateLimited(await t.as({ ...t.accounts.admin, apiKey: 'nope' }).get('/users/me'), 600);
    expect((await trpcUsers({ authorization: wrongKey(t.accounts.admin) })).status).toBe(429);

    for (let i = 0; i < FAILED_AUTH_BUDGET; i++) {
      expect((await trpcUsers(bearer(`wrong-${ADMIN_TOKEN}`))).status).toBe(401);
    }
    const refused = await trpcUsers(bearer(`wrong-${ADMIN_TOKEN}`));
    expect(refused.status).toBe(429);
    const zulip = (await refused.json()).error?.json?.data?.zulip ?? {};
    expect(zulip.code).toBe('RATE_LIMIT_HIT');
    expect(zulip['retry-after']).toBeGreaterThan(0);

    // None of it holds up a right credential.
    expect((await t.as('admin').get('/users/me')).status).toBe(200);
    expect((await trpcUsers(bearer(ADMIN_TOKEN))).status).toBe(200);
    expect(
      (
        await trpcUsers({
          authorization: basicAuth(t.accounts.admin.email, t.accounts.admin.apiKey),
        })
      ).status,
    ).toBe(200);
  });

  // 60 failed logins, each a password key derivation.
  it("others' failed passwords from the same address never lock an account out", {
    timeout: 90_000,
  }, async () => {
    advance(3600);
    const anon = t.anonymous();
    // A page in a browser here posting guesses (no-cors), across usernames.
    const sprayed = await burst(
      55,
      (() => {
        let i = 0;
        return () => {
          const username = `sprayed${Math.floor(i++ / 4)}@example.com`;
          return anon.post('/fetch_api_key', { username, password: 'wrong' }, fast);
        };
      })(),
      5,
    );
    expect(sprayed.map((r) => r.status)).toEqual(Array(55).fill(401));
    for (let i = 0; i < 4; i++) {
      const res = await anon.post(
        '/fetch_api_key',
        { username: t.accounts.owner.email, password: `guess ${i}` },
        fast,
      );
      expect(res.status).toBe(401);
    }
    // Every other account logs in from this address, the owner too (4 failures are under 5).
    for (const who of ['moderator', 'member', 'owner'] as const) {
      const login = await anon.post('/fetch_api_key', {
        username: t.accounts[who].email,
        password: FIXTURE_PASSWORD,
      });
      expect(login.status).toBe(200);
      expect(login.body.api_key).toBe(t.accounts[who].apiKey);
    }
    // Keys, events and the admin token were never in question.
    expect((await pollEvents('owner')).status).toBe(200);
    expect((await trpcUsers(bearer(ADMIN_TOKEN))).status).toBe(200);
  });

  it('reports X-RateLimit-* headers on authenticated responses, errors included', async () => {
    advance(3600);
    const first = await t.as('moderator').get('/users/me');
    expect(first.status).toBe(200);
    const h1 = rateHeaders(first);
    expect(h1.limit).toBe(200);
    expect(h1.remaining).toBe(199);
    expect(Number.isInteger(h1.reset)).toBe(true);
    expect(h1.reset).toBeGreaterThanOrEqual(Math.floor(clock / 1000));
    expect(h1.reset).toBeLessThanOrEqual(Math.ceil(clock / 1000) + 60);

    const failed = await t.as('moderator').get('/users/999999');
    expectError(failed, 400, 'BAD_REQUEST', 'No such user');
    expect(rateHeaders(failed)).toMatchObject({ limit: 200, remaining: 198 });

    const bad = await t.as('moderator').get('/users', { client_gravatar: 'x' });
    expect(bad.status).toBe(400);
    expect(rateHeaders(bad)).toMatchObject({ limit: 200, remaining: 197 });

    const post = await t.as('moderator').patch(`/users/${t.accounts.moderator.id}`, { role: 100 });
    expect(post.status).toBe(400);
    expect(rateHeaders(post)).toMatchObject({ limit: 200, remaining: 196 });
  });

  it('reports them on unauthenticated endpoints, per IP', async () => {
    advance(3600);
    const res = await t.anonymous().get('/server_settings');
    expect(res.status).toBe(200);
    expect(rateHeaders(res)).toMatchObject({ limit: 100, remaining: 99 });
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'nobody@example.com', password: FIXTURE_PASSWORD });
    expect(login.status).toBe(401);
    expect(rateHeaders(login)).toMatchObject({ limit: 100, remaining: 98 });
  });

  it('the 201st request within 60 s is refused with 429, only for that user', async () => {
    advance(3600);
    const member = t.as('member');
    const allowed = await burst(200, () => member.get('/users/me', {}, fast));
    expect(allowed.map((r) => r.status)).toEqual(Array(200).fill(200));
    const remaining = allowed.map((r) => rateHeaders(r).remaining).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i));

    const refused = await member.get('/users/me');
    expectRateLimited(refused, 60);
    expect(rateHeaders(refused).limit).toBe(200);
    // Every endpoint counts against the same budget, POSTs included.
    expectRateLimited(
      await member.post('/bots', { full_name: 'Late Bot', short_name: 'late' }),
      60,
    );

    // Other users, bots and unauthenticated callers are unaffected.
    for (const other of [t.as('admin'), t.as('bot'), t.as('guest')]) {
      expect((await other.get('/users/me')).status).toBe(200);
    }
    expect((await t.anonymous().get('/server_settings')).status).toBe(200);

    // Refused requests are not counted: after the window the user is free again.
    advance(30);
    expectRateLimited(await member.get('/users/me'), 31);
    advance(31);
    const again = await member.get('/users/me');
    expect(again.status).toBe(200);
    expect(rateHeaders(again).remaining).toBe(199);
  });

  it('the window slides: requests leave it 60 s after they were made', async () => {
    advance(3600);
    const admin = t.as('admin');
    await burst(100, () => admin.get('/users/me', {}, fast));
    advance(30);
    await burst(100, () => admin.get('/users/me', {}, fast));
    expectRateLimited(await admin.get('/users/me'), 30);
    advance(31); // the first hundred have left the window
    const res = await burst(100, () => admin.get('/users/me', {}, fast));
    expect(res.every((r) => r.status === 200)).toBe(true);
    expectRateLimited(await admin.get('/users/me'), 30);
  });

  it('unauthenticated endpoints allow 100 requests per 60 s per IP', async () => {
    advance(3600);
    const anon = t.anonymous();
    const allowed = await burst(100, () => anon.get('/server_settings', {}, fast));
    expect(allowed.every((r) => r.status === 200)).toBe(true);
    const refused = await anon.get('/server_settings');
    expectRateLimited(refused, 60);
    expect(rateHeaders(refused).limit).toBe(100);
    expectRateLimited(
      await anon.post('/fetch_api_key', {
        username: t.accounts.owner.email,
        password: FIXTURE_PASSWORD,
      }),
      60,
    );
    // Authenticated requests from the same address have their own budget.
    expect((await t.as('owner').get('/users/me')).status).toBe(200);
    advance(61);
    expect((await anon.get('/server_settings')).status).toBe(200);
  });

  it('5 failed passwords lock the username from that address for 30 minutes, right one included', async () => {
    advance(3600);
    const anon = t.anonymous();
    const username = t.accounts.guest.email;
    for (let i = 0; i < 5; i++) {
      expectError(
        await anon.post('/fetch_api_key', { username, password: `wrong ${i}` }),
        401,
        'AUTHENTICATION_FAILED',
        'Your username or password is incorrect',
      );
    }
    // Now even the right password waits, whatever case the username is in:
    // answering it would tell a right guess from a wrong one.
    expectRateLimited(
      await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD }),
      1800,
    );
    expectRateLimited(
      await anon.post('/fetch_api_key', { username: username.toUpperCase(), password: 'x' }),
      1800,
    );
    // Other usernames can still log in, the guest's API key still works, and
    // from another address the guest's right password does too.
    const other = await anon.post('/fetch_api_key', {
      username: t.accounts.moderator.email,
      password: FIXTURE_PASSWORD,
    });
    expect(other.status).toBe(200);
    expect((await t.as('guest').get('/users/me')).status).toBe(200);
    const elsewhere = await loginFrom(OTHER_ADDRESS, username, FIXTURE_PASSWORD);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.api_key).toBe(t.accounts.guest.apiKey);

    advance(29 * 60);
    expectRateLimited(
      await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD }),
      60,
    );
    advance(61);
    const ok = await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body.api_key).toBe(t.accounts.guest.apiKey);
  });

  it('guesses spread over many addresses lock the username, except where its owner already is', async () => {
    advance(3600);
    const target = await t.createMember('Distributed Target');
    // The person uses their account from 127.0.0.1 (the chat, a key).
    expect((await t.as(target).get('/users/me')).status).toBe(200);
    // Five addresses, five guesses each: 25 failures for the username.
    for (let a = 10; a < 15; a++) {
      for (let i = 0; i < 5; i++) {
        const res = await loginFrom(`127.0.0.${a}`, target.email, `guess ${a} ${i}`);
        expect(res.status).toBe(401);
      }
    }
    // A sixth address, never seen with this account, may not even try.
    const fresh = await loginFrom('127.0.0.20', target.email, FIXTURE_PASSWORD);
    expect(fresh.status).toBe(429);
    expect(fresh.body.code).toBe('RATE_LIMIT_HIT');
    // The address the person uses is not held up by the others' guesses.
    const own = await t
      .anonymous()
      .post('/fetch_api_key', { username: target.email, password: FIXTURE_PASSWORD });
    expect(own.status).toBe(200);
    expect(own.body.api_key).toBe(target.apiKey);
    // Other accounts are untouched everywhere.
    expect(
      (await loginFrom('127.0.0.20', t.accounts.moderator.email, FIXTURE_PASSWORD)).status,
    ).toBe(200);
    advance(30 * 60 + 1);
    expect((await loginFrom('127.0.0.20', target.email, FIXTURE_PASSWORD)).status).toBe(200);
  });

  it('successful logins do not count as failed attempts', async () => {
    advance(3600);
    const anon = t.anonymous();
    const username = t.accounts.admin.email;
    for (let i = 0; i < 5; i++) {
      const res = await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD });
      expect(res.status).toBe(200);
    }
    // Were successes counted, the window would be full now.
    const wrong = await anon.post('/fetch_api_key', { username, password: 'wrong' });
    expectError(wrong, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  });

  it('unknown usernames are limited too', async () => {
    advance(3600);
    const anon = t.anonymous();
    const username = 'nobody@example.com';
    for (let i = 0; i < 5; i++) {
      expect((await anon.post('/fetch_api_key', { username, password: 'x' })).status).toBe(401);
    }
    expectRateLimited(await anon.post('/fetch_api_key', { username, password: 'x' }), 1800);
  });
});

describe('demo logins (POST /dev_fetch_api_key) with rate limiting on', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true, demo: true });
  });
  afterAll(() => t.close());

  it('unknown names and wrong keys from the address never hold up a demo login', async () => {
    const anon = t.anonymous();
    for (let i = 0; i < 20; i++) {
      const res = await anon.post('/dev_fetch_api_key', { username: `nobody${i}@example.com` });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < FAILED_AUTH_BUDGET + 5; i++) {
      await t.as({ ...t.accounts.member, apiKey: 'y'.repeat(32) }).get('/users/me', {}, fast);
    }
    for (let i = 0; i < 6; i++) {
      const res = await anon.post(
        '/fetch_api_key',
        { username: t.accounts.member.email, password: `wrong ${i}` },
        fast,
      );
      expect(res.status).toBe(i < 5 ? 401 : 429);
    }
    const login = await anon.post('/dev_fetch_api_key', { username: t.accounts.member.email });
    expect(login.status).toBe(200);
    expect(login.body.api_key).toBe(t.accounts.member.apiKey);
    expect((await t.as('member').get('/users/me')).status).toBe(200);
  });
});

describe('with rate limiting off (--no-rate-limit)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: false });
  });
  afterAll(() => t.close());

  async function neverLimited(client: ApiClient, path: string, count: number) {
    const responses = await burst(count, () => client.get(path, {}, fast), 50);
    expect(responses.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
  }

  it('a user may exceed 200 requests a minute', async () => {
    await neverLimited(t.as('member'), '/users/me', 260);
  });

  it('unauthenticated endpoints may exceed 100 a minute', async () => {
    await neverLimited(t.anonymous(), '/server_settings', 130);
  });

  it('failed API-key attempts never lock an address', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const res = await t
        .as({ ...t.accounts.member, apiKey: 'x'.repeat(32) })
        .get('/users/me', {}, fast);
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([401]);
    expect((await t.as('member').get('/users/me')).status).toBe(200);
  });

  it('failed password attempts never lock a username', async () => {
    const anon = t.anonymous();
    const username = t.accounts.member.email;
    for (let i = 0; i < 6; i++) {
      const res = await anon.post('/fetch_api_key', { username, password: 'wrong' });
      expect(res.status).toBe(401);
    }
    const ok = await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD });
    expect(ok.status).toBe(200);
  });
});
