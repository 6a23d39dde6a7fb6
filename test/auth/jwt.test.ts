/**
 * POST /jwt/fetch_api_key: a token signed (HS256) with the organization's
 * JWT key, whose `email` claim names an account, is exchanged for that
 * account's API key. The key is set by an owner (tRPC organization.setJwtKey,
 * or the command line, see cli.test.ts).
 */
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRealmDeactivated } from '../../server/db/queries/realm.js';
import { setUserSettings } from '../../server/db/queries/users.js';
import { expectError } from '../api/support.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  ApiClient,
  basicAuth,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from '../trpc/client.js';

const TOKEN = 'jwt-test-admin-token';
const KEY = 'hearth-jwt-test-key-0123456789abcdef';
/** Long past, so a token valid by the server's clock is long expired by the real one. */
const NOW = Date.UTC(2021, 5, 1, 12, 0, 0);
const NOW_S = Math.floor(NOW / 1000);

const BAD_TOKEN = 'Bad JSON web token';
const INCORRECT = 'Your username or password is incorrect';

let t: TestServer;
let admin: AdminClient;
/** Bots of types 2, 3 and 4 (the fixture bot is type 1). */
const botsByType: Record<number, Account> = {};

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN, now: () => NOW });
  admin = trpcClient(t.url, bearer(TOKEN));
  for (const [type, extra] of [
    [2, {}],
    [3, { payload_url: JSON.stringify('https://hooks.example.com/out') }],
    [4, { service_name: 'helloworld' }],
  ] as const) {
    const res = await t.as('member').post('/bots', {
      full_name: `Type ${type} Bot`,
      short_name: `jwt-type${type}`,
      bot_type: type,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    botsByType[type] = {
      id: res.body.user_id,
      email: `jwt-type${type}-bot@test.hearth`,
      apiKey: res.body.api_key,
      password: null,
    };
  }
});
afterAll(() => t.close());

