/**
 * HTTP conventions shared by every endpoint: where parameters may come from,
 * how they are encoded and validated, the JSON envelope, and what happens to
 * requests that are not well-formed at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type Encoding,
  encodeValue,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { authHeader, expectEnvelope, expectError, type RawResponse, raw } from './support.js';

let t: TestServer;
/** Renamed, deactivated and reactivated freely by these tests. */
let target: Account;

beforeAll(async () => {
  t = await startTestServer();
  target = await quickMember(t, 'Tara Target');
});
afterAll(() => t.close());

const encodings: Encoding[] = ['query', 'form', 'multipart'];

async function fullNameOf(id: number): Promise<string> {
  const res = await t.as('owner').get(`/users/${id}`);
  expect(res.status).toBe(200);
  return res.body.user.full_name;
}

describe('where parameters come from', () => {
  it('GET /users reads user_ids from the query string', async () => {
    const ids = [t.accounts.member.id, t.accounts.bot.id];
    const res = await t.as('member').get('/users', { user_ids: ids }, { encoding: 'query' });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { user_id: number }) => m.user_id)).toEqual(ids);
  });

  it.each(encodings)('POST /users takes its parameters from the %s', async (encoding) => {
    const email = `post-${encoding}@example.com`;
    const res = await t
      .as('admin')
      .post(
        '/users',
        { email, password: 'a long password', full_name: `Posted ${encoding}` },
        { encoding },
      );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    const user = await t.as('owner').get(`/users/${res.body.user_id}`);
    expect(user.body.user.delivery_email).toBe(email);
    expect(user.body.user.full_name).toBe(`Posted ${encoding}`);
  });

  it.each(encodings)('PATCH /users/{id} takes its parameters from the %s', async (encoding) => {
    const name = `Patched by ${encoding}`;
    const res = await t
      .as('admin')
      .patch(`/users/${target.id}`, { full_name: name, role: 300 }, { encoding });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await fullNameOf(target.id)).toBe(name);
    const user = await t.as('owner').get(`/users/${target.id}`);
    expect(user.body.user.role).toBe(300);
    await t.as('admin').patch(`/users/${target.id}`, { role: 400 });
  });

  it.each(encodings)('DELETE /users/{id} reads parameters from the %s', async (encoding) => {
    // An over-long comment is only rejected if the server read it from there.
    const tooLong = await t
      .as('admin')
      .delete(
        `/users/${target.id}`,
        { deactivation_notification_comment: 'x'.repeat(2001) },
        { encoding },
      );
    expectError(
      tooLong,
      400,
      'BAD_REQUEST',
      'deactivation_notification_comment is too long (limit: 2000 characters)',
    );
    const res = await t.as('admin').delete(
      `/users/${target.id}`,
      { deactivation_notification_comment: 'bye', zzz: 1 },
      {
        encoding,
      },
    );
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['zzz'],
    });
    const back = await t
      .as('admin')
      .post(`/users/${target.id}/reactivate`, { yyy: 'x' }, { encoding });
    expect(back.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['yyy'],
    });
  });

  it('a body value wins over the same parameter in the query string', async () => {
    const url = `/api/v1/users/${target.id}?full_name=${encodeURIComponent('From Query')}`;
    const res = await raw(t.url, 'PATCH', url, {
      headers: {
        authorization: authHeader(t.accounts.admin),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'full_name=From+Body',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await fullNameOf(target.id)).toBe('From Body');
  });

  it('the path parameter wins over a user_id in the body', async () => {
    const res = await t
      .as('admin')
      .patch(`/users/${target.id}`, { user_id: t.accounts.owner.id, full_name: 'Path Wins' });
    expect(res.status).toBe(200);
    expect(await fullNameOf(target.id)).toBe('Path Wins');
    expect(await fullNameOf(t.accounts.owner.id)).toBe('Olivia Owner');
  });
});

