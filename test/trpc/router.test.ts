import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zuliprcText } from '../../server/bootstrap.js';
import { Watcher } from '../helpers/event-queues.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from './client.js';

const TOKEN = 'test-admin-token-0123456789';

let t: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN });
  admin = trpcClient(t.url, bearer(TOKEN));
});
afterAll(() => t.close());

describe('read procedures answer what the HTTP API answers', () => {
  it('server.settings is GET /server_settings', async () => {
    const http = await t.anonymous().get('/server_settings');
    const { result: _r, msg: _m, ...expected } = http.body;
    expect(await admin.server.settings.query()).toEqual(expected);
  });

  it('users.list is GET /users as the owner', async () => {
    const http = await t.as('owner').get('/users', { client_gravatar: false });
    const list = await admin.users.list.query();
    expect(list.members).toEqual(http.body.members);
    expect(list.members.map((u) => u.email)).toContain('admin@example.com');
    const bot = list.members.find((u) => u.user_id === t.accounts.bot.id)!;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: t.accounts.member.id });
  });

  it('users.get is GET /users/{id}, bots and deactivated users included', async () => {
    for (const id of [t.accounts.guest.id, t.accounts.bot.id]) {
      const http = await t.as('owner').get(`/users/${id}`, { client_gravatar: false });
      expect(await admin.users.get.query({ userId: id })).toEqual(http.body.user);
    }
    const missing = await failure(admin.users.get.query({ userId: 999_999 }));
    expect(missing).toMatchObject({
      code: 'BAD_REQUEST',
      httpStatus: 400,
      message: 'No such user',
      zulip: { code: 'BAD_REQUEST', msg: 'No such user' },
    });
  });

  it('organization.info names the realm, its URL, its owner and the zuliprc once it exists', async () => {
    const before = await admin.organization.info.query();
    expect(before).toEqual({
      name: 'Test Org',
      url: t.url,
      emailDomain: 'test.hearth',
      ownerEmail: 'owner@example.com',
      ownerName: 'Olivia Owner',
      zuliprcPath: null,
    });
    const rc = path.join(t.dataDir, 'zuliprc');
    writeFileSync(rc, zuliprcText('owner@example.com', t.accounts.owner.apiKey, t.url));
    expect((await admin.organization.info.query()).zuliprcPath).toBe(rc);
  });

  it('batches several calls in one request', async () => {
    const [settings, info, list, one] = await Promise.all([
      admin.server.settings.query(),
      admin.organization.info.query(),
      admin.users.list.query(),
      admin.users.get.query({ userId: t.accounts.member.id }),
    ]);
    expect(settings.realm_name).toBe(info.name);
    expect(list.members.some((u) => u.user_id === one.user_id)).toBe(true);
  });
});

