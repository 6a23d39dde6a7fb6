import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse, FixtureName, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(() => t?.close());

function expectError(res: ApiResponse, code: string, msg: string, status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', code, msg });
}

/**
 * A queue read without the reference check: `device` events (feature level
 * 468) are newer than the OpenAPI snapshot the test client validates against.
 */
class Queue {
  private lastId = -1;
  private constructor(
    readonly client: ApiClient,
    readonly id: string,
  ) {}

  static async register(who: FixtureName, params: Record<string, unknown> = {}) {
    const client = t.as(who);
    const res = await client.post('/register', { fetch_event_types: [], ...params });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return new Queue(client, res.body.queue_id);
  }

  async take() {
    const res = await this.client.get(
      '/events',
      { queue_id: this.id, last_event_id: this.lastId, dont_block: true },
      { skipSchema: true },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = res.body.events.filter((e: { type: string }) => e.type !== 'heartbeat');
    if (events.length > 0) this.lastId = events[events.length - 1].id;
    return events.map(({ id: _id, ...event }: { id: number }) => event);
  }
}

const devicesOf = async (who: FixtureName) => {
  const res = await t.as(who).post('/register', { fetch_event_types: ['device'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.devices;
};

const noPushRegistration = {
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
};

describe('POST /register_client_device (feature level 468)', () => {
  it('answers a new device id, as the mobile apps expect at every account load', async () => {
    expect(await devicesOf('member')).toEqual({});
    const first = await t.as('member').post('/register_client_device');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ result: 'success', msg: '', device_id: expect.any(Number) });
    const second = await t.as('member').post('/register_client_device');
    expect(second.body.device_id).toBeGreaterThan(first.body.device_id);

    expect(await devicesOf('member')).toEqual({
      [String(first.body.device_id)]: noPushRegistration,
      [String(second.body.device_id)]: noPushRegistration,
    });
    // Others see only their own.
    expect(await devicesOf('admin')).toEqual({});
  });

  it('tells every queue of the user that asked for device events, and no one else', async () => {
    const all = await Queue.register('moderator');
    const devices = await Queue.register('moderator', { event_types: ['device'] });
    const messages = await Queue.register('moderator', { event_types: ['message'] });
    const someoneElse = await Queue.register('member');

    const res = await t.as('moderator').post('/register_client_device');
    const id = res.body.device_id;
    const added = { type: 'device', op: 'add', device_id: id };
    expect(await all.take()).toEqual([added]);
    expect(await devices.take()).toEqual([added]);
    expect(await messages.take()).toEqual([]);
    expect(await someoneElse.take()).toEqual([]);

    expect(
      (await t.as('moderator').post('/remove_client_device', { device_id: id })).body.result,
    ).toBe('success');
    const removed = { type: 'device', op: 'remove', device_id: id };
    expect(await all.take()).toEqual([removed]);
    expect(await devices.take()).toEqual([removed]);
    expect(await messages.take()).toEqual([]);
    expect(await someoneElse.take()).toEqual([]);
  });

  it('is open to every role and to bots', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const res = await t.as(who).post('/register_client_device');
      expect(res.body.result, who).toBe('success');
      expect(Object.keys(await devicesOf(who)), who).toContain(String(res.body.device_id));
    }
  });
});