describe('value encodings', () => {
  it('arrays are JSON', async () => {
    const ok = await t.as('member').get('/users', { user_ids: [t.accounts.owner.id] });
    expect(ok.body.members).toHaveLength(1);
    expectError(
      await t.as('member').get('/users', { user_ids: '1,2' }),
      400,
      'BAD_REQUEST',
      'user_ids is not valid JSON',
    );
    expectError(
      await t.as('member').get('/users', { user_ids: '{}' }),
      400,
      'BAD_REQUEST',
      'user_ids is not a list',
    );
    expectError(
      await t.as('member').get('/users', { user_ids: '["x"]' }),
      400,
      'BAD_REQUEST',
      'user_ids[0] is not an integer',
    );
  });

  it('objects are JSON', async () => {
    expectError(
      await t.as('member').post('/bots', {
        full_name: 'Config Bot',
        short_name: 'config',
        bot_type: 4,
        service_name: 'helloworld',
        config_data: '{"a": 1}',
      }),
      400,
      'BAD_REQUEST',
      'config_data["a"] is not a string',
    );
    expectError(
      await t.as('member').post('/bots', {
        full_name: 'Config Bot',
        short_name: 'config',
        config_data: '[]',
      }),
      400,
      'BAD_REQUEST',
      'config_data is not a dict',
    );
  });

  it('booleans are exactly true or false', async () => {
    const on = await t
      .as('member')
      .get(`/users/${t.accounts.owner.id}`, { include_custom_profile_fields: 'true' });
    const off = await t
      .as('member')
      .get(`/users/${t.accounts.owner.id}`, { include_custom_profile_fields: 'false' });
    expect(on.body.user.profile_data).toEqual({});
    expect(off.body.user).not.toHaveProperty('profile_data');
    for (const bad of ['True', 'yes', 'TRUE', '']) {
      expectError(
        await t.as('member').get('/users', { client_gravatar: bad }),
        400,
        'BAD_REQUEST',
        'client_gravatar is not valid JSON',
      );
    }
    for (const bad of ['1', '0', '"true"', 'null', '[]']) {
      expectError(
        await t.as('member').get('/users', { client_gravatar: bad }),
        400,
        'BAD_REQUEST',
        'client_gravatar is not a boolean',
      );
    }
  });

  it('integers are strict', async () => {
    const patch = (role: string) => t.as('owner').patch(`/users/${target.id}`, { role });
    for (const bad of ['x', '', '4oo', '0x190']) {
      expectError(await patch(bad), 400, 'BAD_REQUEST', 'role is not valid JSON');
    }
    for (const bad of ['1.5', 'true', '"400"', '[400]', '1e400', '99999999999999999999']) {
      expectError(await patch(bad), 400, 'BAD_REQUEST', 'role is not an integer');
    }
    const ok = await patch(' 400 ');
    expect(ok.body).toEqual({ result: 'success', msg: '' });
  });

  it('a missing required parameter is REQUEST_VARIABLE_MISSING with var_name', async () => {
    for (const missing of ['email', 'password', 'full_name']) {
      const params: Record<string, string> = {
        email: 'missing@example.com',
        password: 'a long password',
        full_name: 'Missing Person',
      };
      delete params[missing];
      expectError(
        // The reference's POST /users 400 schema omits var_name, which Zulip sends.
        await t.as('owner').post('/users', params, { skipSchema: true }),
        400,
        'REQUEST_VARIABLE_MISSING',
        `Missing '${missing}' argument`,
        { var_name: missing },
      );
    }
    expectError(
      await t.anonymous().post('/fetch_api_key', { username: 'owner@example.com' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
      { var_name: 'password' },
    );
  });
});

describe('ignored_parameters_unsupported', () => {
  it('lists unknown query parameters of a GET, sorted', async () => {
    const res = await t.as('member').get('/users/me', { zzz: 1, aaa: 'x', mmm: '' });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['aaa', 'mmm', 'zzz']);
  });

  it.each(encodings)('lists unknown %s parameters of a PATCH, sorted', async (encoding) => {
    const res = await t
      .as('admin')
      .patch(`/users/${target.id}`, { zzz: 1, full_name: 'Still Tara', aaa: 'x' }, { encoding });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['aaa', 'zzz'],
    });
  });

  it('is absent when every parameter is supported', async () => {
    const res = await t.as('member').get('/users', { client_gravatar: false });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
    const none = await t.as('member').get('/users/me');
    expect(none.body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('is not sent with errors', async () => {
    const res = await t.as('member').get('/users', { client_gravatar: 'maybe', zzz: 1 });
    expectError(res, 400, 'BAD_REQUEST', 'client_gravatar is not valid JSON');
  });

  it('names odd keys without tripping over them', async () => {
    const res = await raw(t.url, 'PATCH', `/api/v1/users/${target.id}`, {
      headers: {
        authorization: authHeader(t.accounts.admin),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '__proto__=x&constructor=y&toString=z&%F0%9F%98%80=1',
    });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(
      ['__proto__', 'constructor', 'toString', '😀'].sort(),
    );
  });
});

describe('the JSON envelope', () => {
  it('success is {result: success, msg: ""} and errors carry code and status', async () => {
    const ok = await t.as('member').get('/users/me');
    expect(ok.body.result).toBe('success');
    expect(ok.body.msg).toBe('');
    const bad = await t.as('member').get('/users/999999');
    expectError(bad, 400, 'BAD_REQUEST', 'No such user');
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it.each([
    ['GET', '/api/v1/no_such_endpoint'],
    ['POST', '/api/v1/users/me/no_such_thing'],
    ['PUT', '/api/v1/users/me'],
    ['DELETE', '/api/v1/server_settings'],
    ['GET', '/api/v2/users/me'],
    // GET / is the chat page; other methods there and other root paths are not routes.
    ['POST', '/'],
    ['GET', '/no_such_page'],
  ])('an unknown route (%s %s) is a 404 JSON error', async (method, path) => {
    const res = await raw(t.url, method, path, {
      headers: { authorization: authHeader(t.accounts.member) },
    });
    expectError(res, 404, 'NOT_FOUND', 'Endpoint not found');
  });

  const patchMember = (init: { headers: Record<string, string>; body?: string | FormData }) =>
    raw(t.url, 'PATCH', `/api/v1/users/${target.id}`, {
      body: init.body,
      headers: { authorization: authHeader(t.accounts.admin), ...init.headers },
    });

  it('invalid JSON with content-type application/json is a 400 JSON error', async () => {
    for (const body of ['{bad', '', '{"full_name": ']) {
      const res = await patchMember({ headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
      expect(res.body.msg).toMatch(/^Malformed request: /);
    }
  });

  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\n'],
    [
      'a part cut off',
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nNo End',
    ],
    ['garbage', 'multipart/form-data; boundary=XX', 'this is not multipart at all'],
  ])('a broken multipart body (%s) is a 400 JSON error', async (_label, type, body) => {
    const res = await patchMember({ headers: { 'content-type': type }, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(res.body.msg).toMatch(/^Malformed request: /);
  });

  const big = 'a'.repeat(4 * 1024 * 1024 + 10);
  it.each([
    ['form', 'application/x-www-form-urlencoded', `full_name=${big}`],
    ['JSON', 'application/json', JSON.stringify({ full_name: big })],
    ['octet-stream', 'application/octet-stream', big],
  ])('a %s body over 4 MiB is a 413 JSON error', async (_label, type, body) => {
    const res = await patchMember({ headers: { 'content-type': type }, body });
    expectError(res, 413, 'REQUEST_TOO_LARGE', 'Request body too large');
  });

  it('multipart fields over 4 MiB are a 413 JSON error too', async () => {
    const form = new FormData();
    form.append('full_name', big);
    expectError(
      await patchMember({ headers: {}, body: form }),
      413,
      'REQUEST_TOO_LARGE',
      'Request body too large',
    );
    const many = new FormData();
    for (let i = 0; i < 5; i++) many.append(`f${i}`, 'b'.repeat(1024 * 1024));
    expectError(
      await patchMember({ headers: {}, body: many }),
      413,
      'REQUEST_TOO_LARGE',
      'Request body too large',
    );
  });

  it('a body just under the limit is read', async () => {
    const res = await patchMember({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `full_name=Under+Limit&padding=${'p'.repeat(3 * 1024 * 1024)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['padding']);
  });
});

describe('garbage input never produces a 500', () => {
  const garbageValues = [
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '[[[[',
    '99999999999999999999',
    '-99999999999999999999',
    '1e400',
    '-1',
    '1.5',
    'true',
    '"quoted"',
    '😀'.repeat(50),
    '\u0000',
    '\ud800',
    'a'.repeat(1000),
    '{"__proto__": {"polluted": 1}}',
    '[{"operator": "is", "operand": {"x": [1]}}]',
    '%zz',
  ];
  const garbageIds = [
    '99999999999999999999',
    '0',
    '-1',
    'abc',
    '%F0%9F%98%80',
    '1.5',
    '%00',
    'x%40y',
  ];

  interface Endpoint {
    method: string;
    path: string;
    params: string[];
    anonymous?: boolean;
  }
  const endpoints = (): Endpoint[] => [
    { method: 'GET', path: '/server_settings', params: ['x'], anonymous: true },
    { method: 'POST', path: '/fetch_api_key', params: ['username', 'password'], anonymous: true },
    { method: 'POST', path: '/dev_fetch_api_key', params: ['username'], anonymous: true },
    { method: 'GET', path: '/dev_list_users', params: ['x'], anonymous: true },
    { method: 'GET', path: '/users/me', params: ['x'] },
    {
      method: 'GET',
      path: '/users',
      params: ['client_gravatar', 'include_custom_profile_fields', 'user_ids'],
    },
    { method: 'POST', path: '/users', params: ['email', 'password', 'full_name'] },
    { method: 'PATCH', path: `/users/${target.id}`, params: ['role', 'profile_data'] },
    { method: 'PATCH', path: `/users/${target.id}`, params: ['full_name'] },
    {
      method: 'POST',
      path: '/bots',
      params: [
        'full_name',
        'short_name',
        'bot_type',
        'payload_url',
        'service_name',
        'config_data',
        'interface_type',
        'default_all_public_streams',
      ],
    },
    {
      method: 'POST',
      path: '/register',
      params: [
        'event_types',
        'narrow',
        'client_capabilities',
        'apply_markdown',
        'queue_lifespan_secs',
      ],
    },
    { method: 'GET', path: '/events', params: ['queue_id', 'last_event_id', 'dont_block'] },
    { method: 'DELETE', path: '/events', params: ['queue_id'] },
  ];

  function check(label: string, res: RawResponse): void {
    expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
    expectEnvelope(res);
  }

  function send(
    endpoint: Endpoint,
    value: string,
    encoding: Encoding,
    caller: Account,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = endpoint.anonymous
      ? {}
      : { authorization: authHeader(caller) };
    const entries = endpoint.params.map((name) => [name, encodeValue(value)]);
    let path = `/api/v1${endpoint.path}`;
    let body: string | FormData | undefined;
    if (encoding === 'query' || endpoint.method === 'GET') {
      path += `?${new URLSearchParams(entries).toString()}`;
    } else if (encoding === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(entries).toString();
    } else {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k!, v!);
      body = form;
    }
    return raw(t.url, endpoint.method, path, { headers, body });
  }

  // POST /fetch_api_key derives a password key for every garbage value, as for
  // any failed login (a login costs the same whether or not the account exists):
  // about 75 scrypt derivations, which take their time on a shared machine.
  it('bad values in every parameter of every endpoint, in every encoding', {
    timeout: 90_000,
  }, async () => {
    for (const endpoint of endpoints()) {
      for (const encoding of encodings) {
        const results = await Promise.all(
          garbageValues.map((value) => send(endpoint, value, encoding, t.accounts.admin)),
        );
        results.forEach((res, i) => {
          check(
            `${endpoint.method} ${endpoint.path} ${encoding} ${JSON.stringify(garbageValues[i])}`,
            res,
          );
        });
      }
    }
  });

  it('bad ids in every path that takes one', async () => {
    const templates = [
      ['GET', '/users/{}'],
      ['PATCH', '/users/{}'],
      ['DELETE', '/users/{}'],
      ['POST', '/users/{}/reactivate'],
    ];
    for (const [method, template] of templates) {
      for (const id of garbageIds) {
        const path = `/api/v1${template!.replace('{}', id)}`;
        const res = await raw(t.url, method!, path, {
          headers: { authorization: authHeader(t.accounts.owner) },
        });
        check(`${method} ${path}`, res);
        expect(res.status).not.toBe(200);
      }
    }
    const huge = await t.as('owner').get('/users/99999999999999999999');
    expectError(huge, 400, 'BAD_REQUEST', 'user_id is not an integer');
    const badEscape = await raw(t.url, 'GET', '/api/v1/users/%zz', {
      headers: { authorization: authHeader(t.accounts.owner) },
    });
    expect(badEscape.status).toBe(400);
    expect(badEscape.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('odd content types and bodies', async () => {
    const cases: [string, string | Buffer][] = [
      ['text/plain', 'full_name=Plain Text'],
      ['application/xml', '<full_name>x</full_name>'],
      ['application/octet-stream', Buffer.from([0, 1, 2, 255])],
      ['application/json', '[1, 2, 3]'],
      ['application/json', '"just a string"'],
      ['application/json', 'null'],
      ['application/json', '12345678901234567890'],
      ['application/json', '{"full_name": ["a", "b"], "role": {"x": 1}}'],
      ['application/json; charset=latin1', '{"role": 400}'],
      ['application/x-www-form-urlencoded', Buffer.from([0x66, 0x3d, 0xff, 0xfe, 0x00])],
      ['application/x-www-form-urlencoded', '%%%&&&===&role'],
      ['application/x-www-form-urlencoded; charset=utf-16', 'role=400'],
      ['multipart/mixed; boundary=XX', '--XX--'],
      ['multipart/form-data; boundary=', ''],
      ['foo', 'bar'],
      [';;;', 'x'],
      ['application/x-www-form-urlencoded', ''],
    ];
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const path =
        method === 'POST'
          ? '/api/v1/users'
          : method === 'PATCH'
            ? `/api/v1/users/${target.id}`
            : '/api/v1/users/999999';
      for (const [type, body] of cases) {
        const res = await raw(t.url, method, path, {
          headers: { authorization: authHeader(t.accounts.admin), 'content-type': type },
          body,
        });
        check(`${method} ${path} as ${type}`, res);
      }
    }
  });
});

describe('requests the HTTP parser rejects', () => {
  it('answers an oversized URL and garbage with the JSON envelope', async () => {
    const { request } = await import('node:http');
    const raw = (path: string, extra = '') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(t.url);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'GET',
            headers: extra ? { 'x-junk': extra } : {},
          },
          (res) => {
            let body = '';
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const long = await raw(`/api/v1/users?${'x'.repeat(20_000)}=1`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toMatchObject({ result: 'error', code: 'REQUEST_TOO_LARGE' });
  });
});
