/**
 * The events of bot administration and who receives them (Zulip: realm_bot
 * goes to administrators and the bot's owner, realm_user to everyone), and
 * realm_bots in POST /register before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../server/shared/roles.js';
import { expectError } from '../api/support.js';
import {
  type EventsByName,
  isEvent,
  receivers,
  Watcher,
  Watchers,
} from '../helpers/event-queues.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { makeBot } from './support.js';

const EVERYONE = ['admin', 'bot', 'guest', 'member', 'moderator', 'other', 'owner'];
/** Administrators and the member, who owns the bots made below. */
const MEMBER_BOT_AUDIENCE = ['admin', 'member', 'owner'];

let t: TestServer;
let other: Account;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  other = await quickMember(t, 'Otto Other');
  createChannel(t, { name: 'town square', subscribers: [t.accounts.member.id] });
  watchers = new Watchers(t, { event_types: ['realm_bot', 'realm_user', 'subscription'] });
  for (const name of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
    await watchers.add(name);
  }
  await watchers.add('other', other);
});
afterAll(() => t.close());

/** The events of `type` that queue `name` got, without their ids. */
function got(events: EventsByName, name: string, type: string) {
  return (events[name] ?? []).filter((e) => e.type === type).map(({ id: _id, ...rest }) => rest);
}

async function realmBots(who: FixtureName | Account): Promise<{ user_id: number }[]> {
  const res = await t.as(who).post('/register', { fetch_event_types: ['realm_bot'] });
  expect(res.status).toBe(200);
  return res.body.realm_bots;
}

const listed = async (who: FixtureName | Account, botId: number) =>
  (await realmBots(who)).find((b) => b.user_id === botId);

describe('renaming', () => {
  it('everyone hears the name; administrators and the owner also through realm_bot', async () => {
    const bot = await makeBot(t, 'member', 'Old Name Bot');
    await watchers.clear();
    expect(
      (await t.as('admin').patch(`/bots/${bot.id}`, { full_name: 'New Name Bot' })).status,
    ).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, isEvent('realm_user', 'update'))).toEqual(EVERYONE);
    expect(got(events, 'guest', 'realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: 'New Name Bot' } },
    ]);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(MEMBER_BOT_AUDIENCE);
    expect(got(events, 'member', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, full_name: 'New Name Bot' } },
    ]);
    expect((await listed('member', bot.id)) as unknown).toMatchObject({
      full_name: 'New Name Bot',
    });
  });

  it('PATCH /users/{id} on a bot tells its administrators too', async () => {
    const bot = await makeBot(t, 'member', 'Users Door Bot');
    await watchers.clear();
    expect(
      (await t.as('admin').patch(`/users/${bot.id}`, { full_name: 'Users Door Renamed' })).status,
    ).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(MEMBER_BOT_AUDIENCE);
    expect(receivers(events, isEvent('realm_user', 'update'))).toEqual(EVERYONE);
  });

  it('setting the current name sends nothing', async () => {
    const bot = await makeBot(t, 'member', 'Same Name Bot');
    await watchers.clear();
    expect(
      (await t.as('member').patch(`/bots/${bot.id}`, { full_name: 'Same Name Bot' })).status,
    ).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('a role change is a realm_user event only', async () => {
    const bot = await makeBot(t, 'member', 'Role Event Bot');
    await watchers.clear();
    await t.as('admin').patch(`/bots/${bot.id}`, { role: Role.moderator });
    const events = await watchers.take();
    expect(
      receivers(
        events,
        isEvent('realm_user', 'update', (e) => e.person.role === 300),
      ),
    ).toEqual(EVERYONE);
    expect(receivers(events, (e) => e.type === 'realm_bot')).toEqual([]);
  });
});

