/**
 * Creating channels, by subscribing to new names and with POST
 * /channels/create: name rules, settings, permissions and who hears of it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setRealmSettings } from '../../server/db/queries/realm.js';
import { streamById } from '../../server/db/queries/streams.js';
import { groupByName } from '../../server/db/queries/user-groups.js';
import { expectError } from '../api/support.js';
import { type Event, isEvent, receivers, type Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { channelId, subscribeAs, watchEveryone } from './support.js';

let t: TestServer;
let other: Account;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  ({ other, watchers } = await watchEveryone(t));
});
afterAll(() => t.close());
beforeEach(async () => {
  setRealmSettings(t.server.ctx.db, '{}');
  await watchers.clear();
});

const groupId = (name: string) => groupByName(t.server.ctx.db, name)!.id;
const streamCreate = isEvent('stream', 'create');
const subAdd = isEvent('subscription', 'add');
const peerAdd = isEvent('subscription', 'peer_add');
const subscribe = (
  who: 'member' | 'admin' | 'owner' | 'moderator' | 'guest',
  params: Record<string, unknown>,
) => t.as(who).post('/users/me/subscriptions', params);

describe('creating by subscribing', () => {
  it('creates a public channel: every non-guest learns of it, then of its subscriber', async () => {
    const body = await subscribeAs(t, 'member', ['  Fresh Air  '], {});
    expect(body.subscribed).toEqual({ [String(t.accounts.member.id)]: ['Fresh Air'] });
    const id = channelId(t, 'fresh air');

    const events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual([
      'admin',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    const created = events.owner!.find(streamCreate).streams[0];
    expect(created).toMatchObject({
      stream_id: id,
      name: 'Fresh Air',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      creator_id: t.accounts.member.id,
      subscriber_count: 0,
      stream_weekly_traffic: null,
      // Zulip's default: the creator administers the channel.
      can_administer_channel_group: {
        direct_members: [t.accounts.member.id],
        direct_subgroups: [],
      },
      can_remove_subscribers_group: groupId('role:administrators'),
      can_send_message_group: groupId('role:everyone'),
    });
    expect(events.member!.map((e: Event) => `${e.type}/${e.op}`)).toEqual([
      'stream/create',
      'subscription/add',
    ]);
    expect(receivers(events, peerAdd)).toEqual(['admin', 'moderator', 'other', 'owner']);
  });

  it('subscribes to an existing channel whose name differs only in case', async () => {
    const id = createChannel(t, { name: 'CaseRoom', subscribers: [] });
    const body = await subscribeAs(t, 'member', ['caseroom']);
    expect(body.subscribed).toEqual({ [String(t.accounts.member.id)]: ['CaseRoom'] });
    expect(channelId(t, 'caseroom')).toBe(id);
    expect(receivers(await watchers.take(), streamCreate)).toEqual([]);
  });

  it('renders the description on one line', async () => {
    const res = await subscribe('member', {
      subscriptions: [{ name: 'described', description: 'line one\nline *two*' }],
    });
    expect(res.status).toBe(200);
    const row = streamById(t.server.ctx.db, channelId(t, 'described'))!;
    expect(row.description).toBe('line one line *two*');
    expect(row.rendered_description).toBe('<p>line one line <em>two</em></p>');
  });

  it('creates a private channel: administrators and the creator first, other subscribers on joining', async () => {
    const res = await subscribe('member', {
      subscriptions: [{ name: 'hush' }],
      invite_only: true,
      principals: [t.accounts.member.id, other.id],
    });
    expect(res.status).toBe(200);
    const id = channelId(t, 'hush');
    const row = streamById(t.server.ctx.db, id)!;
    expect(row.invite_only).toBe(1);
    expect(row.history_public_to_subscribers).toBe(0);

    const events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual(['admin', 'member', 'other', 'owner']);
    expect(receivers(events, subAdd)).toEqual(['member', 'other']);
    expect(events.other!.map((e: Event) => `${e.type}/${e.op}`)).toEqual([
      'stream/create',
      'subscription/add',
    ]);
    // The new subscribers get `add`; the administrators see the peers.
    expect(receivers(events, peerAdd)).toEqual(['admin', 'owner']);
    expect(events.owner!.find(peerAdd).user_ids).toEqual(
      [t.accounts.member.id, other.id].sort((a, b) => a - b),
    );
  });

  it('keeps shared history for private channels when asked, and always for public ones', async () => {
    await subscribe('member', {
      subscriptions: [{ name: 'shared secrets' }],
      invite_only: true,
      history_public_to_subscribers: true,
    });
    expect(
      streamById(t.server.ctx.db, channelId(t, 'shared secrets'))!.history_public_to_subscribers,
    ).toBe(1);
    await subscribe('member', {
      subscriptions: [{ name: 'public anyway' }],
      history_public_to_subscribers: false,
    });
    expect(
      streamById(t.server.ctx.db, channelId(t, 'public anyway'))!.history_public_to_subscribers,
    ).toBe(1);
  });

  it('checks the name', async () => {
    const post = (name: string) => subscribe('member', { subscriptions: [{ name }] });
    expectError(
      await post('x'.repeat(61)),
      400,
      'BAD_REQUEST',
      'Channel name too long (limit: 60 characters).',
    );
    expectError(
      await post('ab\u0007cd'),
      400,
      'BAD_REQUEST',
      'Invalid character in channel name, at position 3.',
    );
    expect((await post('y'.repeat(60))).status).toBe(200);
  });
});

describe('creation permissions', () => {
  it("follows the organization's channel-creation groups", async () => {
    setRealmSettings(
      t.server.ctx.db,
      JSON.stringify({
        can_create_public_channel_group: 'role:administrators',
        can_create_private_channel_group: 'role:moderators',
      }),
    );
    expectError(
      await subscribe('member', { subscriptions: [{ name: 'not mine' }] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await subscribe('member', { subscriptions: [{ name: 'not mine' }], invite_only: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(
      (await subscribe('moderator', { subscriptions: [{ name: 'mod den' }], invite_only: true }))
        .status,
    ).toBe(200);
    // Subscribing to existing channels needs no creation permission.
    createChannel(t, { name: 'existing one', subscribers: [] });
    expect((await subscribe('member', { subscriptions: [{ name: 'existing one' }] })).status).toBe(
      200,
    );
  });

  it('lets only administrators make default channels, and never private ones', async () => {
    expectError(
      await subscribe('member', { subscriptions: [{ name: 'dflt' }], is_default_stream: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await subscribe('admin', {
        subscriptions: [{ name: 'dflt' }],
        is_default_stream: true,
        invite_only: true,
      }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
    const res = await subscribe('admin', {
      subscriptions: [{ name: 'dflt' }],
      is_default_stream: true,
    });
    expect(res.status).toBe(200);
    const id = channelId(t, 'dflt');
    const events = await watchers.take();
    // Guests do not see default channels.
    expect(receivers(events, (e) => e.type === 'default_streams')).toEqual([
      'admin',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    expect(events.member!.find((e: Event) => e.type === 'default_streams').default_streams).toEqual(
      [id],
    );
  });

  it('creates web-public channels only when enabled and allowed, and guests learn of them', async () => {
    expectError(
      await subscribe('owner', { subscriptions: [{ name: 'open web' }], is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
    setRealmSettings(t.server.ctx.db, JSON.stringify({ enable_spectator_access: true }));
    expectError(
      await subscribe('member', { subscriptions: [{ name: 'open web' }], is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const res = await subscribe('owner', {
      subscriptions: [{ name: 'open web' }],
      is_web_public: true,
    });
    expect(res.status).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual([
      'admin',
      'guest',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    // Everyone sees a web-public channel's subscribers.
    expect(receivers(events, peerAdd)).toEqual(['admin', 'guest', 'member', 'moderator', 'other']);
  });

  it('lets only owners set a retention period', async () => {
    const res = await subscribe('member', {
      subscriptions: [{ name: 'short memory' }],
      message_retention_days: 30,
    });
    expectError(res, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(
      (
        await subscribe('owner', {
          subscriptions: [{ name: 'short memory' }],
          message_retention_days: 30,
        })
      ).status,
    ).toBe(200);
    expect(streamById(t.server.ctx.db, channelId(t, 'short memory'))!.message_retention_days).toBe(
      30,
    );
    await subscribe('owner', {
      subscriptions: [{ name: 'long memory' }],
      message_retention_days: 'unlimited',
    });
    expect(streamById(t.server.ctx.db, channelId(t, 'long memory'))!.message_retention_days).toBe(
      -1,
    );
    expectError(
      await subscribe('owner', {
        subscriptions: [{ name: 'bad memory' }],
        message_retention_days: 'forever',
      }),
      400,
      'BAD_REQUEST',
      "Bad value for 'message_retention_days': forever",
    );
  });

  it('checks topics_policy', async () => {
    expectError(
      await subscribe('member', {
        subscriptions: [{ name: 'topical' }],
        topics_policy: 'disable_empty_topic',
      }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await subscribe('moderator', {
        subscriptions: [{ name: 'topical' }],
        topics_policy: 'bogus',
      }),
      400,
      'BAD_REQUEST',
      'Invalid topics_policy',
    );
    const res = await subscribe('moderator', {
      subscriptions: [{ name: 'topical' }],
      topics_policy: 'disable_empty_topic',
    });
    expect(res.status).toBe(200);
    expect(streamById(t.server.ctx.db, channelId(t, 'topical'))!.topics_policy).toBe(
      'disable_empty_topic',
    );
  });
});

describe('permission groups at creation', () => {
  const create = (name: string, settings: Record<string, unknown>) =>
    subscribe('admin', { subscriptions: [{ name }], ...settings });
  const channel = async (name: string) =>
    (await t.as('admin').get(`/streams/${channelId(t, name)}`)).body.stream;

  it('takes group ids and anonymous groups', async () => {
    await create('announce', {
      can_send_message_group: groupId('role:administrators'),
      can_remove_subscribers_group: {
        direct_members: [other.id],
        direct_subgroups: [groupId('role:moderators')],
      },
      // An anonymous group of one subgroup is that group; an empty one is Nobody.
      can_add_subscribers_group: {
        direct_members: [],
        direct_subgroups: [groupId('role:members')],
      },
      can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    });
    const stream = await channel('announce');
    expect(stream).toMatchObject({
      can_send_message_group: groupId('role:administrators'),
      stream_post_policy: 2,
      is_announcement_only: true,
      can_remove_subscribers_group: {
        direct_members: [other.id],
        direct_subgroups: [groupId('role:moderators')],
      },
      can_add_subscribers_group: groupId('role:members'),
      can_subscribe_group: groupId('role:nobody'),
    });
  });

  it('refuses unusable groups', async () => {
    expectError(
      await create('g1', { can_send_message_group: groupId('role:internet') }),
      400,
      'BAD_REQUEST',
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    expectError(
      await create('g1', { can_add_subscribers_group: groupId('role:everyone') }),
      400,
      'BAD_REQUEST',
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await create('g1', { can_send_message_group: 99999 }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await create('g1', {
        can_send_message_group: { direct_members: [99999], direct_subgroups: [] },
      }),
      400,
      'BAD_REQUEST',
      'Invalid user ID: 99999',
    );
    expectError(
      await create('g1', {
        can_send_message_group: { direct_members: [other.id], direct_subgroups: [99999] },
      }),
      400,
      'BAD_REQUEST',
      'Invalid user group ID: 99999',
    );
  });
});

describe('POST /channels/create', () => {
  it('creates a channel with the given subscribers and returns its id', async () => {
    const res = await t.as('member').post('/channels/create', {
      name: 'Project X',
      description: 'All about **X**',
      subscribers: [t.accounts.member.id, other.id],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: channelId(t, 'project x') });
    const events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual([
      'admin',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    expect(receivers(events, subAdd)).toEqual(['member', 'other']);
    const members = await t.as('member').get(`/streams/${res.body.id}/members`);
    expect(members.body.subscribers).toEqual(
      [t.accounts.member.id, other.id].sort((a, b) => a - b),
    );
  });

  it('may leave the creator out and create an empty channel', async () => {
    const res = await t
      .as('member')
      .post('/channels/create', { name: 'empty hall', subscribers: [] });
    expect(res.status).toBe(200);
    const members = await t.as('member').get(`/streams/${res.body.id}/members`);
    expect(members.body.subscribers).toEqual([]);
  });

  it('answers 409 for a name that exists, in any case', async () => {
    createChannel(t, { name: 'Taken', subscribers: [] });
    const res = await t.as('member').post('/channels/create', { name: 'taken', subscribers: [] });
    expectError(res, 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'taken' already exists");
  });

  it('checks the subscribers and the creation permissions', async () => {
    expectError(
      await t.as('member').post('/channels/create', { name: 'nobody here', subscribers: [99999] }),
      400,
      'BAD_REQUEST',
      'Invalid user ID: 99999',
    );
    expectError(
      await t.as('guest').post('/channels/create', { name: 'guest room', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('member').post('/channels/create', { name: '', subscribers: [] }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
  });
});