describe('write procedures go through the same actions as the HTTP API', () => {
  it('users.create makes an account visible over HTTP that can log in', async () => {
    const created = await admin.users.create.mutate({
      email: 'trpc.user@example.com',
      fullName: 'Trina Trpc',
      password: 'a long enough password',
    });
    expect(created).toEqual({ user_id: expect.any(Number) });
    const http = await t.as('admin').get('/users');
    expect(http.body.members).toContainEqual(
      expect.objectContaining({
        user_id: created.user_id,
        full_name: 'Trina Trpc',
        role: 400,
        is_active: true,
      }),
    );
    const login = await t.anonymous().post('/fetch_api_key', {
      username: 'trpc.user@example.com',
      password: 'a long enough password',
    });
    expect(login.status).toBe(200);
  });

  it('emits the realm_user event HTTP clients receive', async () => {
    const queue = await Watcher.register(t.as('member'), { event_types: ['realm_user'] });
    const { user_id } = await admin.users.create.mutate({
      email: 'evented@example.com',
      fullName: 'Eve Vented',
    });
    expect(await queue.take()).toContainEqual(
      expect.objectContaining({
        type: 'realm_user',
        op: 'add',
        person: expect.objectContaining({ user_id }),
      }),
    );
  });

  it('a duplicate e-mail fails with the message and code POST /users gives', async () => {
    const http = await t
      .as('owner')
      .post('/users', { email: 'member@example.com', password: 'x', full_name: 'Dup' });
    expect(http.status).toBe(400);
    const error = await failure(
      admin.users.create.mutate({ email: 'member@example.com', fullName: 'Dup', password: 'x' }),
    );
    expect(error).toEqual({
      message: http.body.msg,
      code: 'BAD_REQUEST',
      httpStatus: 400,
      zulip: { code: http.body.code, msg: http.body.msg },
      field: 'email',
    });
    expect(error.message).toBe("Email 'member@example.com' already in use");
  });

  it("users.update changes a user's name and role", async () => {
    const account = await t.createMember('Rolf Role');
    expect(
      await admin.users.update.mutate({ userId: account.id, role: 200, fullName: 'Rolf Admin' }),
    ).toEqual({});
    const http = await t.as('member').get(`/users/${account.id}`);
    expect(http.body.user).toMatchObject({ full_name: 'Rolf Admin', role: 200, is_admin: true });
  });

  it("the domain's rules apply: the only owner keeps the owner role", async () => {
    const error = await failure(
      admin.users.update.mutate({ userId: t.accounts.owner.id, role: 400 }),
    );
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The owner permission cannot be removed from the only organization owner.',
      zulip: { code: 'BAD_REQUEST' },
    });
    const badName = await failure(
      admin.users.update.mutate({ userId: t.accounts.member.id, fullName: 'x' }),
    );
    expect(badName.message).toBe('Name too short!');
  });

  it('users.deactivate and users.reactivate switch the account off and on', async () => {
    const account = await t.createMember('Dee Activated');
    expect(await admin.users.deactivate.mutate({ userId: account.id })).toEqual({});
    const off = await t.as(account).get('/users/me', {}, { skipSchema: true });
    expect(off.status).toBe(401);
    expect(off.body.code).toBe('USER_DEACTIVATED');
    expect((await t.as('owner').get(`/users/${account.id}`)).body.user.is_active).toBe(false);

    expect(await admin.users.reactivate.mutate({ userId: account.id })).toEqual({});
    expect((await t.as(account).get('/users/me')).status).toBe(200);
    const again = await failure(admin.users.reactivate.mutate({ userId: account.id }));
    expect(again.message).toBe('User is already active');
  });

  it('bots.create returns a working API key, the bot owned by the acting owner', async () => {
    const bot = await admin.bots.create.mutate({ fullName: 'Deploy Bot', shortName: 'deploy' });
    expect(bot.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    const me = await new ApiClient(t.url, {
      email: 'deploy-bot@test.hearth',
      apiKey: bot.api_key,
    }).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user_id: bot.user_id, is_bot: true, full_name: 'Deploy Bot' });
    const listed = await admin.users.get.query({ userId: bot.user_id });
    expect(listed).toMatchObject({ bot_type: 1, bot_owner_id: t.accounts.owner.id });

    const bad = await failure(
      admin.bots.create.mutate({ fullName: 'Bad', shortName: 'no spaces' }),
    );
    expect(bad).toMatchObject({ message: 'Bad name or username', code: 'BAD_REQUEST' });
  });

  it('rejects malformed input before any action runs, naming the field', async () => {
    const error = await failure(
      // @ts-expect-error: a string where the schema wants a number
      admin.users.deactivate.mutate({ userId: 'seven' }),
    );
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.zulip).toBeNull();
    expect(error.message).toMatch(/^userId: /);
  });
});

describe('the admin door', () => {
  it('refuses requests without credentials or with a wrong token', async () => {
    for (const auth of [undefined, bearer('wrong'), bearer(''), 'Token abc']) {
      const error = await failure(trpcClient(t.url, auth).users.list.query());
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
    }
    const raw = await fetch(`${t.url}/trpc/users.list`);
    expect(raw.status).toBe(401);
    const wrong = await fetch(`${t.url}/trpc/users.create`, {
      method: 'POST',
      headers: { authorization: bearer(`${TOKEN}x`), 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: 'sneaky@example.com', fullName: 'Sneaky' } }),
    });
    expect(wrong.status).toBe(401);
    const http = await t.as('owner').get('/users');
    expect(http.body.members.map((u: { email: string }) => u.email)).not.toContain(
      'sneaky@example.com',
    );
  });

  it("acts as the API key's user with Basic auth, under that user's permissions", async () => {
    const basic = (email: string, key: string) =>
      `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
    const member = trpcClient(t.url, basic(t.accounts.member.email, t.accounts.member.apiKey));
    const denied = await failure(
      member.users.create.mutate({ email: 'nope@example.com', fullName: 'Nope', password: 'x' }),
    );
    expect(denied).toMatchObject({
      message: 'Must be an organization administrator',
      code: 'BAD_REQUEST',
      zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' },
    });
    const info = await failure(member.organization.info.query());
    expect(info.zulip?.code).toBe('UNAUTHORIZED_PRINCIPAL');

    const mine = await member.bots.create.mutate({ fullName: 'Member Bot', shortName: 'mine' });
    expect((await admin.users.get.query({ userId: mine.user_id })).bot_owner_id).toBe(
      t.accounts.member.id,
    );

    const badKey = await failure(
      trpcClient(t.url, basic(t.accounts.member.email, 'x'.repeat(32))).users.list.query(),
    );
    expect(badKey).toMatchObject({
      code: 'UNAUTHORIZED',
      httpStatus: 401,
      zulip: { code: 'INVALID_API_KEY', msg: 'Invalid API key' },
    });
  });
});

describe('without an admin token', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain.close());

  it('/trpc and /admin/ answer 404 like any unknown route', async () => {
    for (const url of ['/trpc/users.list', '/trpc/server.settings?batch=1&input={}', '/admin/']) {
      const res = await fetch(plain.url + url, { headers: { authorization: bearer(TOKEN) } });
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({
        result: 'error',
        msg: 'Endpoint not found',
        code: 'NOT_FOUND',
      });
    }
    const post = await fetch(`${plain.url}/trpc/users.create`, {
      method: 'POST',
      headers: { authorization: bearer(TOKEN), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(404);
  });
});
