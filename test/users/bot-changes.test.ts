/**
 * PATCH /bots/{bot_id}: what each field changes, the answer, and every
 * refusal (checked before anything is written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../server/shared/roles.js';
import { expectError } from '../api/support.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN_REQUIRED, deactivatedMember, makeBot, OWNER_REQUIRED } from './support.js';

let t: TestServer;
let other: Account;
let privateId = 0;

beforeAll(async () => {
  t = await startTestServer();
  other = await quickMember(t, 'Otto Other');
  createChannel(t, { name: 'town square', subscribers: [t.accounts.member.id] });
  privateId = createChannel(t, {
    name: 'vault',
    private: true,
    subscribers: [t.accounts.admin.id],
  });
});
afterAll(() => t.close());

const userOf = async (id: number) => (await t.as('owner').get(`/users/${id}`)).body.user;

/** The member's bot as realm_bots in POST /register shows it to `who`. */
async function botRecord(who: 'member' | 'owner', botId: number) {
  const res = await t.as(who).post('/register', { fetch_event_types: ['realm_bot'] });
  return res.body.realm_bots.find((b: { user_id: number }) => b.user_id === botId);
}

const patch = (
  botId: number,
  params: Record<string, unknown>,
  who: 'member' | 'admin' | 'owner' = 'member',
) => t.as(who).patch(`/bots/${botId}`, params);

describe('the answer', () => {
  it("echoes the bot's settings and its owner's e-mail", async () => {
    const bot = await makeBot(t, 'member', 'Answer Bot');
    const res = await patch(bot.id, { full_name: 'Answered Bot' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      full_name: 'Answered Bot',
      avatar_url: expect.stringMatching(/^\/user_avatars\/\d+\.png\?version=\d+$/),
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      bot_owner: t.accounts.member.email,
    });
  });

  it('an empty request changes nothing and succeeds', async () => {
    const bot = await makeBot(t, 'member', 'Idle Bot');
    const res = await patch(bot.id, {});
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBe('Idle Bot');
  });
});

describe('full_name', () => {
  it('follows the full-name rules', async () => {
    const bot = await makeBot(t, 'member', 'Rules Bot');
    for (const [name, msg] of [
      ['B', 'Name too short!'],
      ['x'.repeat(101), 'Name too long!'],
      ['At@Bot', 'Invalid characters in name!'],
      ['Pipe Bot|12', 'Invalid format!'],
    ] as const) {
      expectError(await patch(bot.id, { full_name: name }), 400, 'BAD_REQUEST', msg);
    }
    expect((await patch(bot.id, { full_name: '  Trimmed Bot  ' })).body.full_name).toBe(
      'Trimmed Bot',
    );
    expect((await userOf(bot.id)).full_name).toBe('Trimmed Bot');
  });

  it('may not take the name of another active account; its own name is no change', async () => {
    const bot = await makeBot(t, 'member', 'Unique Bot');
    expectError(
      await patch(bot.id, { full_name: 'Mel Member' }),
      400,
      'BAD_REQUEST',
      'Name is already in use.',
    );
    expectError(
      await patch(bot.id, { full_name: 'Test Bot' }),
      400,
      'BAD_REQUEST',
      'Name is already in use.',
    );
    expect((await patch(bot.id, { full_name: 'Unique Bot' })).status).toBe(200);
    // A deactivated account's name is free.
    const gone = await deactivatedMember(t, 'Former Person');
    expect(gone.id).toBeGreaterThan(0);
    expect((await patch(bot.id, { full_name: 'Former Person' })).status).toBe(200);
  });
});