describe('API keys', () => {
  it("a bot's new key goes to its administrators only", async () => {
    const bot = await makeBot(t, 'member', 'Key Event Bot');
    await watchers.clear();
    const res = await t.as('member').post(`/bots/${bot.id}/api_key/regenerate`);
    const events = await watchers.take();
    expect(receivers(events)).toEqual(MEMBER_BOT_AUDIENCE);
    for (const name of MEMBER_BOT_AUDIENCE) {
      expect(got(events, name, 'realm_bot')).toEqual([
        { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: res.body.api_key } },
      ]);
    }
    expect((await listed('owner', bot.id)) as unknown).toMatchObject({ api_key: res.body.api_key });
  });

  it("a bot regenerating its own key tells its administrators; a person's is told nobody", async () => {
    const bot = await makeBot(t, 'member', 'Self Key Bot');
    await watchers.clear();
    const res = await t.as(bot).post('/users/me/api_key/regenerate');
    const events = await watchers.take();
    expect(receivers(events)).toEqual(MEMBER_BOT_AUDIENCE);
    expect(got(events, 'admin', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: res.body.api_key } },
    ]);

    const person = await quickMember(t, 'Quiet Rotator');
    await watchers.clear();
    expect((await t.as(person).post('/users/me/api_key/regenerate')).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });
});

