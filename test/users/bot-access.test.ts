/**
 * Who may administer a bot (Zulip's access_bot_by_id and
 * require_member_or_admin): GET /bots, PATCH /bots/{id},
 * POST /bots/{id}/api_key/regenerate, DELETE /bots/{id} and
 * POST /users/{id}/reactivate for bots, for every role, each bot type and a
 * deactivated account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBotOwner } from '../../server/db/queries/bots.js';
import { userById } from '../../server/db/queries/users.js';
import { Role } from '../../server/shared/roles.js';
import { expectError } from '../api/support.js';
import { quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import {
  type Callers,
  expectIncomingWebhookRefused,
  expectUserDeactivated,
  INSUFFICIENT,
  makeBot,
  NOT_BOT,
  NOT_GUEST,
  roleMatrixCallers,
} from './support.js';

let t: TestServer;
let callers: Callers;
let other: Account;
/** A guest who owns bots (as a member demoted to guest would). */
let guestOwner: Account;

beforeAll(async () => {
  t = await startTestServer();
  callers = await roleMatrixCallers(t);
  other = await quickMember(t, 'Otto Other');
  guestOwner = await quickMember(t, 'Gwen Guest', Role.guest);
});
afterAll(() => t.close());

const userOf = async (id: number) => (await t.as('owner').get(`/users/${id}`)).body.user;

/** The bot still answers to this key (or, with `works` false, no longer does). */
async function expectKey(bot: Account, apiKey: string, works = true) {
  const res = await new ApiClient(t.url, { email: bot.email, apiKey }).get(
    '/users/me',
    {},
    { skipSchema: true },
  );
  expect(res.status).toBe(works ? 200 : 401);
}

/** A bot of the member's, and one the guest owner owns (guests cannot create bots). */
async function targets(label: string) {
  const bot = await makeBot(t, 'member', `${label} Bot`);
  const guestBot = await makeBot(t, 'owner', `${label} Guest Bot`);
  setBotOwner(t.server.ctx.db, guestBot.id, guestOwner.id);
  return { bot, guestBot };
}