describe('POST /remove_client_device (feature level 470)', () => {
  it('removes the caller’s device; an unknown or foreign one is an invalid device_id', async () => {
    const mine = (await t.as('guest').post('/register_client_device')).body.device_id;
    const theirs = (await t.as('owner').post('/register_client_device')).body.device_id;

    expectError(
      await t.as('guest').post('/remove_client_device', { device_id: theirs }),
      'BAD_REQUEST',
      'Invalid `device_id`',
    );
    expect(Object.keys(await devicesOf('owner'))).toContain(String(theirs));

    const res = await t.as('guest').post('/remove_client_device', { device_id: mine });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(Object.keys(await devicesOf('guest'))).not.toContain(String(mine));

    expectError(
      await t.as('guest').post('/remove_client_device', { device_id: mine }),
      'BAD_REQUEST',
      'Invalid `device_id`',
    );
    expectError(
      await t.as('guest').post('/remove_client_device', { device_id: 999_999 }),
      'BAD_REQUEST',
      'Invalid `device_id`',
    );
  });

  it('names bad input as Zulip does', async () => {
    const missing = await t.as('member').post('/remove_client_device', {}, { skipSchema: true });
    expectError(missing, 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
    expect(missing.body.var_name).toBe('device_id');
    expectError(
      await t.as('member').post('/remove_client_device', { device_id: 'abc' }),
      'BAD_REQUEST',
      'device_id is not valid JSON',
    );
    expectError(
      await t.as('member').post('/remove_client_device', { device_id: 1.5 }),
      'BAD_REQUEST',
      'device_id is not an integer',
    );
  });

  it('never gives a removed device’s id to a new one', async () => {
    const first = (await t.as('member').post('/register_client_device')).body.device_id;
    await t.as('member').post('/remove_client_device', { device_id: first });
    const next = (await t.as('member').post('/register_client_device')).body.device_id;
    expect(next).toBeGreaterThan(first);
  });
});

describe('POST /mobile_push/register (E2EE push, feature level 468)', () => {
  const registration = (deviceId: number) => ({
    device_id: deviceId,
    push_key_id: 2408,
    push_key: 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt',
    token_kind: 'fcm',
    token_id: 'hGsEWGmyyfI=',
    bouncer_public_key: 'bouncer-public-key',
    encrypted_push_registration: 'encrypted-push-registration-data',
  });

  it('answers as a Zulip server without the push service, storing and telling nothing', async () => {
    const deviceId = (await t.as('member').post('/register_client_device')).body.device_id;
    const before = await devicesOf('member');
    const queue = await Queue.register('member');

    for (const params of [
      registration(deviceId),
      { device_id: deviceId, push_key_id: 1, push_key: 'key' },
      { device_id: 424242, token_kind: 'apns' },
    ]) {
      expectError(
        await t.as('member').post('/mobile_push/register', params),
        'PUSH_SERVICE_NOT_CONFIGURED',
        'Server is not configured to use push notification service.',
      );
    }
    expect(await devicesOf('member')).toEqual(before);
    expect(before[String(deviceId)]).toEqual(noPushRegistration);
    expect(await queue.take()).toEqual([]);
  });

  it('reads its parameters first', async () => {
    // The reference's error schema for this endpoint has no var_name; Zulip sends it.
    const missing = await t.as('member').post('/mobile_push/register', {}, { skipSchema: true });
    expectError(missing, 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
    expect(missing.body.var_name).toBe('device_id');
    expectError(
      await t.as('member').post('/mobile_push/register', { device_id: 1, token_kind: 'webpush' }),
      'BAD_REQUEST',
      'Invalid token_kind',
    );
    expectError(
      await t.as('member').post('/mobile_push/register', { device_id: 1, push_key_id: 2 ** 32 }),
      'BAD_REQUEST',
      'Invalid push_key_id',
    );
  });

  it('refuses bots first', async () => {
    for (const params of [registration(1), {}]) {
      expectError(
        await t.as('bot').post('/mobile_push/register', params),
        'BAD_REQUEST',
        'This endpoint does not accept bot requests.',
      );
    }
  });
});

describe('Hearth sends no push notifications, and says so', () => {
  it('GET /server_settings: push_notifications_enabled is false', async () => {
    const res = await t.anonymous().get('/server_settings');
    expect(res.body.push_notifications_enabled).toBe(false);
  });

  it('POST /register: realm_push_notifications_enabled is false, with no end date', async () => {
    const res = await t.as('member').post('/register', { fetch_event_types: ['realm'] });
    expect(res.body.realm_push_notifications_enabled).toBe(false);
    expect(res.body.realm_push_notifications_enabled_end_timestamp).toBeNull();
  });

  it('POST /register no longer carries push_devices (replaced by devices at level 468)', async () => {
    const res = await t.as('member').post('/register', {});
    expect(res.body).not.toHaveProperty('push_devices');
    expect(res.body.devices).toEqual(expect.any(Object));
  });
});