describe('deactivating and reactivating a bot', () => {
  it("drops the bot's event queues", async () => {
    const bot = await makeBot(t, 'member', 'Sleepy Bot');
    const queue = await Watcher.register(t.as(bot), { event_types: ['realm_user'] }, 'sleepy');
    expect([...t.server.ctx.events.queuesOf(bot.id)]).toHaveLength(1);
    expect((await t.as('member').delete(`/bots/${bot.id}`)).status).toBe(200);
    expect([...t.server.ctx.events.queuesOf(bot.id)]).toHaveLength(0);
    expect((await t.as('member').post(`/users/${bot.id}/reactivate`)).status).toBe(200);
    expectError(
      await t
        .as(bot)
        .get('/events', { queue_id: queue.queueId, last_event_id: -1, dont_block: true }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${queue.queueId}`,
      { queue_id: queue.queueId },
    );
  });

  it('sends realm_user and realm_bot updates to exactly the right queues', async () => {
    const bot = await makeBot(t, 'member', 'Switch Bot');
    const streamId = createChannel(t, {
      name: 'switch room',
      subscribers: [bot.id, t.accounts.moderator.id],
    });
    await watchers.clear();
    expect((await t.as('admin').delete(`/bots/${bot.id}`)).status).toBe(200);
    let events = await watchers.take();
    expect(receivers(events, isEvent('realm_user', 'update'))).toEqual(EVERYONE);
    expect(got(events, 'other', 'realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: false } },
    ]);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(MEMBER_BOT_AUDIENCE);
    expect(got(events, 'member', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } },
    ]);
    // Those who see the channel's subscribers lose the bot from them (the guest does not see it).
    expect(
      receivers(
        events,
        isEvent('subscription', 'peer_remove', (e) => e.stream_ids[0] === streamId),
      ),
    ).toEqual(['admin', 'bot', 'member', 'moderator', 'other', 'owner']);
    // realm_bots keeps it, deactivated, for those who administer it.
    expect((await listed('member', bot.id)) as unknown).toMatchObject({ is_active: false });
    expect((await listed('admin', bot.id)) as unknown).toMatchObject({ is_active: false });
    expect(await listed(other, bot.id)).toBeUndefined();

    expect((await t.as('member').post(`/users/${bot.id}/reactivate`)).status).toBe(200);
    events = await watchers.take();
    expect(
      receivers(
        events,
        isEvent('realm_user', 'update', (e) => e.person.is_active),
      ),
    ).toEqual(EVERYONE);
    expect(got(events, 'owner', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: true } },
    ]);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(MEMBER_BOT_AUDIENCE);
    expect(receivers(events, isEvent('subscription', 'peer_add'))).toContain('moderator');
    expect((await listed('member', bot.id)) as unknown).toMatchObject({ is_active: true });
  });

  it('a second DELETE sends nothing', async () => {
    const bot = await makeBot(t, 'member', 'Twice Bot');
    await t.as('member').delete(`/bots/${bot.id}`);
    await watchers.clear();
    expect((await t.as('member').delete(`/bots/${bot.id}`)).status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('a bot comes back only while no active account has its name', async () => {
    const bot = await makeBot(t, 'member', 'Clash Bot');
    await t.as('member').delete(`/bots/${bot.id}`);
    const twin = await makeBot(t, 'member', 'Clash Bot');
    await watchers.clear();
    expectError(
      await t.as('member').post(`/users/${bot.id}/reactivate`),
      400,
      'BAD_REQUEST',
      'There is already an active bot named "Clash Bot" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
    );
    expect(receivers(await watchers.take())).toEqual([]);
    await t.as('member').patch(`/bots/${twin.id}`, { full_name: 'Clash Bot Two' });
    expect((await t.as('member').post(`/users/${bot.id}/reactivate`)).status).toBe(200);
  });
});

describe('changing owners', () => {
  it('from a member to another member: delete, add, update, and the realm_user change', async () => {
    const bot = await makeBot(t, 'member', 'Traded Bot');
    expect(await listed('member', bot.id)).toBeDefined();
    expect(await listed(other, bot.id)).toBeUndefined();
    await watchers.clear();
    expect((await t.as('member').patch(`/bots/${bot.id}`, { bot_owner_id: other.id })).status).toBe(
      200,
    );
    const events = await watchers.take();
    expect(got(events, 'member', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } },
    ]);
    const record = await listed(other, bot.id);
    expect(record).toMatchObject({ owner_id: other.id, is_active: true, full_name: 'Traded Bot' });
    expect(got(events, 'other', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'add', bot: record },
    ]);
    for (const name of ['owner', 'admin']) {
      expect(got(events, name, 'realm_bot')).toEqual([
        { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: other.id } },
      ]);
    }
    expect(receivers(events, (e) => e.type === 'realm_bot')).toEqual([
      'admin',
      'member',
      'other',
      'owner',
    ]);
    expect(receivers(events, isEvent('realm_user', 'update'))).toEqual(EVERYONE);
    expect(got(events, 'moderator', 'realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: other.id } },
    ]);
    expect(await listed('member', bot.id)).toBeUndefined();
    expect((await t.as('owner').get(`/users/${bot.id}`)).body.user.bot_owner_id).toBe(other.id);
  });

  it('to an administrator: the administrators get update, nobody add', async () => {
    const bot = await makeBot(t, 'member', 'Admin Bound Bot');
    await watchers.clear();
    await t.as('member').patch(`/bots/${bot.id}`, { bot_owner_id: t.accounts.admin.id });
    const events = await watchers.take();
    expect(receivers(events, isEvent('realm_bot', 'delete'))).toEqual(['member']);
    expect(receivers(events, isEvent('realm_bot', 'add'))).toEqual([]);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(['admin', 'owner']);
  });

  it('from an administrator: nobody loses it, the new owner gains it', async () => {
    const bot = await makeBot(t, 'admin', 'Admin Made Bot');
    await watchers.clear();
    await t.as('admin').patch(`/bots/${bot.id}`, { bot_owner_id: t.accounts.moderator.id });
    const events = await watchers.take();
    expect(receivers(events, isEvent('realm_bot', 'delete'))).toEqual([]);
    expect(receivers(events, isEvent('realm_bot', 'add'))).toEqual(['moderator']);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(['admin', 'owner']);
  });

  it('to the current owner: nothing happens', async () => {
    const bot = await makeBot(t, 'member', 'Kept Bot');
    await watchers.clear();
    await t.as('member').patch(`/bots/${bot.id}`, { bot_owner_id: t.accounts.member.id });
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('leaving a private channel sends the bot remove and its peers peer_remove', async () => {
    const bot = await makeBot(t, 'member', 'Leaving Bot');
    const secret = createChannel(t, {
      name: 'members only',
      private: true,
      subscribers: [t.accounts.member.id, bot.id],
    });
    const leaving = await Watcher.register(t.as(bot), { event_types: ['subscription'] }, 'leaving');
    await watchers.clear();
    await t.as('member').patch(`/bots/${bot.id}`, { bot_owner_id: other.id });
    const events = await watchers.take();
    expect((await leaving.take()).map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        type: 'subscription',
        op: 'remove',
        subscriptions: [{ name: 'members only', stream_id: secret }],
      },
    ]);
    // Who sees a private channel's subscribers: its subscribers and administrators.
    expect(receivers(events, isEvent('subscription', 'peer_remove'))).toEqual([
      'admin',
      'member',
      'owner',
    ]);
  });
});

describe('settings that only administrators and the owner hear of', () => {
  it('default channels, service and configuration', async () => {
    const hook = await makeBot(t, 'member', 'Evented Hook Bot', 3);
    const embedded = await makeBot(t, 'member', 'Evented Embedded Bot', 4);
    await watchers.clear();
    await t.as('member').patch(`/bots/${hook.id}`, {
      default_sending_stream: 'town square',
      default_events_register_stream: 'town square',
      default_all_public_streams: true,
      service_payload_url: JSON.stringify('https://hooks.example.com/evented'),
    });
    await t.as('member').patch(`/bots/${embedded.id}`, {
      config_data: JSON.stringify({ greeting: 'howdy' }),
    });
    const events = await watchers.take();
    expect(receivers(events)).toEqual(MEMBER_BOT_AUDIENCE);
    const token = (
      (await listed('member', hook.id)) as unknown as { services: { token: string }[] }
    ).services[0]!.token;
    expect(got(events, 'admin', 'realm_bot')).toEqual([
      {
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: hook.id, default_sending_stream: 'town square' },
      },
      {
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: hook.id, default_events_register_stream: 'town square' },
      },
      {
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: hook.id, default_all_public_streams: true },
      },
      {
        type: 'realm_bot',
        op: 'update',
        bot: {
          user_id: hook.id,
          services: [{ base_url: 'https://hooks.example.com/evented', interface: 1, token }],
        },
      },
      {
        type: 'realm_bot',
        op: 'update',
        bot: {
          user_id: embedded.id,
          services: [{ service_name: 'helloworld', config_data: { greeting: 'howdy' } }],
        },
      },
    ]);
  });
});

describe('deactivating a person deactivates the bots they own', () => {
  it('with the events of each, and the bots can no longer call the API', async () => {
    const leaver = await quickMember(t, 'Lea Leaver');
    const active = await makeBot(t, leaver, 'Orphan Bot');
    const asleep = await makeBot(t, leaver, 'Asleep Orphan Bot');
    await t.as(leaver).delete(`/bots/${asleep.id}`);
    await watchers.clear();

    expect((await t.as('admin').delete(`/users/${leaver.id}`)).status).toBe(200);
    const events = await watchers.take();
    expect(got(events, 'moderator', 'realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: active.id, is_active: false } },
      { type: 'realm_user', op: 'update', person: { user_id: leaver.id, is_active: false } },
    ]);
    expect(receivers(events, isEvent('realm_bot', 'update'))).toEqual(['admin', 'owner']);
    expect(got(events, 'owner', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: active.id, is_active: false } },
    ]);
    const users = (await t.as('owner').get('/users')).body.members;
    for (const id of [active.id, asleep.id]) {
      expect(users.find((u: { user_id: number }) => u.user_id === id).is_active).toBe(false);
    }
    expectError(
      await t.as(active).get('/users/me', {}, { skipSchema: true }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );

    // An administrator bringing the bot back becomes its owner: the old one is gone.
    await watchers.clear();
    expect((await t.as('admin').post(`/users/${active.id}/reactivate`)).status).toBe(200);
    const back = await watchers.take();
    expect(got(back, 'owner', 'realm_bot')).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: active.id, is_active: true } },
      {
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: active.id, owner_id: t.accounts.admin.id },
      },
    ]);
    expect(receivers(back, isEvent('realm_bot', 'update'))).toEqual(['admin', 'owner']);
    expect(
      receivers(
        back,
        isEvent('realm_user', 'update', (e) => e.person.bot_owner_id === t.accounts.admin.id),
      ),
    ).toEqual(EVERYONE);
    expect((await t.as('owner').get(`/users/${active.id}`)).body.user).toMatchObject({
      is_active: true,
      bot_owner_id: t.accounts.admin.id,
    });
    expect(
      (await t.as('admin').get('/bots')).body.bots.map((b: { username: string }) => b.username),
    ).toContain(active.email);
  });
});
