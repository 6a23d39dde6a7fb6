/**
 * The settle step after `manage.py import`: Hearth sets what Zulip's
 * importer reset (the organization's name) through the Zulip REST API. A
 * second Hearth server stands in for Zulip: it speaks the same API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettleFailed, settleOnZulip } from '../../server/portability/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let hearth: TestServer;
let zulip: TestServer;
beforeAll(async () => {
  hearth = await startTestServer();
  zulip = await startTestServer();
  await hearth
    .as('owner')
    .patch('/realm', { name: 'Riverside Makers', description: 'We make things' });
  // What the importer leaves: the subdomain as the name.
  await zulip.as('owner').patch('/realm', { name: 'riverside' });
});
afterAll(async () => {
  await hearth?.close();
  await zulip?.close();
});

it("sets the organization's name and description again, and lists bots with new keys", async () => {
  const report = await settleOnZulip({
    databaseFile: hearth.server.ctx.db.name,
    zulipUrl: zulip.url,
    email: zulip.accounts.owner.email,
    apiKey: zulip.accounts.owner.apiKey,
  });
  expect(report.restored).toEqual({ name: 'Riverside Makers', description: 'We make things' });
  expect(report.botsToReconfigure).toEqual([
    expect.objectContaining({ name: 'Test Bot', outgoingWebhook: false }),
  ]);
  const settings = await zulip.anonymous().get('/server_settings');
  expect(settings.body.realm_name).toBe('Riverside Makers');
});

it('says what Zulip answered when it refuses', async () => {
  await expect(
    settleOnZulip({
      databaseFile: hearth.server.ctx.db.name,
      zulipUrl: zulip.url,
      email: zulip.accounts.member.email,
      apiKey: zulip.accounts.member.apiKey,
    }),
  ).rejects.toThrow(
    new SettleFailed(
      "Zulip refused to set the organization's name (400): Must be an organization administrator",
    ),
  );
});
