/**
 * The admin UI in a browser without the admin token sends the chat's saved
 * login as Basic, and /trpc acts as that user: administrators get the admin
 * pages' data, members a clean refusal (UNAUTHORIZED_PRINCIPAL, which the UI
 * shows as "Administrators only"), owner-only procedures refuse
 * administrators the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
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
