/**
 * The admin UI in a browser without the admin token uses the chat's browser
 * session (its cookie and CSRF header), and /trpc acts as that user:
 * administrators get the admin pages' data, members a clean refusal
 * (UNAUTHORIZED_PRINCIPAL, which the UI shows as "Administrators only"),
 * owner-only procedures refuse administrators the same way. Zulip's Basic
 * API-key credentials act the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
  FIXTURE_PASSWORD,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { failure, trpcClient } from './client.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ adminToken: 'a-token-nobody-is-given' });
});
afterAll(() => t.close());

const as = (who: FixtureName) =>
  trpcClient(t.url, basicAuth(t.accounts[who].email, t.accounts[who].apiKey));

describe('/trpc with the chat’s Basic login', () => {
  it('gives administrators and owners the organization', async () => {
    for (const who of ['owner', 'admin'] as const) {
      expect(await as(who).setup.status.query()).toEqual({ needsSetup: false });
      expect(await as(who).organization.info.query()).toMatchObject({ name: 'Test Org' });
    }
  });

  it('refuses members and guests cleanly, as not administrators', async () => {
    for (const who of ['member', 'guest'] as const) {
      const refused = await failure(as(who).organization.info.query());
      expect(refused).toMatchObject({
        httpStatus: 400,
        zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' },
      });
    }
  });

  it('keeps owner-only procedures from administrators', async () => {
    for (const call of [
      () => as('admin').backup.list.query(),
      () => as('admin').network.get.query(),
    ]) {
      expect(await failure(call())).toMatchObject({
        zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' },
      });
    }
    expect(await as('owner').network.get.query()).toMatchObject({ lan: false });
  });

  it('refuses a login that is no longer valid', async () => {
    const stale = trpcClient(t.url, basicAuth(t.accounts.admin.email, 'revoked-key'));
    expect(await failure(stale.setup.status.query())).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

/** Logs in as the chat's page does; the cookie and CSRF header its admin UI sends. */
async function browserSession(who: FixtureName): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${t.url}/chat/session`, {
    method: 'POST',
    body: new URLSearchParams({ username: t.accounts[who].email, password: FIXTURE_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const { csrf_token: csrf } = (await res.json()) as { csrf_token: string };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, csrf };
}

describe('/trpc with the browser session', () => {
  const inBrowser = async (who: FixtureName) => {
    const { cookie, csrf } = await browserSession(who);
    return trpcClient(t.url, { cookie, 'x-csrftoken': csrf });
  };

  it('keeps the same role checks', async () => {
    expect(await (await inBrowser('admin')).organization.info.query()).toMatchObject({
      name: 'Test Org',
    });
    expect(await failure((await inBrowser('member')).organization.info.query())).toMatchObject({
      zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' },
    });
    expect(await failure((await inBrowser('admin')).network.get.query())).toMatchObject({
      zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' },
    });
    expect(await (await inBrowser('owner')).network.get.query()).toMatchObject({ lan: false });
  });

  it('needs the CSRF header on every call, reads too', async () => {
    const { cookie, csrf } = await browserSession('owner');
    const attempts: Record<string, string>[] = [{ cookie }, { cookie, 'x-csrftoken': `${csrf}x` }];
    for (const headers of attempts) {
      const refused = await failure(trpcClient(t.url, headers).organization.info.query());
      expect(refused).toMatchObject({ httpStatus: 403, zulip: { code: 'CSRF_FAILED' } });
    }
  });

  it('refuses a session that has ended', async () => {
    const { cookie, csrf } = await browserSession('admin');
    const out = await fetch(`${t.url}/chat/session`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrftoken': csrf },
    });
    expect(out.status).toBe(200);
    const stale = trpcClient(t.url, { cookie, 'x-csrftoken': csrf });
    expect(await failure(stale.setup.status.query())).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
