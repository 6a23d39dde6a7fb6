/**
 * Feature level 496 belongs to the Zulip 12.0 line, so Hearth names 12.0 as
 * its version and merge base (an export is pinned to the same line).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

it('reports the Zulip 12.0 line with feature level 496', async () => {
  const res = await t.anonymous().get('/server_settings', {}, { skipSchema: true });
  expect(res.body.zulip_feature_level).toBe(496);
  expect(res.body.zulip_version).toMatch(/^12\.0-hearth-/);
  expect(res.body.zulip_merge_base).toBe('12.0');
  const reg = await t.as('member').post('/register', {}, { skipSchema: true });
  expect(reg.body.zulip_version).toMatch(/^12\.0-/);
  expect(reg.body.zulip_merge_base).toBe('12.0');
});
