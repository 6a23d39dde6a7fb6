/**
 * GET /server_settings: what a client reads before it has credentials. The
 * python bindings call it with their (possibly wrong) credentials and assert
 * zulip_version is not null, so it must answer 200 whatever they send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMember } from '../helpers/fixtures.js';
import {
  ApiClient,
  type ApiResponse,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { raw } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function expectSettings(res: ApiResponse): void {
  expect(res.status).toBe(200);
  const body = res.body;
  expect(body.result).toBe('success');
  expect(body.msg).toBe('');
  expect(Number.isInteger(body.zulip_feature_level)).toBe(true);
  expect(body.zulip_feature_level).toBeGreaterThanOrEqual(496);
  expect(body.service_feature_level).toBe(body.zulip_feature_level);
  expect(typeof body.zulip_version).toBe('string');
  expect(body.zulip_version).not.toBe('');
  expect(typeof body.zulip_merge_base).toBe('string');
  expect(body.zulip_merge_base).not.toBe('');
  expect(body.realm_name).toBe('Test Org');
  expect(typeof body.realm_icon).toBe('string');
  expect(body.realm_icon).not.toBe('');
  expect(body.realm_uri).toBe(t.url);
  expect(body.realm_url).toBe(t.url);
  expect(body.authentication_methods).toMatchObject({ password: true, dev: false });
  for (const value of Object.values(body.authentication_methods)) {
    expect(typeof value).toBe('boolean');
  }
  expect(body).not.toHaveProperty('ignored_parameters_unsupported');
}

describe('GET /server_settings', () => {
  it('answers without credentials', async () => {
    expectSettings(await t.anonymous().get('/server_settings'));
  });

  it('answers with the right credentials', async () => {
    expectSettings(await t.as('member').get('/server_settings'));
    expectSettings(await t.as('bot').get('/server_settings'));
  });

  it('answers 200 with wrong credentials', async () => {
    const wrong = [
      new ApiClient(t.url, { email: t.accounts.owner.email, apiKey: 'W'.repeat(32) }),
      new ApiClient(t.url, { email: 'nobody@example.com', apiKey: 'nonsense' }),
      new ApiClient(t.url, { email: '', apiKey: '' }),
    ];
    for (const client of wrong) expectSettings(await client.get('/server_settings'));
  });

  it('answers 200 with unreadable Authorization headers', async () => {
    for (const header of ['Bearer xyz', 'Basic !!!', 'Basic', 'garbage']) {
      const res = await raw(t.url, 'GET', '/api/v1/server_settings', {
        headers: { authorization: header },
      });
      expectSettings(res);
    }
  });

  it('answers 200 for a deactivated user', async () => {
    const user = await quickMember(t, 'Gone Soon');
    await t.as('admin').delete(`/users/${user.id}`);
    expectSettings(await t.as(user).get('/server_settings'));
  });

  it('lists unknown parameters as ignored', async () => {
    const res = await t.anonymous().get('/server_settings', { foo: 1 });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['foo']);
  });
});
