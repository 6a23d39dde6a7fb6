/**
 * Reading channels: GET /streams with every source parameter, guests and
 * private channels; GET /streams/{id}, /get_stream_id, members and a user's
 * subscription status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDefaultStream } from '../../server/db/queries/default-streams.js';
import { setStreamArchived } from '../../server/db/queries/streams.js';
import { expectError } from '../api/support.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  const { member, guest, admin, owner } = t.accounts;
  ids.zeta = createChannel(t, { name: 'Zeta', subscribers: [member.id] });
  ids.alpha = createChannel(t, { name: 'alpha', subscribers: [] });
  ids.beta = createChannel(t, { name: 'Beta private', private: true, subscribers: [member.id] });
  ids.secret = createChannel(t, { name: 'secret', private: true, subscribers: [owner.id] });
  ids.web = createChannel(t, { name: 'web', webPublic: true, subscribers: [] });
  ids.guestroom = createChannel(t, { name: 'guestroom', subscribers: [guest.id, admin.id] });
  ids.old = createChannel(t, { name: 'old', subscribers: [member.id] });
  setStreamArchived(t.server.ctx.db, ids.old!, true);
  addDefaultStream(t.server.ctx.db, ids.alpha!);
});
afterAll(() => t.close());

const names = (body: { streams: Array<{ name: string }> }) => body.streams.map((s) => s.name);

describe('GET /streams', () => {
  it('lists public and subscribed channels, sorted by name as Zulip sorts strings', async () => {
    const res = await t.as('member').get('/streams');
    expect(res.status).toBe(200);
    // Upper case sorts before lower case (code point order).
    expect(names(res.body)).toEqual(['Beta private', 'Zeta', 'alpha', 'guestroom', 'web']);
  });

  it('returns the full channel object', async () => {
    const res = await t.as('member').get('/streams');
    const zeta = res.body.streams.find((s: { name: string }) => s.name === 'Zeta');
    expect(Object.keys(zeta).sort()).toEqual(
      [
        'stream_id',
        'name',
        'is_archived',
        'description',
        'rendered_description',
        'date_created',
        'creator_id',
        'invite_only',
        'is_web_public',
        'stream_post_policy',
        'is_announcement_only',
        'message_retention_days',
        'history_public_to_subscribers',
        'topics_policy',
        'first_message_id',
        'folder_id',
        'is_recently_active',
        'stream_weekly_traffic',
        'subscriber_count',
        'can_add_subscribers_group',
        'can_administer_channel_group',
        'can_delete_any_message_group',
        'can_delete_own_message_group',
        'can_move_messages_out_of_channel_group',
        'can_move_messages_within_channel_group',
        'can_remove_subscribers_group',
        'can_resolve_topics_group',
        'can_send_message_group',
        'can_subscribe_group',
      ].sort(),
    );
    expect(zeta).toMatchObject({
      stream_id: ids.zeta,
      invite_only: false,
      is_archived: false,
      subscriber_count: 1,
      stream_post_policy: 1,
      topics_policy: 'inherit',
      description: 'About Zeta',
    });
  });

  it('honours include_public and include_subscribed', async () => {
    let res = await t.as('member').get('/streams', { include_public: false });
    expect(names(res.body)).toEqual(['Beta private', 'Zeta']);
    res = await t.as('member').get('/streams', { include_subscribed: false });
    expect(names(res.body)).toEqual(['Zeta', 'alpha', 'guestroom', 'web']);
    res = await t.as('member').get('/streams', {
      include_public: false,
      include_subscribed: false,
    });
    expect(res.body.streams).toEqual([]);
  });

  it('shows guests only their channels, plus web-public ones when asked', async () => {
    let res = await t.as('guest').get('/streams');
    expect(names(res.body)).toEqual(['guestroom']);
    res = await t.as('guest').get('/streams', { include_web_public: true });
    expect(names(res.body)).toEqual(['guestroom', 'web']);
  });

  it('include_all lists every channel the user may know of (all of them for admins)', async () => {
    let res = await t.as('admin').get('/streams', { include_all: true });
    expect(names(res.body)).toEqual([
      'Beta private',
      'Zeta',
      'alpha',
      'guestroom',
      'secret',
      'web',
    ]);
    res = await t.as('member').get('/streams', { include_all: true });
    expect(names(res.body)).toEqual(['Beta private', 'Zeta', 'alpha', 'guestroom', 'web']);
    // The legacy name does the same.
    res = await t.as('admin').get('/streams', { include_all_active: true });
    expect(names(res.body)).toContain('secret');
  });

  it('exclude_archived=false adds archived channels', async () => {
    const res = await t.as('member').get('/streams', { exclude_archived: false });
    expect(names(res.body)).toContain('old');
    const old = res.body.streams.find((s: { name: string }) => s.name === 'old');
    expect(old.is_archived).toBe(true);
  });

  it('include_default marks default channels', async () => {
    const res = await t.as('member').get('/streams', { include_default: true });
    for (const stream of res.body.streams) {
      expect(stream.is_default).toBe(stream.name === 'alpha');
    }
    const plain = await t.as('member').get('/streams');
    expect(plain.body.streams[0]).not.toHaveProperty('is_default');
  });

  it('include_can_access_content leaves out private channels an admin is not in', async () => {
    const res = await t.as('admin').get('/streams', { include_can_access_content: true });
    expect(names(res.body)).toEqual(['Zeta', 'alpha', 'guestroom', 'web']);
  });

  it("include_owner_subscribed adds a bot owner's channels", async () => {
    let res = await t.as('bot').get('/streams', { include_public: false });
    expect(res.body.streams).toEqual([]);
    res = await t.as('bot').get('/streams', {
      include_public: false,
      include_owner_subscribed: true,
    });
    expect(names(res.body)).toEqual(['Beta private', 'Zeta']);
  });

  it('rejects a non-boolean flag', async () => {
    const res = await t.as('member').get('/streams', { include_public: 'yes' });
    expectError(res, 400, 'BAD_REQUEST', 'include_public is not valid JSON');
  });
});

describe('GET /streams/{stream_id}', () => {
  it('returns a channel the user may see', async () => {
    const res = await t.as('member').get(`/streams/${ids.beta}`);
    expect(res.status).toBe(200);
    expect(res.body.stream).toMatchObject({ stream_id: ids.beta, invite_only: true });
  });

  it('lets an administrator see a private channel they are not in', async () => {
    const res = await t.as('admin').get(`/streams/${ids.secret}`);
    expect(res.status).toBe(200);
    expect(res.body.stream.name).toBe('secret');
  });

  it('answers "Invalid channel ID" for hidden, archived and missing channels alike', async () => {
    for (const [who, id] of [
      ['member', ids.secret],
      ['guest', ids.zeta],
      ['member', ids.old],
      ['member', 99999],
    ] as const) {
      expectError(await t.as(who).get(`/streams/${id}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    }
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel by name, ignoring case', async () => {
    const res = await t.as('member').get('/get_stream_id', { stream: 'zeta' });
    expect(res.body.stream_id).toBe(ids.zeta);
  });

  it('needs content access: an admin cannot look up a private channel by name', async () => {
    for (const who of ['admin', 'member'] as const) {
      expectError(
        await t.as(who).get('/get_stream_id', { stream: 'secret' }),
        400,
        'BAD_REQUEST',
        "Invalid channel name 'secret'",
      );
    }
    expectError(
      await t.as('member').get('/get_stream_id', { stream: 'nonexistent' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'nonexistent'",
    );
  });

  it('requires the stream parameter', async () => {
    // The reference documents only the invalid-name error for this endpoint.
    const res = await t.as('member').get('/get_stream_id', {}, { skipSchema: true });
    expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream' argument", {
      var_name: 'stream',
    });
  });
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists the subscribers', async () => {
    const res = await t.as('member').get(`/streams/${ids.guestroom}/members`);
    expect(res.body.subscribers).toEqual([t.accounts.admin.id, t.accounts.guest.id].sort());
  });

  it('needs metadata access', async () => {
    expectError(
      await t.as('member').get(`/streams/${ids.secret}/members`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    const res = await t.as('admin').get(`/streams/${ids.secret}/members`);
    expect(res.body.subscribers).toEqual([t.accounts.owner.id]);
  });

  it('ignores the stream parameter the python bindings add', async () => {
    const res = await t.as('member').get(`/streams/${ids.zeta}/members`, { stream: 'Zeta' });
    expect(res.body.subscribers).toEqual([t.accounts.member.id]);
    expect(res.body.ignored_parameters_unsupported).toEqual(['stream']);
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it("reports another user's subscription", async () => {
    let res = await t.as('admin').get(`/users/${t.accounts.member.id}/subscriptions/${ids.zeta}`);
    expect(res.body.is_subscribed).toBe(true);
    res = await t.as('admin').get(`/users/${t.accounts.member.id}/subscriptions/${ids.alpha}`);
    expect(res.body.is_subscribed).toBe(false);
  });

  it('needs metadata access to the channel and a real user', async () => {
    expectError(
      await t.as('member').get(`/users/${t.accounts.owner.id}/subscriptions/${ids.secret}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('member').get(`/users/99999/subscriptions/${ids.zeta}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});