describe('role', () => {
  it('only administrators change a bot’s role, only owners to or from owner', async () => {
    const bot = await makeBot(t, 'member', 'Promoted Bot');
    expectError(
      await patch(bot.id, { role: Role.moderator }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      ADMIN_REQUIRED,
    );
    expectError(
      await patch(bot.id, { role: Role.owner }, 'admin'),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    expect((await userOf(bot.id)).role).toBe(Role.member);
    // Setting the role it has is no change, and allowed to its owner.
    expect((await patch(bot.id, { role: Role.member })).status).toBe(200);

    expect((await patch(bot.id, { role: Role.administrator }, 'admin')).status).toBe(200);
    expect(await userOf(bot.id)).toMatchObject({ role: 200, is_admin: true });
    expect((await patch(bot.id, { role: Role.owner }, 'owner')).status).toBe(200);
    expect(await userOf(bot.id)).toMatchObject({ role: 100, is_owner: true });
    // An administrator cannot take the owner role away from it either.
    expectError(
      await patch(bot.id, { role: Role.member }, 'admin'),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      OWNER_REQUIRED,
    );
    // A bot owner never counts as the organization's last owner.
    expect((await patch(bot.id, { role: Role.guest }, 'owner')).status).toBe(200);
    expect((await userOf(bot.id)).role).toBe(Role.guest);
  });

  it('refuses values that are no role', async () => {
    const bot = await makeBot(t, 'member', 'Odd Role Bot');
    for (const role of [0, 250, 500, 700]) {
      expectError(await patch(bot.id, { role }, 'owner'), 400, 'BAD_REQUEST', 'Invalid role');
    }
    expectError(
      await patch(bot.id, { role: 'admin' }, 'owner'),
      400,
      'BAD_REQUEST',
      'role is not valid JSON',
    );
  });
});

describe('bot_owner_id', () => {
  it('hands the bot to another person, who then administers it', async () => {
    const bot = await makeBot(t, 'member', 'Handed Bot');
    const res = await patch(bot.id, { bot_owner_id: other.id });
    expect(res.body.bot_owner).toBe(other.email);
    expect((await userOf(bot.id)).bot_owner_id).toBe(other.id);
    // The previous owner lost it; the new one has it.
    expectError(
      await patch(bot.id, { full_name: 'Taken Back' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(
      (await t.as(other).get('/bots')).body.bots.map((b: { username: string }) => b.username),
    ).toContain(bot.email);
    expect(await botRecord('member', bot.id)).toBeUndefined();
    expect((await t.as(other).patch(`/bots/${bot.id}`, { full_name: 'Kept Bot' })).status).toBe(
      200,
    );
  });

  it('refuses unknown, deactivated and bot owners', async () => {
    const bot = await makeBot(t, 'member', 'Unowned Bot');
    const gone = await deactivatedMember(t, 'Gone Owner');
    for (const [id, msg] of [
      [999_999, 'Failed to change owner, no such user'],
      [gone.id, 'Failed to change owner, user is deactivated'],
      [t.accounts.bot.id, "Failed to change owner, bots can't own other bots"],
      [bot.id, "Failed to change owner, bots can't own other bots"],
    ] as const) {
      expectError(await patch(bot.id, { bot_owner_id: id }), 400, 'BAD_REQUEST', msg);
    }
    expect((await userOf(bot.id)).bot_owner_id).toBe(t.accounts.member.id);
  });

  it('the bot leaves the private channels its new owner is not subscribed to', async () => {
    const bot = await makeBot(t, 'admin', 'Vault Bot');
    const shared = createChannel(t, {
      name: 'shared secret',
      private: true,
      subscribers: [t.accounts.admin.id, other.id, bot.id],
    });
    const subscribe = await t.as('admin').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'vault' }, { name: 'town square' }]),
      principals: JSON.stringify([bot.id]),
    });
    expect(subscribe.status, JSON.stringify(subscribe.body)).toBe(200);
    expect((await patch(bot.id, { bot_owner_id: other.id }, 'admin')).status).toBe(200);
    const subs = (await t.as(bot).get('/users/me/subscriptions')).body.subscriptions.map(
      (s: { stream_id: number }) => s.stream_id,
    );
    expect(subs).toContain(shared);
    expect(subs).not.toContain(privateId);
    expect(subs.length).toBe(2);
  });
});

