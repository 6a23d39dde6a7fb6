/**
 * POST /bots: members and administrators create bots of the four types; the
 * bot authenticates with its own address and key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import {
  ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { API_KEY, expectError } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function createBot(who: FixtureName, params: Record<string, unknown>) {
  const res = await t.as(who).post('/bots', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { user_id: number; api_key: string };
}

describe('POST /bots', () => {
  it.each([
    [1, {}],
    [2, {}],
    [3, { payload_url: JSON.stringify('https://bots.example.com/hook') }],
    [4, { service_name: 'helloworld' }],
  ] as const)('creates a bot of type %i owned by its creator', async (botType, extra) => {
    const shortName = `type${botType}`;
    const created = await createBot('member', {
      full_name: `Type ${botType} Bot`,
      short_name: shortName,
      bot_type: botType,
      ...extra,
    });
    expect(created.user_id).toEqual(expect.any(Number));
    expect(created.api_key).toMatch(API_KEY);

    const res = await t.as('owner').get(`/users/${created.user_id}`);
    expect(res.body.user).toMatchObject({
      user_id: created.user_id,
      full_name: `Type ${botType} Bot`,
      email: `${shortName}-bot@test.hearth`,
      delivery_email: `${shortName}-bot@test.hearth`,
      is_bot: true,
      bot_type: botType,
      bot_owner_id: t.accounts.member.id,
      role: 400,
      is_active: true,
    });
    expect(userById(t.server.ctx.db, created.user_id)!.api_key).toBe(created.api_key);
  });

  it('the response has the bot defaults', async () => {
    const res = await t.as('member').post('/bots', { full_name: 'Shape Bot', short_name: 'shape' });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      user_id: expect.any(Number),
      api_key: expect.stringMatching(API_KEY),
      avatar_url: expect.stringMatching(/^\/user_avatars\/\d+\.png\?version=1$/),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
  });

  it('bot_type defaults to 1 (generic)', async () => {
    const { user_id } = await createBot('member', { full_name: 'Plain Bot', short_name: 'plain' });
    expect((await t.as('member').get(`/users/${user_id}`)).body.user.bot_type).toBe(1);
  });

  it('the bot can call the API with its own key', async () => {
    const created = await createBot('admin', {
      full_name: 'Caller Bot',
      short_name: 'caller',
      bot_type: 1,
    });
    const bot = new ApiClient(t.url, { email: 'caller-bot@test.hearth', apiKey: created.api_key });
    const me = await bot.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user_id: created.user_id,
      email: 'caller-bot@test.hearth',
      delivery_email: 'caller-bot@test.hearth',
      is_bot: true,
      bot_type: 1,
      bot_owner_id: t.accounts.admin.id,
      full_name: 'Caller Bot',
    });
    const users = await bot.get('/users');
    expect(users.status).toBe(200);
  });

  it.each(['owner', 'admin', 'moderator', 'member'] as const)('%s may create bots', async (who) => {
    const { user_id } = await createBot(who, {
      full_name: `Bot Of ${who}`,
      short_name: `of-${who}`,
    });
    const res = await t.as(who).get(`/users/${user_id}`);
    expect(res.body.user.bot_owner_id).toBe(t.accounts[who].id);
  });

  it('guests may not create bots', async () => {
    expectError(
      await t.as('guest').post('/bots', { full_name: 'Guest Bot', short_name: 'guestbot' }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await t.as('member').get('/users/guestbot-bot@test.hearth'),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });

  it('bots may not create bots', async () => {
    expectError(
      await t.as('bot').post('/bots', { full_name: 'Bot Bot', short_name: 'botbot' }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('a short name already in use is refused', async () => {
    await createBot('member', { full_name: 'First Twin', short_name: 'twin' });
    for (const shortName of ['twin', 'TWIN', ' twin ']) {
      expectError(
        await t.as('admin').post('/bots', { full_name: 'Second Twin', short_name: shortName }),
        400,
        'BAD_REQUEST',
        'Username already in use',
      );
    }
    // The fixture bot "test" took test-bot@test.hearth.
    expectError(
      await t.as('member').post('/bots', { full_name: 'Another Test', short_name: 'test' }),
      400,
      'BAD_REQUEST',
      'Username already in use',
    );
  });

  it('refuses bad short names, full names and types', async () => {
    const post = (params: Record<string, unknown>) => t.as('member').post('/bots', params);
    for (const shortName of ['', '   ', 'with space', 'a@b', 'slash/name']) {
      expectError(
        await post({ full_name: 'Named Bot', short_name: shortName }),
        400,
        'BAD_REQUEST',
        'Bad name or username',
      );
    }
    expectError(
      await post({ full_name: 'B', short_name: 'tiny' }),
      400,
      'BAD_REQUEST',
      'Name too short!',
    );
    expectError(
      await post({ full_name: 'At@Bot', short_name: 'atbot' }),
      400,
      'BAD_REQUEST',
      'Invalid characters in name!',
    );
    for (const botType of [0, 5, -1]) {
      expectError(
        await post({ full_name: 'Typed Bot', short_name: 'typed', bot_type: botType }),
        400,
        'BAD_REQUEST',
        'Invalid bot type',
      );
    }
    expectError(
      await post({ full_name: 'Typed Bot', short_name: 'typed', bot_type: 'one' }),
      400,
      'BAD_REQUEST',
      'bot_type is not valid JSON',
    );
  });

  it('outgoing webhooks need a payload_url; embedded bots a known service', async () => {
    const post = (params: Record<string, unknown>) => t.as('member').post('/bots', params);
    expectError(
      await post({ full_name: 'Hook Bot', short_name: 'hook', bot_type: 3 }),
      400,
      'BAD_REQUEST',
      'Missing payload_url for outgoing webhook bot',
    );
    expectError(
      await post({
        full_name: 'Hook Bot',
        short_name: 'hook',
        bot_type: 3,
        payload_url: 'https://not-json.example.com',
      }),
      400,
      'BAD_REQUEST',
      'payload_url is not valid JSON',
    );
    for (const serviceName of [undefined, 'no-such-bot']) {
      expectError(
        await post({
          full_name: 'Embedded Bot',
          short_name: 'embedded',
          bot_type: 4,
          service_name: serviceName,
        }),
        400,
        'BAD_REQUEST',
        'Invalid embedded bot name.',
      );
    }
    // Nothing was created by the failed attempts.
    for (const email of ['hook-bot@test.hearth', 'embedded-bot@test.hearth']) {
      expectError(await t.as('member').get(`/users/${email}`), 400, 'BAD_REQUEST', 'No such user');
    }
  });

  it('requires full_name and short_name', async () => {
    expectError(
      await t.as('member').post('/bots', { short_name: 'nameless' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'full_name' argument",
      { var_name: 'full_name' },
    );
    expectError(
      await t.as('member').post('/bots', { full_name: 'Shortless Bot' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'short_name' argument",
      { var_name: 'short_name' },
    );
  });
});
