import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTokensOf } from '../../server/db/queries/push-devices.js';
import {
  type ApiResponse,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(() => t?.close());

const FCM = '/users/me/android_gcm_reg_id';
const APNS = '/users/me/apns_device_token';
const APP_ID = 'org.zulip.Zulip';

const tokens = (who: FixtureName) =>
  pushTokensOf(t.server.ctx.db, t.accounts[who].id).map((row) => ({
    kind: row.kind,
    token: row.token,
    ios_app_id: row.ios_app_id,
  }));

function expectError(res: ApiResponse, code: string, msg: string, status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', code, msg });
}

function expectSuccess(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ result: 'success', msg: '' });
}

describe('FCM registration tokens (POST/DELETE /users/me/android_gcm_reg_id)', () => {
  it('keeps the token per user; registering it again changes nothing', async () => {
    expectSuccess(await t.as('member').post(FCM, { token: 'fcm-token-1' }));
    expect(tokens('member')).toEqual([{ kind: 2, token: 'fcm-token-1', ios_app_id: null }]);
    expectSuccess(await t.as('member').post(FCM, { token: 'fcm-token-1' }));
    expect(tokens('member')).toHaveLength(1);

    // The same token for someone else (a shared phone) is their own row.
    expectSuccess(await t.as('admin').post(FCM, { token: 'fcm-token-1' }));
    expect(tokens('admin')).toEqual([{ kind: 2, token: 'fcm-token-1', ios_app_id: null }]);
    expect(tokens('member')).toHaveLength(1);
  });

  it('removes only the caller’s token; an unknown one is an error', async () => {
    expectSuccess(await t.as('member').delete(FCM, { token: 'fcm-token-1' }));
    expect(tokens('member')).toEqual([]);
    expect(tokens('admin')).toHaveLength(1);

    expectError(
      await t.as('member').delete(FCM, { token: 'fcm-token-1' }),
      'BAD_REQUEST',
      'Token does not exist',
    );
    // Another user's token is not the caller's to remove.
    expectError(
      await t.as('moderator').delete(FCM, { token: 'fcm-token-1' }),
      'BAD_REQUEST',
      'Token does not exist',
    );
    expect(tokens('admin')).toHaveLength(1);
    expectSuccess(await t.as('admin').delete(FCM, { token: 'fcm-token-1' }));
  });

  it('checks the token: empty or longer than 4096 characters', async () => {
    for (const method of ['post', 'delete'] as const) {
      const client = t.as('member');
      expectError(
        await client[method](FCM, { token: '' }),
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
      expectError(
        await client[method](FCM, { token: 'a'.repeat(4097) }),
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
      // The reference's error schemas for these endpoints have no var_name; Zulip sends it.
      const missing = await client[method](FCM, {}, { skipSchema: true });
      expectError(missing, 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument");
      expect(missing.body.var_name).toBe('token');
    }
    // 4096 characters is the most, counted as characters (8192 UTF-16 units here).
    const long = '😀'.repeat(4096);
    expectSuccess(await t.as('member').post(FCM, { token: long }));
    expect(tokens('member').map((r) => r.token)).toEqual([long]);
    expectSuccess(await t.as('member').delete(FCM, { token: long }));
  });
});

describe('APNs device tokens (POST/DELETE /users/me/apns_device_token)', () => {
  it('keeps the token with its app id', async () => {
    expectSuccess(await t.as('guest').post(APNS, { token: 'c0ffee', appid: APP_ID }));
    expect(tokens('guest')).toEqual([{ kind: 1, token: 'c0ffee', ios_app_id: APP_ID }]);
    expectSuccess(await t.as('guest').delete(APNS, { token: 'c0ffee' }));
    expect(tokens('guest')).toEqual([]);
  });

  it('requires appid (since feature level 223) and checks it', async () => {
    const missing = await t.as('member').post(APNS, { token: 'c0ffee' }, { skipSchema: true });
    expectError(missing, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument");
    expect(missing.body.var_name).toBe('appid');
    for (const appid of ['', 'org.zulip/Zulip', 'org zulip', 'org.zulip.Zulip\n']) {
      expectError(
        await t.as('member').post(APNS, { token: 'c0ffee', appid }),
        'BAD_REQUEST',
        'Invalid app ID',
      );
    }
    expect(tokens('member')).toEqual([]);
  });

  it('accepts only hex tokens (pairs of hex digits, spaces between pairs)', async () => {
    for (const method of ['post', 'delete'] as const) {
      for (const token of ['not hex', 'c0ffe', 'c0ffeg', '0x0c0f']) {
        expectError(
          await t.as('member')[method](APNS, { token, appid: APP_ID }),
          'BAD_REQUEST',
          'Invalid APNS token',
        );
      }
      expectError(
        await t.as('member')[method](APNS, { token: '', appid: APP_ID }),
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
      expectError(
        await t.as('member')[method](APNS, { token: 'ab'.repeat(2049), appid: APP_ID }),
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
    }
    for (const token of ['C0FFEE', 'c0 ff ee', 'ab'.repeat(2048)]) {
      expectSuccess(await t.as('member').post(APNS, { token, appid: APP_ID }));
    }
    expect(tokens('member').map((r) => r.token)).toEqual(['C0FFEE', 'c0 ff ee', 'ab'.repeat(2048)]);
    for (const token of ['C0FFEE', 'c0 ff ee', 'ab'.repeat(2048)]) {
      expectSuccess(await t.as('member').delete(APNS, { token }));
    }
  });

  it('keeps APNs and FCM tokens apart', async () => {
    expectSuccess(await t.as('member').post(FCM, { token: 'abcd' }));
    expectError(
      await t.as('member').delete(APNS, { token: 'abcd' }),
      'BAD_REQUEST',
      'Token does not exist',
    );
    expectSuccess(await t.as('member').post(APNS, { token: 'abcd', appid: APP_ID }));
    expect(tokens('member')).toEqual([
      { kind: 2, token: 'abcd', ios_app_id: null },
      { kind: 1, token: 'abcd', ios_app_id: APP_ID },
    ]);
    expectSuccess(await t.as('member').delete(FCM, { token: 'abcd' }));
    expect(tokens('member')).toEqual([{ kind: 1, token: 'abcd', ios_app_id: APP_ID }]);
    expectSuccess(await t.as('member').delete(APNS, { token: 'abcd' }));
  });
});

describe('who may register push tokens', () => {
  it('every human role may', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest'] as const) {
      expectSuccess(await t.as(who).post(FCM, { token: `role-${who}` }));
      expectSuccess(await t.as(who).post(APNS, { token: 'beef', appid: APP_ID }));
      expect(
        tokens(who).map((r) => r.token),
        who,
      ).toEqual([`role-${who}`, 'beef']);
      expectSuccess(await t.as(who).delete(FCM, { token: `role-${who}` }));
      expectSuccess(await t.as(who).delete(APNS, { token: 'beef' }));
    }
  });

  it('bots may not, whatever they send', async () => {
    const bot = t.as('bot');
    for (const res of [
      await bot.post(FCM, { token: 'bot-token' }),
      await bot.post(FCM, {}),
      await bot.delete(FCM, { token: 'bot-token' }),
      await bot.delete(FCM, {}),
      await bot.post(APNS, { token: 'c0ffee', appid: APP_ID }),
      await bot.post(APNS, {}),
      await bot.delete(APNS, { token: 'c0ffee' }),
      await bot.delete(APNS, {}),
    ]) {
      expectError(res, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    }
    expect(tokens('bot')).toEqual([]);
  });

  it('registering tokens sends no events', async () => {
    const reg = await t.as('member').post('/register', { fetch_event_types: [] });
    expectSuccess(await t.as('member').post(FCM, { token: 'quiet' }));
    expectSuccess(await t.as('member').delete(FCM, { token: 'quiet' }));
    const res = await t.as('member').get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(res.body.events.filter((e: { type: string }) => e.type !== 'heartbeat')).toEqual([]);
  });
});