describe('GET /bots', () => {
  it.each(['owner', 'admin', 'moderator', 'member'] as FixtureName[])(
    'lists exactly the active bots %s owns, with their keys',
    async (who) => {
      const mine = await makeBot(t, who, `Listed For ${who}`);
      const gone = await makeBot(t, who, `Gone For ${who}`);
      expect((await t.as(who).delete(`/bots/${gone.id}`)).status).toBe(200);
      const res = await t.as(who).get('/bots');
      expect(res.status).toBe(200);
      const owned = (await t.as('owner').get('/users')).body.members.filter(
        (u: { is_bot: boolean; is_active: boolean; bot_owner_id: number | null }) =>
          u.is_bot && u.is_active && u.bot_owner_id === t.accounts[who].id,
      );
      expect(res.body.bots.map((b: { username: string }) => b.username).sort()).toEqual(
        owned.map((u: { email: string }) => u.email).sort(),
      );
      const entry = res.body.bots.find((b: { username: string }) => b.username === mine.email);
      expect(entry).toEqual({
        username: mine.email,
        full_name: `Listed For ${who}`,
        api_key: mine.apiKey,
        avatar_url: expect.stringMatching(/^\/user_avatars\/\d+\.png\?version=\d+$/),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      });
      expect(res.body.bots.some((b: { username: string }) => b.username === gone.email)).toBe(
        false,
      );
    },
  );

  it("administrators see only their own bots here, not the member's", async () => {
    const res = await t.as('admin').get('/bots');
    expect(
      res.body.bots.some((b: { username: string }) => b.username === t.accounts.bot.email),
    ).toBe(false);
    const member = await t.as('member').get('/bots');
    expect(member.body.bots.map((b: { username: string }) => b.username)).toContain(
      t.accounts.bot.email,
    );
  });

  it('a member without bots gets an empty list, oldest bot first otherwise', async () => {
    const fresh = await quickMember(t, 'Fresh Face');
    expect((await t.as(fresh).get('/bots')).body).toEqual({ result: 'success', msg: '', bots: [] });
    const first = await makeBot(t, fresh, 'First Made');
    const second = await makeBot(t, fresh, 'Second Made');
    const list = (await t.as(fresh).get('/bots')).body.bots.map(
      (b: { username: string }) => b.username,
    );
    expect(list).toEqual([first.email, second.email]);
  });

  it('is refused to guests, bots of every type and deactivated accounts', async () => {
    expectError(await t.as('guest').get('/bots'), 400, 'BAD_REQUEST', NOT_GUEST);
    expectError(await t.as(guestOwner).get('/bots'), 400, 'BAD_REQUEST', NOT_GUEST);
    for (const bot of callers.bots) {
      expectError(await t.as(bot).get('/bots'), 400, 'BAD_REQUEST', NOT_BOT);
    }
    expectUserDeactivated(await t.as(callers.deactivated).get('/bots'));
    expectIncomingWebhookRefused(await t.as(callers.incomingWebhook).get('/bots'));
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it.each(['owner', 'admin', 'member'] as FixtureName[])(
    '%s (an administrator or the owner) may rename the member’s bot',
    async (who) => {
      const { bot } = await targets(`Patch ${who}`);
      const res = await t.as(who).patch(`/bots/${bot.id}`, { full_name: `Renamed By ${who}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await userOf(bot.id)).full_name).toBe(`Renamed By ${who}`);
    },
  );

  it('is refused to others, guests, bots and deactivated accounts; nothing changes', async () => {
    const { bot, guestBot } = await targets('Patch Refused');
    const attempts: [Account | FixtureName, number, string][] = [
      ['moderator', bot.id, INSUFFICIENT],
      [other, bot.id, INSUFFICIENT],
      ['guest', bot.id, NOT_GUEST],
      // Owning the bot is not enough for a guest.
      [guestOwner, guestBot.id, NOT_GUEST],
      ...callers.bots.map((b): [Account, number, string] => [b, bot.id, NOT_BOT]),
      // Not even the bot itself.
      [bot, bot.id, NOT_BOT],
    ];
    for (const [who, id, msg] of attempts) {
      expectError(
        await t.as(who).patch(`/bots/${id}`, { full_name: 'Hijacked' }),
        400,
        'BAD_REQUEST',
        msg,
      );
    }
    expectUserDeactivated(
      await t.as(callers.deactivated).patch(`/bots/${bot.id}`, { full_name: 'Hijacked' }),
    );
    expectIncomingWebhookRefused(
      await t.as(callers.incomingWebhook).patch(`/bots/${bot.id}`, { full_name: 'Hijacked' }),
    );
    expect((await userOf(bot.id)).full_name).toBe('Patch Refused Bot');
    expect((await userOf(guestBot.id)).full_name).toBe('Patch Refused Guest Bot');
  });

  it('names no bot: unknown ids and people', async () => {
    for (const id of [999_999, t.accounts.member.id, t.accounts.owner.id]) {
      expectError(
        await t.as('owner').patch(`/bots/${id}`, { full_name: 'Anything' }),
        400,
        'BAD_REQUEST',
        'No such bot',
      );
    }
  });
});

describe('POST /bots/{bot_id}/api_key/regenerate', () => {
  it.each(['owner', 'admin', 'member'] as FixtureName[])(
    '%s may regenerate the member’s bot’s key',
    async (who) => {
      const { bot } = await targets(`Key ${who}`);
      const res = await t.as(who).post(`/bots/${bot.id}/api_key/regenerate`);
      expect(res.body).toEqual({ result: 'success', msg: '', api_key: expect.any(String) });
      await expectKey(bot, res.body.api_key);
      await expectKey(bot, bot.apiKey, false);
    },
  );

  it('is refused to others, guests, bots and deactivated accounts; the key stays', async () => {
    const { bot, guestBot } = await targets('Key Refused');
    const attempts: [Account | FixtureName, number, string][] = [
      ['moderator', bot.id, INSUFFICIENT],
      [other, bot.id, INSUFFICIENT],
      ['guest', bot.id, NOT_GUEST],
      [guestOwner, guestBot.id, NOT_GUEST],
      ...callers.bots.map((b): [Account, number, string] => [b, bot.id, NOT_BOT]),
      [bot, bot.id, NOT_BOT],
    ];
    for (const [who, id, msg] of attempts) {
      expectError(await t.as(who).post(`/bots/${id}/api_key/regenerate`), 400, 'BAD_REQUEST', msg);
    }
    expectUserDeactivated(
      await t.as(callers.deactivated).post(`/bots/${bot.id}/api_key/regenerate`),
    );
    expectIncomingWebhookRefused(
      await t.as(callers.incomingWebhook).post(`/bots/${bot.id}/api_key/regenerate`),
    );
    await expectKey(bot, bot.apiKey);
    await expectKey(guestBot, guestBot.apiKey);
  });

  it('names no bot: unknown ids and people', async () => {
    for (const id of [999_999, t.accounts.member.id]) {
      expectError(
        await t.as('admin').post(`/bots/${id}/api_key/regenerate`),
        400,
        'BAD_REQUEST',
        'No such bot',
      );
    }
  });
});

describe('DELETE /bots/{bot_id}', () => {
  it.each(['owner', 'admin', 'member'] as FixtureName[])(
    '%s may deactivate the member’s bot',
    async (who) => {
      const { bot } = await targets(`Delete ${who}`);
      expect((await t.as(who).delete(`/bots/${bot.id}`)).body).toEqual({
        result: 'success',
        msg: '',
      });
      expect((await userOf(bot.id)).is_active).toBe(false);
      await expectKey(bot, bot.apiKey, false);
    },
  );

  it('a guest may deactivate a bot they own (there is no member-only rule here)', async () => {
    const { guestBot } = await targets('Delete Guest');
    expect((await t.as(guestOwner).delete(`/bots/${guestBot.id}`)).status).toBe(200);
    expect((await userOf(guestBot.id)).is_active).toBe(false);
  });

  it('is refused to others, bots and deactivated accounts; the bot stays active', async () => {
    const { bot } = await targets('Delete Refused');
    for (const who of ['moderator', other, 'guest', guestOwner, ...callers.bots, bot] as (
      | Account
      | FixtureName
    )[]) {
      expectError(await t.as(who).delete(`/bots/${bot.id}`), 400, 'BAD_REQUEST', INSUFFICIENT);
    }
    expectUserDeactivated(await t.as(callers.deactivated).delete(`/bots/${bot.id}`));
    expectIncomingWebhookRefused(await t.as(callers.incomingWebhook).delete(`/bots/${bot.id}`));
    expect((await userOf(bot.id)).is_active).toBe(true);
    await expectKey(bot, bot.apiKey);
  });

  it('a bot already deactivated stays so; unknown ids and people are no bots', async () => {
    const { bot } = await targets('Delete Twice');
    expect((await t.as('member').delete(`/bots/${bot.id}`)).status).toBe(200);
    expect((await t.as('member').delete(`/bots/${bot.id}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await userOf(bot.id)).is_active).toBe(false);
    for (const id of [999_999, t.accounts.moderator.id]) {
      expectError(await t.as('owner').delete(`/bots/${id}`), 400, 'BAD_REQUEST', 'No such bot');
    }
    expect((await userOf(t.accounts.moderator.id)).is_active).toBe(true);
  });
});

describe('POST /users/{user_id}/reactivate for a bot', () => {
  async function deactivatedBot(label: string) {
    const { bot, guestBot } = await targets(label);
    expect((await t.as('owner').delete(`/bots/${bot.id}`)).status).toBe(200);
    expect((await t.as('owner').delete(`/bots/${guestBot.id}`)).status).toBe(200);
    return { bot, guestBot };
  }

  it.each(['owner', 'admin', 'member'] as FixtureName[])(
    '%s (an administrator or the owner) may reactivate it',
    async (who) => {
      const { bot } = await deactivatedBot(`Back ${who}`);
      expect((await t.as(who).post(`/users/${bot.id}/reactivate`)).body).toEqual({
        result: 'success',
        msg: '',
      });
      expect((await userOf(bot.id)).is_active).toBe(true);
      await expectKey(bot, bot.apiKey);
    },
  );

  it('is refused to others, guests, bots and deactivated accounts', async () => {
    const { bot, guestBot } = await deactivatedBot('Back Refused');
    const attempts: [Account | FixtureName, number, string][] = [
      ['moderator', bot.id, INSUFFICIENT],
      [other, bot.id, INSUFFICIENT],
      ['guest', bot.id, INSUFFICIENT],
      // A guest may not create bots, so may not bring one back either.
      [guestOwner, guestBot.id, NOT_GUEST],
      ...callers.bots.map((b): [Account, number, string] => [b, bot.id, INSUFFICIENT]),
    ];
    for (const [who, id, msg] of attempts) {
      expectError(await t.as(who).post(`/users/${id}/reactivate`), 400, 'BAD_REQUEST', msg);
    }
    expectUserDeactivated(await t.as(callers.deactivated).post(`/users/${bot.id}/reactivate`));
    expectIncomingWebhookRefused(
      await t.as(callers.incomingWebhook).post(`/users/${bot.id}/reactivate`),
    );
    expect((await userOf(bot.id)).is_active).toBe(false);
    expect((await userOf(guestBot.id)).is_active).toBe(false);
  });

  it('an active bot is refused as an active person is', async () => {
    const { bot } = await targets('Never Gone');
    expectError(
      await t.as('member').post(`/users/${bot.id}/reactivate`),
      400,
      'BAD_REQUEST',
      'User is already active',
    );
  });

  it('people still need an administrator, even for the bot owner', async () => {
    const person = await quickMember(t, 'Person Gone');
    await t.as('admin').delete(`/users/${person.id}`);
    expectError(
      await t.as('member').post(`/users/${person.id}/reactivate`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it.each(['owner', 'admin', 'moderator', 'member', 'guest'] as FixtureName[])(
    '%s gets a new key; the old one stops working',
    async (who) => {
      const account = await quickMember(t, `Rotating ${who}`);
      if (who !== 'member') {
        const role = { owner: 100, admin: 200, moderator: 300, guest: 600 }[who as string]!;
        expect((await t.as('owner').patch(`/users/${account.id}`, { role })).status).toBe(200);
      }
      const res = await t.as(account).post('/users/me/api_key/regenerate');
      expect(res.body).toEqual({
        result: 'success',
        msg: '',
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      });
      expect(res.body.api_key).not.toBe(account.apiKey);
      expectError(
        await t.as(account).get('/users/me', {}, { skipSchema: true }),
        401,
        'INVALID_API_KEY',
        'Invalid API key',
      );
      const fresh = await t.as({ ...account, apiKey: res.body.api_key }).get('/users/me');
      expect(fresh.body.user_id).toBe(account.id);
    },
  );

  it('bots may regenerate their own key, except incoming-webhook bots (as Zulip)', async () => {
    const incoming = await makeBot(t, 'member', 'Self Rotating 2', 2);
    expectIncomingWebhookRefused(await t.as(incoming).post('/users/me/api_key/regenerate'));
    expect(userById(t.server.ctx.db, incoming.id)?.api_key).toBe(incoming.apiKey);
    for (const type of [1, 3, 4]) {
      const bot = await makeBot(t, 'member', `Self Rotating ${type}`, type);
      const res = await t.as(bot).post('/users/me/api_key/regenerate');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await expectKey(bot, res.body.api_key);
      await expectKey(bot, bot.apiKey, false);
    }
  });

  it('is refused to deactivated accounts', async () => {
    expectUserDeactivated(await t.as(callers.deactivated).post('/users/me/api_key/regenerate'));
  });
});