describe('default channels', () => {
  it('sets and clears them by name, among the channels the caller may read', async () => {
    const bot = await makeBot(t, 'member', 'Defaults Bot');
    const res = await patch(bot.id, {
      default_sending_stream: 'town square',
      default_events_register_stream: 'Town Square',
      default_all_public_streams: true,
    });
    expect(res.body).toMatchObject({
      default_sending_stream: 'town square',
      default_events_register_stream: 'town square',
      default_all_public_streams: true,
    });
    expect(await botRecord('member', bot.id)).toMatchObject({
      default_sending_stream: 'town square',
      default_events_register_stream: 'town square',
      default_all_public_streams: true,
    });
    const list = (await t.as('member').get('/bots')).body.bots.find(
      (b: { username: string }) => b.username === bot.email,
    );
    expect(list).toMatchObject({ default_sending_stream: 'town square' });

    expect(
      (await patch(bot.id, { default_sending_stream: '', default_all_public_streams: false })).body,
    ).toMatchObject({
      default_sending_stream: null,
      default_events_register_stream: 'town square',
      default_all_public_streams: false,
    });
  });

  it('are set by POST /bots too, and the realm_bot add event carries them', async () => {
    const watcher = await Watcher.register(t.as('member'), { event_types: ['realm_bot'] }, 'm');
    const res = await t.as('member').post('/bots', {
      full_name: 'Born Bot',
      short_name: 'born',
      default_sending_stream: 'town square',
      default_events_register_stream: 'Town Square',
      default_all_public_streams: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      default_sending_stream: 'town square',
      default_events_register_stream: 'town square',
      default_all_public_streams: true,
    });
    const [added] = await watcher.take('realm_bot');
    expect(added).toMatchObject({
      op: 'add',
      bot: {
        user_id: res.body.user_id,
        default_sending_stream: 'town square',
        default_events_register_stream: 'town square',
        default_all_public_streams: true,
      },
    });
    expect(await botRecord('member', res.body.user_id)).toMatchObject({
      default_sending_stream: 'town square',
    });
  });

  it('POST /bots with a channel the creator may not read creates no bot', async () => {
    for (const [field, name] of [
      ['default_sending_stream', 'vault'],
      ['default_events_register_stream', 'no such channel'],
    ] as const) {
      expectError(
        await t
          .as('member')
          .post('/bots', { full_name: 'Lost Bot', short_name: 'lost', [field]: name }),
        400,
        'BAD_REQUEST',
        `Invalid channel name '${name}'`,
      );
    }
    const bots = (await t.as('member').get('/bots')).body.bots as Array<{ full_name: string }>;
    expect(bots.map((b) => b.full_name)).not.toContain('Lost Bot');
  });

  it('refuses channels that do not exist or the caller may not read', async () => {
    const bot = await makeBot(t, 'member', 'Nowhere Bot');
    for (const [field, name] of [
      ['default_sending_stream', 'no such channel'],
      ['default_events_register_stream', 'vault'],
    ]) {
      expectError(
        await patch(bot.id, { [field as string]: name }),
        400,
        'BAD_REQUEST',
        `Invalid channel name '${name}'`,
      );
    }
    // The administrator subscribed to it may.
    expect(
      (await patch(bot.id, { default_sending_stream: 'vault' }, 'admin')).body
        .default_sending_stream,
    ).toBe('vault');
    expectError(
      await patch(bot.id, { default_all_public_streams: 'yes' }),
      400,
      'BAD_REQUEST',
      'default_all_public_streams is not valid JSON',
    );
  });
});