const encoder = new TextEncoder();
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed with `key` (default: the organization's) and `alg` (default HS256). */
function sign(claims: Record<string, unknown>, opts: { key?: string; alg?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .sign(encoder.encode(opts.key ?? KEY));
}

/** A valid token for `email`, expiring a minute from the server's now. */
const tokenFor = (email: string) => sign({ email, exp: NOW_S + 60 });

const exchange = (token: string, extra: Record<string, unknown> = {}) =>
  t.anonymous().post('/jwt/fetch_api_key', { token, ...extra });

const setKey = (key: string | null) => admin.organization.setJwtKey.mutate({ key });

describe('without a key', () => {
  it('is disabled with a clear error', async () => {
    expectError(
      await exchange(await tokenFor(t.accounts.member.email)),
      400,
      'BAD_REQUEST',
      'JWT authentication is not enabled for this organization',
    );
    // Whatever the token: nothing is checked before the key.
    expectError(
      await exchange('garbage'),
      400,
      'BAD_REQUEST',
      'JWT authentication is not enabled for this organization',
    );
  });
});

describe('with the organization key', () => {
  beforeAll(async () => {
    expect(await setKey(KEY)).toEqual({ jwt_enabled: true });
  });

  it.each(['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as FixtureName[])(
    'gives %s their API key, which authenticates',
    async (who) => {
      const account = t.accounts[who];
      const res = await exchange(await tokenFor(account.email));
      expect(res.body).toEqual({
        result: 'success',
        msg: '',
        api_key: account.apiKey,
        email: account.email,
      });
      const me = await new ApiClient(t.url, {
        email: res.body.email,
        apiKey: res.body.api_key,
      }).get('/users/me');
      expect(me.body.user_id).toBe(account.id);
    },
  );

  it.each([2, 3, 4])('gives a bot of type %i its API key', async (type) => {
    const bot = botsByType[type]!;
    const res = await exchange(await tokenFor(bot.email));
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: bot.apiKey, email: bot.email });
  });

  it.each(['owner', 'guest', 'bot'] as FixtureName[])(
    'include_profile adds the User object GET /users/{id} gives %s',
    async (who) => {
      const account = t.accounts[who];
      const res = await exchange(await tokenFor(account.email), { include_profile: true });
      expect(res.status).toBe(200);
      const self = await t.as(who).get(`/users/${account.id}`, { client_gravatar: false });
      expect(res.body.user).toEqual(self.body.user);
      expect(Object.keys(res.body).sort()).toEqual(['api_key', 'email', 'msg', 'result', 'user']);
      const without = await exchange(await tokenFor(account.email), { include_profile: false });
      expect(without.body.user).toBeUndefined();
    },
  );

  it('include_profile must be a boolean', async () => {
    expectError(
      await exchange(await tokenFor(t.accounts.member.email), { include_profile: 1 }),
      400,
      'BAD_REQUEST',
      'include_profile is not a boolean',
    );
  });

  it('matches the real address in any case; a hidden one answers with the placeholder', async () => {
    const hidden = await quickMember(t, 'Hidden Address');
    setUserSettings(t.server.ctx.db, hidden.id, JSON.stringify({ email_address_visibility: 4 }));
    const res = await exchange(await tokenFor(hidden.email.toUpperCase()));
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      api_key: hidden.apiKey,
      email: `user${hidden.id}@test.hearth`,
    });
    const me = await new ApiClient(t.url, { email: res.body.email, apiKey: res.body.api_key }).get(
      '/users/me',
    );
    expect(me.body.user_id).toBe(hidden.id);
    // The placeholder is no real address: it names no account.
    expectError(
      await exchange(await tokenFor(`user${hidden.id}@test.hearth`)),
      401,
      'AUTHENTICATION_FAILED',
      INCORRECT,
    );
  });

  it('does not read Basic credentials, right or wrong', async () => {
    const { member } = t.accounts;
    const token = await tokenFor(member.email);
    const wrong = new ApiClient(t.url, { email: 'nobody@example.com', apiKey: 'x'.repeat(32) });
    expect((await wrong.post('/jwt/fetch_api_key', { token })).body.api_key).toBe(member.apiKey);
    const other = await t.as('owner').post('/jwt/fetch_api_key', { token });
    expect(other.body.api_key).toBe(member.apiKey);
  });

  it('answers the current key after a regeneration', async () => {
    const user = await quickMember(t, 'Key Rotator');
    const regenerated = await t.as(user).post('/users/me/api_key/regenerate');
    expect(regenerated.status).toBe(200);
    const res = await exchange(await tokenFor(user.email));
    expect(res.body.api_key).toBe(regenerated.body.api_key);
    expect(res.body.api_key).not.toBe(user.apiKey);
  });

  it('refuses a deactivated account, person or bot, until it is reactivated', async () => {
    const user = await quickMember(t, 'Gone Soon');
    await t.as('admin').delete(`/users/${user.id}`);
    expectError(
      await exchange(await tokenFor(user.email)),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    await t.as('admin').post(`/users/${user.id}/reactivate`);
    expect((await exchange(await tokenFor(user.email))).body.api_key).toBe(user.apiKey);

    const bot = botsByType[2]!;
    expect((await t.as('member').delete(`/bots/${bot.id}`)).status).toBe(200);
    expectError(
      await exchange(await tokenFor(bot.email)),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    expect((await t.as('member').post(`/users/${bot.id}/reactivate`)).status).toBe(200);
    expect((await exchange(await tokenFor(bot.email))).status).toBe(200);
  });

  it('refuses everyone while the organization is deactivated', async () => {
    const token = await tokenFor(t.accounts.owner.email);
    setRealmDeactivated(t.server.ctx.db, true);
    try {
      expectError(
        await exchange(token),
        401,
        'REALM_DEACTIVATED',
        'This organization is deactivated',
      );
    } finally {
      setRealmDeactivated(t.server.ctx.db, false);
    }
    expect((await exchange(token)).status).toBe(200);
  });

  it('an address no account has is answered as a wrong password', async () => {
    for (const email of ['nobody@example.com', '', 42, true, ['member@example.com']]) {
      expectError(
        await exchange(await sign({ email, exp: NOW_S + 60 })),
        401,
        'AUTHENTICATION_FAILED',
        INCORRECT,
      );
    }
  });

  it('a token without an email claim is refused', async () => {
    for (const claims of [{}, { email: null }, { sub: 'member@example.com' }]) {
      expectError(
        await exchange(await sign(claims)),
        400,
        'BAD_REQUEST',
        'No email specified in JSON web token claims',
      );
    }
  });

  it('token is required and may not be empty', async () => {
    // Zulip's token defaults to "": a missing one is refused as an empty one.
    expectError(
      await t.anonymous().post('/jwt/fetch_api_key', { include_profile: true }),
      400,
      'BAD_REQUEST',
      'No JSON web token passed in request',
    );
    expectError(await exchange(''), 400, 'BAD_REQUEST', 'No JSON web token passed in request');
  });

  it('is POST only', async () => {
    const token = await tokenFor(t.accounts.member.email);
    expectError(
      await t.anonymous().get('/jwt/fetch_api_key', { token }),
      404,
      'NOT_FOUND',
      'Endpoint not found',
    );
  });

  it('checks exp and nbf with the server clock', async () => {
    const email = t.accounts.member.email;
    // Valid by the server's clock (2021), long expired by the real one.
    expect((await exchange(await sign({ email, exp: NOW_S + 1 }))).status).toBe(200);
    // A token without exp does not expire (Zulip's tokens usually have none).
    expect((await exchange(await sign({ email }))).status).toBe(200);
    expect((await exchange(await sign({ email, nbf: NOW_S, exp: NOW_S + 5 }))).status).toBe(200);
    for (const claims of [
      { email, exp: NOW_S },
      { email, exp: NOW_S - 1 },
      { email, exp: NOW_S - 3600 },
      { email, nbf: NOW_S + 60 },
      { email, exp: 'tomorrow' },
      { email, nbf: 'now' },
      { email, iat: 'today' },
    ]) {
      expectError(await exchange(await sign(claims)), 400, 'BAD_REQUEST', BAD_TOKEN);
    }
  });

  it('accepts HS256 only: none, other HMACs and public-key algorithms are refused', async () => {
    const claims = { email: t.accounts.owner.email, exp: NOW_S + 60 };
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    const valid = await sign(claims);
    const [, , signature] = valid.split('.');
    const noneWithSignature = `${b64url({ alg: 'none' })}.${b64url(claims)}.${signature}`;
    const { privateKey } = await generateKeyPair('RS256');
    const rs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    const { privateKey: ecKey } = await generateKeyPair('ES256');
    const es256 = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(ecKey);
    const tokens = [
      unsigned,
      noneWithSignature,
      `${b64url({ alg: 'NONE' })}.${b64url(claims)}.`,
      await sign(claims, { alg: 'HS384' }),
      await sign(claims, { alg: 'HS512' }),
      rs256,
      es256,
    ];
    for (const token of tokens) {
      expectError(await exchange(token), 400, 'BAD_REQUEST', BAD_TOKEN);
    }
    expect((await exchange(valid)).body.api_key).toBe(t.accounts.owner.apiKey);
  });

  it('checks the signature', async () => {
    const claims = { email: t.accounts.member.email, exp: NOW_S + 60 };
    const valid = await sign(claims);
    const [header, , signature] = valid.split('.');
    const forged = `${header}.${b64url({ ...claims, email: t.accounts.owner.email })}.${signature}`;
    const tokens = [
      await sign(claims, { key: `${KEY}x` }),
      await sign(claims, { key: 'another-key-of-the-right-length-0123456789' }),
      forged,
      `${valid.slice(0, -2)}AA`,
      `${header}.${b64url(claims)}.`,
    ];
    for (const token of tokens) {
      expectError(await exchange(token), 400, 'BAD_REQUEST', BAD_TOKEN);
    }
  });

  it('refuses what is no signed JWT at all', async () => {
    const claims = { email: t.accounts.member.email };
    for (const token of [
      'not-a-jwt',
      'a.b.c',
      'a.b',
      'a.b.c.d.e',
      `${b64url({ alg: 'HS256' })}.${b64url(claims)}`,
      `${b64url({ alg: 'HS256' })}.not-json.${b64url('x')}`,
      `${b64url({ alg: 'HS256', crit: ['exp'] })}.${b64url(claims)}.x`,
      ' ',
      '\u0000',
      'é'.repeat(50),
    ]) {
      expectError(await exchange(token), 400, 'BAD_REQUEST', BAD_TOKEN);
    }
  });

  it('a token signed with a replaced key stops working', async () => {
    const oldToken = await tokenFor(t.accounts.member.email);
    const newKey = 'a-brand-new-organization-key-0123456789';
    await setKey(newKey);
    try {
      expectError(await exchange(oldToken), 400, 'BAD_REQUEST', BAD_TOKEN);
      const fresh = await sign({ email: t.accounts.member.email }, { key: newKey });
      expect((await exchange(fresh)).status).toBe(200);
    } finally {
      await setKey(KEY);
    }
    expect((await exchange(oldToken)).status).toBe(200);
  });
});

describe('organization.setJwtKey', () => {
  const asUser = (account: Account) => trpcClient(t.url, basicAuth(account.email, account.apiKey));

  it.each(['admin', 'moderator', 'member', 'guest', 'bot'] as FixtureName[])(
    'is refused to %s',
    async (who) => {
      const error = await failure(
        asUser(t.accounts[who]).organization.setJwtKey.mutate({ key: 'x'.repeat(40) }),
      );
      expect(error).toMatchObject({
        code: 'BAD_REQUEST',
        httpStatus: 400,
        message: 'Must be an organization owner',
        zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' },
      });
      // The key is unchanged.
      expect((await exchange(await tokenFor(t.accounts.member.email))).status).toBe(200);
    },
  );

  it('is open to an owner authenticating with their API key', async () => {
    const owner = asUser(t.accounts.owner);
    const key = 'the-owner-sets-this-key-over-trpc-0123';
    expect(await owner.organization.setJwtKey.mutate({ key })).toEqual({ jwt_enabled: true });
    expect((await exchange(await sign({ email: t.accounts.member.email }, { key }))).status).toBe(
      200,
    );
    await setKey(KEY);
  });

  it('refuses keys too short, too long or blank', async () => {
    for (const [key, message] of [
      ['', 'The JWT key must not be empty'],
      [' '.repeat(40), 'The JWT key must not be empty'],
      ['x'.repeat(31), 'The JWT key must be at least 32 bytes long'],
      ['é'.repeat(15), 'The JWT key must be at least 32 bytes long'],
      ['x'.repeat(1025), 'The JWT key must be at most 1024 bytes long'],
    ] as const) {
      const error = await failure(setKey(key));
      expect(error).toMatchObject({ code: 'BAD_REQUEST', message, zulip: { code: 'BAD_REQUEST' } });
    }
    // 32 bytes in 16 two-byte characters are enough.
    expect(await setKey('é'.repeat(16))).toEqual({ jwt_enabled: true });
    await setKey(KEY);
    expect((await exchange(await tokenFor(t.accounts.member.email))).status).toBe(200);
  });

  it('null removes the key and turns JWT login off', async () => {
    expect(await setKey(null)).toEqual({ jwt_enabled: false });
    expectError(
      await exchange(await tokenFor(t.accounts.member.email)),
      400,
      'BAD_REQUEST',
      'JWT authentication is not enabled for this organization',
    );
    await setKey(KEY);
  });
});
