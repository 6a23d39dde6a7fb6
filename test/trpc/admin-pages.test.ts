/**
 * The procedures behind the admin UI's pages and its first-run wizard: each
 * does what the matching REST endpoint does, and its errors name the input
 * field they are about.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../../server/index.js';
import { notificationBot } from '../../server/users/index.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from './client.js';

const TOKEN = 'test-admin-token-0123456789';
const basic = (email: string, key: string) =>
  `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

let t: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN });
  admin = trpcClient(t.url, bearer(TOKEN));
});
afterAll(() => t.close());

describe('first-run setup', () => {
  let dataDir: string;
  let fresh: RunningServer;
  let client: AdminClient;
  const valid = {
    realmName: 'Lakeside',
    ownerName: 'Lara Lake',
    email: 'lara@example.net',
    password: 'lakeside password',
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-setup-'));
    fresh = await createServer({ dataDir, port: 0, rateLimit: false, adminToken: TOKEN });
    client = trpcClient(fresh.url, bearer(TOKEN));
  });
  afterAll(async () => {
    await fresh.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports that setup is needed, and other procedures wait for it', async () => {
    expect(await client.setup.status.query()).toEqual({ needsSetup: true });
    const early = await failure(client.users.list.query());
    expect(early).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'The organization has not been set up yet',
    });
    // Nobody can log in yet: the Basic door says why rather than failing inside.
    const basicEarly = await failure(
      trpcClient(fresh.url, basic('x@example.net', 'k'.repeat(32))).users.list.query(),
    );
    expect(basicEarly.httpStatus).toBeLessThan(500);
  });

  it.each([
    [{ realmName: '   ' }, 'realmName', 'Organization name is required'],
    [
      { realmName: 'x'.repeat(41) },
      'realmName',
      'Organization name is too long (at most 40 characters)',
    ],
    [{ ownerName: 'L' }, 'ownerName', 'Name too short!'],
    [{ ownerName: 'a*b' }, 'ownerName', 'Invalid characters in name!'],
    [{ email: 'lara' }, 'email', "Invalid email 'lara'"],
    // The password rule of every account (users/passwords.ts).
    [{ password: '12345' }, 'password', 'The password is too weak.'],
    [{ password: 'password1' }, 'password', 'The password is too weak.'],
    [{ password: 'lara@example.net' }, 'password', 'The password is too weak.'],
    [{ password: `${valid.password} `.repeat(6) }, 'password', 'The password is too weak.'],
  ])('refuses %o, naming the field', async (change, field, message) => {
    const error = await failure(client.setup.complete.mutate({ ...valid, ...change }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', field, message });
    expect(await client.setup.status.query()).toEqual({ needsSetup: true });
  });

  it('names a missing input field too', async () => {
    const { password: _, ...withoutPassword } = valid;
    // @ts-expect-error: the password is missing
    const error = await failure(client.setup.complete.mutate(withoutPassword));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', field: 'password', zulip: null });
  });

  it('creates the organization and owner, and writes their zuliprc', async () => {
    expect(existsSync(fresh.zuliprcPath)).toBe(false);
    const done = await client.setup.complete.mutate({ ...valid, realmName: '  Lakeside  ' });
    expect(done).toEqual({ ownerEmail: 'lara@example.net', zuliprcPath: fresh.zuliprcPath });
    expect(await client.setup.status.query()).toEqual({ needsSetup: false });
    const settings = await new ApiClient(fresh.url, null).get('/server_settings');
    expect(settings.body.realm_name).toBe('Lakeside');

    const login = await new ApiClient(fresh.url, null).post('/fetch_api_key', {
      username: valid.email,
      password: valid.password,
    });
    expect(login.status).toBe(200);
    const zuliprc = readFileSync(fresh.zuliprcPath, 'utf8');
    expect(zuliprc).toBe(
      `[api]\nemail=lara@example.net\nkey=${login.body.api_key}\nsite=${fresh.url}\n`,
    );
    const info = await client.organization.info.query();
    expect(info).toMatchObject({ name: 'Lakeside', ownerName: 'Lara Lake' });
    // Set up through the wizard, daily backups are on from the start.
    expect((await client.backup.list.query()).settings.enabled).toBe(true);
  });

  it('refuses a second setup', async () => {
    const again = await failure(client.setup.complete.mutate({ ...valid, email: 'b@example.net' }));
    expect(again).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The organization has already been set up',
    });
    const users = await client.users.list.query();
    expect(users.members.filter((u) => !u.is_bot)).toHaveLength(1);
  });
});

describe('errors name their field', () => {
  it('a duplicate e-mail is about the e-mail, a short name about the name', async () => {
    const duplicate = await failure(
      admin.users.create.mutate({ email: 'member@example.com', fullName: 'Dup', password: 'pw' }),
    );
    expect(duplicate).toMatchObject({
      field: 'email',
      message: "Email 'member@example.com' already in use",
    });
    const short = await failure(
      admin.users.create.mutate({ email: 'n@example.com', fullName: 'N', password: 'pw' }),
    );
    expect(short).toMatchObject({ field: 'fullName', message: 'Name too short!' });
  });

  it('an input of the wrong shape names its path', async () => {
    // @ts-expect-error: a number where a string belongs
    const error = await failure(admin.users.create.mutate({ email: 5, fullName: 'x' }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', field: 'email', zulip: null });
  });

  it('an error about no field names none', async () => {
    const error = await failure(admin.users.deactivate.mutate({ userId: 99_999 }));
    expect(error).toMatchObject({ field: null, message: 'No such user' });
  });
});

describe('users', () => {
  it('setPassword sets a password that logs in; owners only for owners', async () => {
    const weak = await failure(
      admin.users.setPassword.mutate({ userId: t.accounts.member.id, password: 'abc' }),
    );
    expect(weak).toMatchObject({ field: 'password', message: 'New password is too weak!' });
    await admin.users.setPassword.mutate({ userId: t.accounts.member.id, password: 'new secret' });
    const login = await t.anonymous().post('/fetch_api_key', {
      username: t.accounts.member.email,
      password: 'new secret',
    });
    expect(login.status).toBe(200);

    const asAdmin = trpcClient(t.url, basic(t.accounts.admin.email, t.accounts.admin.apiKey));
    const denied = await failure(
      asAdmin.users.setPassword.mutate({ userId: t.accounts.owner.id, password: 'takeover!' }),
    );
    expect(denied.zulip?.msg).toBe('Must be an organization owner');
    const asMember = trpcClient(t.url, basic(t.accounts.member.email, t.accounts.member.apiKey));
    const member = await failure(
      asMember.users.setPassword.mutate({ userId: t.accounts.guest.id, password: 'whatever' }),
    );
    expect(member.zulip?.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });

  it('regenerateApiKey replaces a person’s key at once', async () => {
    const person = await t.createMember('Kay Key');
    const { api_key } = await admin.users.regenerateApiKey.mutate({ userId: person.id });
    expect(api_key).not.toBe(person.apiKey);
    expect((await t.as(person).get('/users/me')).status).toBe(401);
    const fresh = new ApiClient(t.url, { email: person.email, apiKey: api_key });
    expect((await fresh.get('/users/me')).body.full_name).toBe('Kay Key');
  });

  it('zuliprc gives working credentials; administrators get bots’ but not people’s', async () => {
    const { text } = await admin.users.zuliprc.query({ userId: t.accounts.guest.id });
    expect(text).toBe(
      `[api]\nemail=guest@example.com\nkey=${t.accounts.guest.apiKey}\nsite=${t.url}\n`,
    );
    const asAdmin = trpcClient(t.url, basic(t.accounts.admin.email, t.accounts.admin.apiKey));
    const denied = await failure(asAdmin.users.zuliprc.query({ userId: t.accounts.guest.id }));
    expect(denied.zulip?.msg).toBe('Insufficient permission');
    const bot = await asAdmin.users.zuliprc.query({ userId: t.accounts.bot.id });
    expect(bot.text).toContain(`key=${t.accounts.bot.apiKey}`);
    const own = await asAdmin.users.zuliprc.query({ userId: t.accounts.admin.id });
    expect(own.text).toContain(`key=${t.accounts.admin.apiKey}`);
  });

  it('refuses to change the Notification Bot’s role, here and over REST', async () => {
    const ctx = t.server.ctx;
    const bot = ctx.transaction((tx) => notificationBot(ctx, tx));
    const error = await failure(admin.users.update.mutate({ userId: bot.id, role: 200 }));
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The role of a system bot cannot be changed',
    });
    const rest = await t.as('owner').patch(`/users/${bot.id}`, { role: 200 });
    expect(rest.status).toBe(400);
    expect(rest.body.msg).toBe('The role of a system bot cannot be changed');
    expect((await t.as('owner').get(`/users/${bot.id}`)).body.user.role).toBe(400);
    // Nobody holds its credentials either.
    const zuliprc = await failure(admin.users.zuliprc.query({ userId: bot.id }));
    expect(zuliprc.zulip?.msg).toBe('Insufficient permission');
  });
});

describe('organization, bots, channels, status', () => {
  it('organization.update is PATCH /realm; settings reads it back', async () => {
    await admin.organization.update.mutate({
      description: 'New words',
      enable_read_receipts: true,
    });
    const settings = await admin.organization.settings.query();
    expect(settings).toMatchObject({
      name: 'Test Org',
      description: 'New words',
      enable_read_receipts: true,
      limits: { name: 40, description: 1000 },
    });
    const empty = await failure(admin.organization.update.mutate({ name: ' ' }));
    expect(empty).toMatchObject({ field: 'name', message: "Organization name can't be empty." });
  });

  it('bots.list has every bot with its key; regenerate and deactivate work', async () => {
    const bots = await admin.bots.list.query();
    const test = bots.find((b) => b.user_id === t.accounts.bot.id)!;
    expect(test.api_key).toBe(t.accounts.bot.apiKey);
    const { api_key } = await admin.bots.regenerateApiKey.mutate({ botId: test.user_id });
    expect((await t.as('bot').get('/users/me')).status).toBe(401);
    await admin.bots.deactivate.mutate({ botId: test.user_id });
    const after = await t.as('owner').get(`/users/${test.user_id}`);
    expect(after.body.user.is_active).toBe(false);
    expect(api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    await admin.users.reactivate.mutate({ userId: test.user_id });
  });

  it('channels: create, rename, privacy, members, archive', async () => {
    const { id } = await admin.channels.create.mutate({
      name: 'garden',
      description: 'Plants',
      subscribers: [t.accounts.owner.id],
    });
    const dup = await failure(admin.channels.create.mutate({ name: 'garden' }));
    expect(dup.field).toBe('name');

    await admin.channels.addMembers.mutate({ channelId: id, userIds: [t.accounts.member.id] });
    expect((await t.as('owner').get(`/streams/${id}/members`)).body.subscribers).toEqual(
      expect.arrayContaining([t.accounts.owner.id, t.accounts.member.id]),
    );
    await admin.channels.removeMembers.mutate({ channelId: id, userIds: [t.accounts.member.id] });
    expect((await admin.channels.members.query({ channelId: id })).subscribers).toEqual([
      t.accounts.owner.id,
    ]);

    await admin.channels.update.mutate({ channelId: id, newName: 'greenhouse', isPrivate: true });
    const listed = (await admin.channels.list.query()).streams.find(
      (s) => (s as { stream_id: number }).stream_id === id,
    );
    expect(listed).toMatchObject({ name: 'greenhouse', invite_only: true });

    await admin.channels.archive.mutate({ channelId: id });
    const again = await failure(admin.channels.archive.mutate({ channelId: id }));
    expect(again.message).toBe('Channel is already deactivated');
  });

  it('groups: create, rename, members, deactivate and reactivate', async () => {
    const { group_id } = await admin.groups.create.mutate({
      name: 'gardeners',
      members: [t.accounts.member.id],
    });
    const dup = await failure(admin.groups.create.mutate({ name: 'gardeners' }));
    expect(dup).toMatchObject({ field: 'name', code: 'BAD_REQUEST' });
    await admin.groups.updateMembers.mutate({
      groupId: group_id,
      add: [t.accounts.guest.id],
      delete: [t.accounts.member.id],
    });
    await admin.groups.update.mutate({ groupId: group_id, name: 'growers', description: 'Soil' });
    const rest = async () =>
      (
        await t.as('owner').get('/user_groups', { include_deactivated_groups: true })
      ).body.user_groups.find((g: { id: number }) => g.id === group_id);
    expect(await rest()).toMatchObject({
      name: 'growers',
      description: 'Soil',
      members: [t.accounts.guest.id],
      deactivated: false,
    });
    await admin.groups.deactivate.mutate({ groupId: group_id });
    expect((await rest()).deactivated).toBe(true);
    await admin.groups.reactivate.mutate({ groupId: group_id });
    expect((await rest()).deactivated).toBe(false);
    const listed = await admin.groups.list.query();
    expect(listed.some((g) => g.is_system_group)).toBe(true);
  });

  it('profile fields: create, update, reorder, delete; refusals name their field', async () => {
    const noName = await failure(admin.profileFields.create.mutate({ name: '', fieldType: 1 }));
    expect(noName).toMatchObject({ code: 'BAD_REQUEST', field: 'name' });
    const a = await admin.profileFields.create.mutate({ name: 'Floor', fieldType: 1 });
    const b = await admin.profileFields.create.mutate({
      name: 'Shift',
      fieldType: 3,
      fieldData: { early: { text: 'Early', order: '1' }, late: { text: 'Late', order: '2' } },
    });
    await admin.profileFields.update.mutate({ fieldId: a.id, hint: 'Which floor' });
    await admin.profileFields.reorder.mutate({ order: [b.id, a.id] });
    const rest = (await t.as('member').get('/realm/profile_fields')).body.custom_fields;
    expect(rest.map((f: { name: string }) => f.name)).toEqual(['Shift', 'Floor']);
    expect(rest[1]).toMatchObject({ hint: 'Which floor' });
    await admin.profileFields.delete.mutate({ fieldId: a.id });
    expect((await admin.profileFields.list.query()).map((f) => f.id)).toEqual([b.id]);
  });

  it('server.status counts what the database holds', async () => {
    const status = await admin.server.status.query();
    const humans = (await t.as('owner').get('/users')).body.members.filter(
      (u: { is_bot: boolean; is_active: boolean }) => !u.is_bot && u.is_active,
    ).length;
    expect(status).toMatchObject({ url: t.url, active_humans: humans });
    expect(status.databaseBytes).toBeGreaterThan(0);
    expect(status.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const before = status.eventQueues;
    await t.as('member').post('/register', {});
    expect((await admin.server.status.query()).eventQueues).toBe(before + 1);
  });
});
