/**
 * Rate limiting: 200 requests per 60 s per user, 100 per 60 s per IP for
 * unauthenticated endpoints, 5 failed password attempts per 30 minutes per
 * username, 50 failed authentications (wrong API key or password) per 10
 * minutes per client address. A fake clock stands in for waiting.
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

  it(`${FAILED_AUTH_BUDGET} failed API-key attempts lock the client address, not other addresses`, async () => {
    advance(3600);
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
    // Now the address waits, whatever it sends: right keys, other endpoints, tRPC.
    expectRateLimited(await t.as('member').get('/users/me'), 600);
    expectRateLimited(await t.as('owner').post('/users/me/presence', { status: 'active' }), 600);
    const trpc = await fetch(`${t.url}/trpc/users.list`, {
      headers: { authorization: basicAuth(t.accounts.owner.email, t.accounts.owner.apiKey) },
    });
    expect(trpc.status).toBe(429);
    const zulip = (await trpc.json()).error?.json?.data?.zulip ?? {};
    expect(zulip.code).toBe('RATE_LIMIT_HIT');
    expect(zulip['retry-after']).toBeGreaterThan(0);
    // Unauthenticated endpoints keep their own budget.
    expect((await t.anonymous().get('/server_settings')).status).toBe(200);

    // Another address is unaffected, and has a budget of its own.
    const other = await meFrom(
      OTHER_ADDRESS,
      basicAuth(t.accounts.member.email, t.accounts.member.apiKey),
    );
    expect(other.status).toBe(200);
    expect(other.body.user_id).toBe(t.accounts.member.id);
    expectError(
      await meFrom(OTHER_ADDRESS, wrongKey(t.accounts.member)),
      401,
      'INVALID_API_KEY',
      'Invalid API key',
    );

    // Failures leave the window after 10 minutes.
    advance(9 * 60);
    expectRateLimited(await t.as('member').get('/users/me'), 61);
    advance(61);
    expect((await t.as('member').get('/users/me')).status).toBe(200);
  });

  it('unreadable credentials, wrong tRPC keys and admin tokens count too; missing ones do not', async () => {
    advance(3600);
    for (let i = 0; i < 20; i++) {
      const res = await t
        .anonymous()
        .get('/users/me', {}, { headers: { authorization: 'Basic !!!' } });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 20; i++) {
      const res = await t.anonymous().get('/users/me');
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 20; i++) {
      const auth = i % 2 === 0 ? wrongKey(t.accounts.admin) : `Bearer wrong-${ADMIN_TOKEN}`;
      const res = await fetch(`${t.url}/trpc/users.list`, { headers: { authorization: auth } });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < FAILED_AUTH_BUDGET - 40; i++) {
      expect((await t.as({ ...t.accounts.admin, apiKey: 'nope' }).get('/users/me')).status).toBe(
        401,
      );
    }
    expectRateLimited(await t.as('admin').get('/users/me'), 600);
  });

  it('failed passwords count against the address, across usernames', async () => {
    advance(3600);
    const anon = t.anonymous();
    // Four per username stays under the per-username lock.
    for (let i = 0; i < FAILED_AUTH_BUDGET; i++) {
      const username = `sprayed${Math.floor(i / 4)}@example.com`;
      const res = await anon.post('/fetch_api_key', { username, password: 'wrong' }, fast);
      expect(res.status).toBe(401);
    }
    expectRateLimited(
      await anon.post('/fetch_api_key', {
        username: t.accounts.moderator.email,
        password: FIXTURE_PASSWORD,
      }),
      600,
    );
    const login = await requestFrom(
      OTHER_ADDRESS,
      t.url,
      'POST',
      `/api/v1/fetch_api_key?${new URLSearchParams({ username: t.accounts.moderator.email, password: FIXTURE_PASSWORD })}`,
    );
    expect(login.status).toBe(200);
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

  it('5 failed password attempts lock the username for 30 minutes', async () => {
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
    // Now even the right password waits, whatever case the username is in.
    expectRateLimited(
      await anon.post('/fetch_api_key', { username, password: FIXTURE_PASSWORD }),
      1800,
    );
    expectRateLimited(
      await anon.post('/fetch_api_key', { username: username.toUpperCase(), password: 'x' }),
      1800,
    );
    // Other usernames can still log in, and the guest's API key still works.
    const other = await anon.post('/fetch_api_key', {
      username: t.accounts.moderator.email,
      password: FIXTURE_PASSWORD,
    });
    expect(other.status).toBe(200);
    expect((await t.as('guest').get('/users/me')).status).toBe(200);

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
