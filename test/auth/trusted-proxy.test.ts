/**
 * Behind a reverse proxy every client arrives from the proxy's address. With
 * the proxy named (`--trusted-proxy`, HEARTH_TRUSTED_PROXIES), per-address
 * budgets use the client the proxy names in X-Forwarded-For: the right-most
 * address that is not a trusted proxy. Without it the header is ignored, so
 * a client cannot pick its own address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliOptions } from '../../server/cli.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

const BUDGET = 50;

/** 50 wrong keys for the member, as if from `forwardedFor`; then the 51st's status. */
async function wrongKeysThenStatus(t: TestServer, forwardedFor: string | null) {
  const headers: Record<string, string> = {
    authorization: basicAuth(t.accounts.member.email, 'x'.repeat(32)),
  };
  if (forwardedFor !== null) headers['x-forwarded-for'] = forwardedFor;
  const send = () => fetch(`${t.url}/api/v1/users/me`, { headers });
  for (let i = 0; i < BUDGET; i++) expect((await send()).status).toBe(401);
  return (await send()).status;
}

const wrongKeyFrom = (t: TestServer, forwardedFor: string) =>
  fetch(`${t.url}/api/v1/users/me`, {
    headers: {
      authorization: basicAuth(t.accounts.member.email, 'x'.repeat(32)),
      'x-forwarded-for': forwardedFor,
    },
  });

describe('behind a trusted proxy (127.0.0.1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true, trustedProxies: ['127.0.0.1'] });
  });
  afterAll(() => t.close());

  it('counts failures per forwarded client, not for the proxy as a whole', async () => {
    expect(await wrongKeysThenStatus(t, '203.0.113.5')).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect((await wrongKeyFrom(t, '203.0.113.6')).status).toBe(401);
  });

  it('takes the right-most untrusted address: prepended entries change nothing', async () => {
    expect((await wrongKeyFrom(t, '198.51.100.1, 203.0.113.5')).status).toBe(429);
    expect((await wrongKeyFrom(t, '203.0.113.5, 127.0.0.1')).status).toBe(429);
  });

  it('per-address request limits follow the forwarded client too', async () => {
    const anon = (forwardedFor: string) =>
      fetch(`${t.url}/api/v1/server_settings`, { headers: { 'x-forwarded-for': forwardedFor } });
    for (let i = 0; i < 100; i++) expect((await anon('192.0.2.1')).status).toBe(200);
    expect((await anon('192.0.2.1')).status).toBe(429);
    expect((await anon('192.0.2.2')).status).toBe(200);
  });
});

describe('without a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a client cannot escape its budget by writing one', async () => {
    expect(await wrongKeysThenStatus(t, '203.0.113.5')).toBe(429);
    expect((await wrongKeyFrom(t, '203.0.113.99')).status).toBe(429);
  });
});

describe('--trusted-proxy and HEARTH_TRUSTED_PROXIES', () => {
  it('take addresses and ranges, separated by commas or given again', () => {
    expect(parseCliOptions([], {}).trustedProxies).toEqual([]);
    expect(parseCliOptions(['--trusted-proxy', '127.0.0.1,10.0.0.0/8'], {}).trustedProxies).toEqual(
      ['127.0.0.1', '10.0.0.0/8'],
    );
    expect(
      parseCliOptions(['--trusted-proxy', '::1', '--trusted-proxy', 'loopback'], {}).trustedProxies,
    ).toEqual(['::1', 'loopback']);
    expect(
      parseCliOptions([], { HEARTH_TRUSTED_PROXIES: '192.168.1.2, fd00::/8' }).trustedProxies,
    ).toEqual(['192.168.1.2', 'fd00::/8']);
    // The flag wins over the variable.
    expect(
      parseCliOptions(['--trusted-proxy', '127.0.0.1'], { HEARTH_TRUSTED_PROXIES: '10.0.0.1' })
        .trustedProxies,
    ).toEqual(['127.0.0.1']);
  });

  it('refuse what is not an address or range', () => {
    expect(() => parseCliOptions(['--trusted-proxy', 'proxy.example.com'], {})).toThrow(
      /invalid trusted proxy: proxy\.example\.com/,
    );
    expect(() => parseCliOptions([], { HEARTH_TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(
      /invalid trusted proxy/,
    );
  });
});
