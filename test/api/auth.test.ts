/**
 * HTTP Basic authentication with the API e-mail and key, and how stored
 * credentials look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRealmDeactivated } from '../../server/db/queries/realm.js';
import { setUserSettings, userById } from '../../server/db/queries/users.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  ApiClient,
  basicAuth,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { API_KEY, expectError, raw } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

const client = (email: string, apiKey: string) => new ApiClient(t.url, { email, apiKey });

function expectInvalidKey(res: { status: number; headers: Headers; body: unknown }): void {
  expectError(res as never, 401, 'INVALID_API_KEY', 'Invalid API key');
  expect(res.headers.get('www-authenticate')).toBeNull();
}

describe('missing credentials', () => {
  it.each([
    ['GET', '/users/me'],
    ['GET', '/users'],
    ['POST', '/users'],
    ['PATCH', '/users/1'],
    ['DELETE', '/users/1'],
    ['POST', '/bots'],
    ['POST', '/register'],
  ])('%s %s answers 401 UNAUTHORIZED with a Basic challenge', async (method, path) => {
    const res = await t.anonymous().request(method, path);
    expectError(res, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('is checked before parameters', async () => {
    const res = await t.anonymous().get('/users', { client_gravatar: 'nonsense' });
    expectError(res, 401, 'UNAUTHORIZED', NOT_LOGGED_IN);
  });
});

describe('invalid credentials', () => {
  it('a wrong key is INVALID_API_KEY, 401, without a challenge', async () => {
    const owner = t.accounts.owner;
    expectInvalidKey(await client(owner.email, 'A'.repeat(32)).get('/users/me'));
    // A key that is not 32 letters and digits is "Malformed API key" (Zulip's InvalidAPIKeyFormatError).
    for (const key of [`${owner.apiKey}x`, owner.apiKey.slice(1), `${owner.apiKey.slice(1)}-`]) {
      const res = await client(owner.email, key).get('/users/me');
      expectError(res as never, 401, 'INVALID_API_KEY', 'Malformed API key');
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
    const empty = await client(owner.email, '').get('/users/me');
    expectError(empty as never, 401, 'INVALID_API_KEY', 'Malformed API key');
  });

  it("the right key with someone else's or no e-mail is an invalid key", async () => {
    const { owner, member } = t.accounts;
    expectInvalidKey(await client(member.email, owner.apiKey).get('/users/me'));
    expectInvalidKey(await client('nobody@example.com', owner.apiKey).get('/users/me'));
    expectInvalidKey(await client('', owner.apiKey).get('/users/me'));
  });

  it('the e-mail is compared case-insensitively and trimmed', async () => {
    const { member } = t.accounts;
    const res = await client(` ${member.email.toUpperCase()} `, member.apiKey).get('/users/me');
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(member.id);
  });

  it('a scheme other than Basic is a 400 JSON error', async () => {
    for (const header of ['Bearer abcdef', 'Digest username="x"', 'Token x:y', 'abc']) {
      const res = await raw(t.url, 'GET', '/api/v1/users/me', {
        headers: { authorization: header },
      });
      expectError(res, 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
    }
  });

  it('an unreadable Basic header is 401 UNAUTHORIZED with a challenge', async () => {
    const headers = [
      'Basic',
      'Basic !!!not-base64!!!',
      'Basic ab$cd',
      `Basic ${Buffer.from('no colon here').toString('base64')}`,
      `Basic ${Buffer.from('a:b').toString('base64')} extra`,
    ];
    for (const header of headers) {
      const res = await raw(t.url, 'GET', '/api/v1/users/me', {
        headers: { authorization: header },
      });
      expectError(res, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    }
  });

  it('the scheme name is case-insensitive', async () => {
    const { member } = t.accounts;
    const header = basicAuth(member.email, member.apiKey).replace('Basic', 'bAsIc');
    const res = await raw(t.url, 'GET', '/api/v1/users/me', { headers: { authorization: header } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(member.id);
  });
});

describe('deactivation', () => {
  it('a deactivated user gets USER_DEACTIVATED until reactivated', async () => {
    const user = await quickMember(t, 'Dee Activated');
    expect((await t.as(user).get('/users/me')).status).toBe(200);
    expect((await t.as('admin').delete(`/users/${user.id}`)).status).toBe(200);
    for (const res of [
      await t.as(user).get('/users/me'),
      await t.as(user).get('/users'),
      await t.as(user).post('/bots', { full_name: 'Zombie Bot', short_name: 'zombie' }),
    ]) {
      expectError(res, 401, 'USER_DEACTIVATED', 'Account is deactivated');
    }
    expect((await t.as('admin').post(`/users/${user.id}/reactivate`)).status).toBe(200);
    expect((await t.as(user).get('/users/me')).status).toBe(200);
  });

  it('a wrong key for a deactivated user is still just an invalid key', async () => {
    const user = await quickMember(t, 'Dee Twice');
    await t.as('admin').delete(`/users/${user.id}`);
    expectInvalidKey(await client(user.email, 'B'.repeat(32)).get('/users/me'));
  });

  it('a deactivated organization gets REALM_DEACTIVATED', async () => {
    const { db } = t.server.ctx;
    setRealmDeactivated(db, true);
    try {
      for (const who of ['owner', 'member', 'bot'] as const) {
        expectError(
          await t.as(who).get('/users/me'),
          401,
          'REALM_DEACTIVATED',
          'This organization is deactivated',
        );
      }
      // Credentials are checked first: a wrong key is still an invalid key.
      expectInvalidKey(await client(t.accounts.owner.email, 'C'.repeat(32)).get('/users/me'));
    } finally {
      setRealmDeactivated(db, false);
    }
    expect((await t.as('member').get('/users/me')).status).toBe(200);
  });
});

describe('which e-mail works as the Basic username', () => {
  let hidden: Account;
  beforeAll(async () => {
    hidden = await quickMember(t, 'Hidden Hannah');
    setUserSettings(t.server.ctx.db, hidden.id, JSON.stringify({ email_address_visibility: 3 }));
  });

  it('a user with a hidden address may use the placeholder or the real address', async () => {
    const placeholder = `user${hidden.id}@test.hearth`;
    const seen = await t.as('member').get(`/users/${hidden.id}`);
    expect(seen.body.user.email).toBe(placeholder);
    for (const email of [placeholder, hidden.email, placeholder.toUpperCase()]) {
      const res = await client(email, hidden.apiKey).get('/users/me');
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(hidden.id);
      expect(res.body.email).toBe(placeholder);
      expect(res.body.delivery_email).toBe(hidden.email);
    }
  });

  it("another user's placeholder does not work", async () => {
    const other = `user${t.accounts.member.id}@test.hearth`;
    expectInvalidKey(await client(other, hidden.apiKey).get('/users/me'));
    const neighbour = `user${hidden.id + 1}@test.hearth`;
    expectInvalidKey(await client(neighbour, hidden.apiKey).get('/users/me'));
  });

  it('a visible user may not use a placeholder', async () => {
    const { member } = t.accounts;
    expectInvalidKey(await client(`user${member.id}@test.hearth`, member.apiKey).get('/users/me'));
  });

  it('bots authenticate with their bot address', async () => {
    const { bot } = t.accounts;
    expect(bot.email).toBe('test-bot@test.hearth');
    const res = await t.as('bot').get('/users/me');
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(bot.id);
    expect(res.body.is_bot).toBe(true);
  });
});

describe('stored credentials', () => {
  it('passwords are stored as scrypt hashes, never in clear', async () => {
    const created = await t.as('admin').post('/users', {
      email: 'hashed@example.com',
      password: 'plain text password',
      full_name: 'Hash Brown',
    });
    expect(created.status).toBe(200);
    for (const id of [t.accounts.owner.id, t.accounts.member.id, created.body.user_id]) {
      const row = userById(t.server.ctx.db, id)!;
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(FIXTURE_PASSWORD);
      expect(row.password_hash).not.toContain('plain text password');
    }
    const a = userById(t.server.ctx.db, t.accounts.owner.id)!.password_hash;
    const b = userById(t.server.ctx.db, t.accounts.member.id)!.password_hash;
    expect(a).not.toBe(b); // salted: the same password hashes differently
    expect(userById(t.server.ctx.db, t.accounts.bot.id)!.password_hash).toBeNull();
    // ...and the stored hash is what the password check uses.
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'hashed@example.com', password: 'plain text password' });
    expect(login.status).toBe(200);
  });

  it('API keys are 32 alphanumeric characters and distinct', async () => {
    const keys = Object.values(t.accounts).map((a) => a.apiKey);
    for (const key of keys) expect(key).toMatch(API_KEY);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