describe('service settings', () => {
  it("changes an outgoing webhook's URL and interface", async () => {
    const bot = await makeBot(t, 'member', 'Hook Bot', 3);
    const before = await botRecord('member', bot.id);
    const url = 'https://hooks.example.com/changed';
    const res = await patch(bot.id, {
      service_payload_url: JSON.stringify(url),
      service_interface: 2,
    });
    expect(res.body).toMatchObject({ service_interface: 2, service_payload_url: url });
    const after = await botRecord('member', bot.id);
    expect(after.services).toEqual([
      { base_url: url, interface: 2, token: before.services[0].token },
    ]);
  });

  it('refuses bad URLs and interfaces, and bots without a payload URL', async () => {
    const hook = await makeBot(t, 'member', 'Strict Hook Bot', 3);
    const generic = await makeBot(t, 'member', 'Hookless Bot', 1);
    for (const [params, msg] of [
      [
        { service_payload_url: 'https://not-json.example.com' },
        'service_payload_url is not valid JSON',
      ],
      [{ service_payload_url: JSON.stringify(5) }, 'service_payload_url is not a string'],
      [{ service_payload_url: JSON.stringify('not a url') }, 'service_payload_url is not a URL'],
      [
        { service_payload_url: JSON.stringify('ftp://files.example.com/') },
        'service_payload_url is not a URL',
      ],
      [
        { service_payload_url: JSON.stringify('https://ok.example.com'), service_interface: 3 },
        'Invalid interface type',
      ],
    ] as const) {
      expectError(await patch(hook.id, params), 400, 'BAD_REQUEST', msg);
    }
    expectError(
      await patch(generic.id, { service_payload_url: JSON.stringify('https://ok.example.com') }),
      400,
      'BAD_REQUEST',
      'Only outgoing webhook bots have a payload URL',
    );
    expect((await botRecord('member', hook.id)).services[0]).toMatchObject({
      base_url: 'https://hooks.example.com/start',
      interface: 1,
    });
  });

  it("merges an embedded bot's configuration", async () => {
    const bot = await makeBot(t, 'member', 'Configured Bot', 4);
    const res = await patch(bot.id, {
      config_data: JSON.stringify({ greeting: 'hello', farewell: 'bye' }),
    });
    expect(res.body.config_data).toEqual({ greeting: 'hello', farewell: 'bye' });
    expect((await botRecord('member', bot.id)).services).toEqual([
      { service_name: 'helloworld', config_data: { greeting: 'hello', farewell: 'bye' } },
    ]);
    await patch(bot.id, { config_data: JSON.stringify({ greeting: 'hey' }) });
    expect((await botRecord('member', bot.id)).services[0].config_data).toEqual({
      greeting: 'hey',
      farewell: 'bye',
    });
  });

  it('refuses bad configuration, too much of it, and bots without any', async () => {
    const bot = await makeBot(t, 'member', 'Picky Bot', 4);
    const generic = await makeBot(t, 'member', 'Configless Bot', 1);
    for (const [config, msg] of [
      ['{"a": 1}', 'config_data["a"] is not a string'],
      ['["a"]', 'config_data is not a dict'],
      ['{', 'config_data is not valid JSON'],
      [
        JSON.stringify({ big: 'x'.repeat(10_000) }),
        'Maximum storage size exceeded! Current size is 10013, limit is 10000.',
      ],
    ] as const) {
      expectError(await patch(bot.id, { config_data: config }), 400, 'BAD_REQUEST', msg);
    }
    // Exactly at the limit (with greeting=hi already stored: 10 characters).
    expect(
      (await patch(bot.id, { config_data: JSON.stringify({ big: 'x'.repeat(10_000 - 10 - 3) }) }))
        .status,
    ).toBe(200);
    expectError(
      await patch(generic.id, { config_data: JSON.stringify({ a: 'b' }) }),
      400,
      'BAD_REQUEST',
      'Only embedded bots have configuration data',
    );
  });
});

describe('all or nothing', () => {
  it('one bad field leaves the valid ones unwritten', async () => {
    const bot = await makeBot(t, 'member', 'Atomic Bot');
    const attempts: Record<string, unknown>[] = [
      { full_name: 'Half Done', bot_owner_id: 999_999 },
      { full_name: 'Half Done', default_sending_stream: 'no such channel' },
      { full_name: 'Half Done', role: Role.administrator },
      { default_all_public_streams: true, config_data: JSON.stringify({ a: 'b' }) },
    ];
    for (const params of attempts) {
      expect((await patch(bot.id, params)).status).toBe(400);
    }
    expect(await userOf(bot.id)).toMatchObject({
      full_name: 'Atomic Bot',
      bot_owner_id: t.accounts.member.id,
      role: 400,
    });
    expect((await botRecord('member', bot.id)).default_all_public_streams).toBe(false);
  });

  it('refuses a deactivated bot nothing: its owner may still change it', async () => {
    const bot = await makeBot(t, 'member', 'Sleeping Bot');
    expect((await t.as('member').delete(`/bots/${bot.id}`)).status).toBe(200);
    expect((await patch(bot.id, { full_name: 'Still Sleeping Bot' })).status).toBe(200);
    expect(await userOf(bot.id)).toMatchObject({
      full_name: 'Still Sleeping Bot',
      is_active: false,
    });
    const key = await t.as('member').post(`/bots/${bot.id}/api_key/regenerate`);
    expect(key.status).toBe(200);
  });
});
