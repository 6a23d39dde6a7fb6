/**
 * PATCH /streams/{stream_id} (name, description, privacy, defaults,
 * retention, topics policy, permission groups, unarchiving) and DELETE
 * /streams/{stream_id} (archiving), with their events and recipients.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isDefaultStream } from '../../server/db/queries/default-streams.js';
import { setRealmSettings } from '../../server/db/queries/realm.js';
import { streamById } from '../../server/db/queries/streams.js';
import { groupByName } from '../../server/db/queries/user-groups.js';
import { expectError } from '../api/support.js';
import { isEvent, receivers, type Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { type Account, startTestServer, type TestServer } from '../helpers/server.js';
import { channelId, subscribeAs, watchEveryone } from './support.js';

let t: TestServer;
let other: Account;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  ({ other, watchers } = await watchEveryone(t));
  await watchers.add('otherArchiving', other, {
    client_capabilities: { archived_channels: true },
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  setRealmSettings(t.server.ctx.db, '{}');
  await watchers.clear();
});

const groupId = (name: string) => groupByName(t.server.ctx.db, name)!.id;
const update = (property: string) => isEvent('stream', 'update', (e) => e.property === property);
const streamCreate = isEvent('stream', 'create');
const streamDelete = isEvent('stream', 'delete');
const peerAdd = isEvent('subscription', 'peer_add');
const patch = (
  who: 'member' | 'admin' | 'owner' | 'moderator' | 'guest',
  id: number,
  params: Record<string, unknown>,
) => t.as(who).patch(`/streams/${id}`, params);

/** A public channel the member created (and so administers), with the guest subscribed. */
async function memberChannel(name: string): Promise<number> {
  await subscribeAs(t, 'member', [name]);
  const id = channelId(t, name);
  await subscribeAs(t, 'admin', [name], { principals: [t.accounts.guest.id] });
  await watchers.clear();
  return id;
}

describe('who may change a channel', () => {
  it('administrators and the channel administrators; readers are told they may not', async () => {
    const id = createChannel(t, { name: 'plain', subscribers: [t.accounts.member.id] });
    expectError(
      await patch('member', id, { description: 'mine now' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    const hidden = createChannel(t, { name: 'hidden', private: true, subscribers: [] });
    expectError(
      await patch('member', hidden, { description: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await patch('admin', 99999, { description: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect((await patch('admin', id, { description: 'fine' })).status).toBe(200);
    const own = await memberChannel('own');
    expect((await patch('member', own, { description: 'fine too' })).status).toBe(200);
  });

  it('succeeds with nothing to change', async () => {
    const id = createChannel(t, { name: 'idle', subscribers: [] });
    const res = await patch('admin', id, {});
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });
});

describe('name and description', () => {
  it('changes the description, rendered, for everyone who sees the channel', async () => {
    const id = await memberChannel('describe me');
    const res = await patch('member', id, { description: 'New\n*words*' });
    expect(res.status).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, update('description'))).toEqual([
      'admin',
      'guest',
      'member',
      'moderator',
      'other',
      'otherArchiving',
      'owner',
    ]);
    expect(events.owner!.find(update('description'))).toEqual({
      id: expect.any(Number),
      type: 'stream',
      op: 'update',
      stream_id: id,
      name: 'describe me',
      property: 'description',
      value: 'New *words*',
      rendered_description: '<p>New <em>words</em></p>',
    });
    expectError(
      await patch('member', id, { description: 'x'.repeat(1025) }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1024 characters)',
    );
  });

  it('renames, naming the old name in the event', async () => {
    const id = await memberChannel('old name');
    expect((await patch('member', id, { new_name: ' New Name ' })).status).toBe(200);
    const events = await watchers.take();
    expect(events.member!.find(update('name'))).toMatchObject({
      stream_id: id,
      name: 'old name',
      value: 'New Name',
    });
    expect(streamById(t.server.ctx.db, id)!.name).toBe('New Name');
    // A change of case only is allowed; the same name is not.
    expect((await patch('member', id, { new_name: 'new name' })).status).toBe(200);
    expectError(
      await patch('member', id, { new_name: 'new name' }),
      400,
      'BAD_REQUEST',
      'Channel already has that name.',
    );
    createChannel(t, { name: 'Occupied', subscribers: [] });
    expectError(
      await patch('member', id, { new_name: 'occupied' }),
      409,
      'CHANNEL_ALREADY_EXISTS',
      "Channel 'occupied' already exists",
    );
    expectError(
      await patch('member', id, { new_name: '   ' }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
  });
});

describe('privacy', () => {
  it('making a channel private: history becomes protected, non-subscribers lose it', async () => {
    const id = await memberChannel('closing');
    expect((await patch('member', id, { is_private: true })).status).toBe(200);
    const row = streamById(t.server.ctx.db, id)!;
    expect([row.invite_only, row.history_public_to_subscribers]).toEqual([1, 0]);
    const events = await watchers.take();
    // Subscribers (member, guest) and administrators keep seeing it.
    expect(receivers(events, update('invite_only'))).toEqual(['admin', 'guest', 'member', 'owner']);
    expect(events.member!.find(update('invite_only'))).toMatchObject({
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
    });
    expect(receivers(events, streamDelete)).toEqual(['moderator', 'other', 'otherArchiving']);
  });

  it('making a channel public: newcomers get the channel and its subscribers', async () => {
    const id = createChannel(t, {
      name: 'opening',
      private: true,
      subscribers: [t.accounts.member.id, t.accounts.guest.id, t.accounts.admin.id],
    });
    expect((await patch('admin', id, { is_private: false })).status).toBe(200);
    expect(streamById(t.server.ctx.db, id)!.history_public_to_subscribers).toBe(1);
    const events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual(['moderator', 'other', 'otherArchiving']);
    expect(receivers(events, peerAdd)).toEqual(['moderator', 'other', 'otherArchiving']);
    expect(events.moderator!.find(peerAdd).user_ids).toEqual(
      [t.accounts.member.id, t.accounts.guest.id, t.accounts.admin.id].sort((a, b) => a - b),
    );
    expect(receivers(events, update('invite_only'))).toEqual(['admin', 'guest', 'member', 'owner']);
  });

  it('refuses impossible combinations', async () => {
    const id = createChannel(t, { name: 'rules', subscribers: [t.accounts.admin.id] });
    expectError(
      await patch('admin', id, { history_public_to_subscribers: false }),
      400,
      'BAD_REQUEST',
      'Invalid parameters',
    );
    expectError(
      await patch('admin', id, { is_private: true, is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Invalid parameters',
    );
    expectError(
      await patch('admin', id, { is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
    expect(
      (await patch('admin', id, { is_private: true, history_public_to_subscribers: true })).status,
    ).toBe(200);
    expect(streamById(t.server.ctx.db, id)!.history_public_to_subscribers).toBe(1);
  });

  it('keeps default channels public', async () => {
    const id = createChannel(t, { name: 'lobby default', subscribers: [t.accounts.admin.id] });
    expect((await patch('admin', id, { is_default_stream: true })).status).toBe(200);
    expectError(
      await patch('admin', id, { is_private: true }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
  });

  it('needs content access and the right to create that kind of channel', async () => {
    const id = createChannel(t, { name: 'unseen', private: true, subscribers: [] });
    expectError(
      await patch('admin', id, { is_private: false }),
      400,
      'BAD_REQUEST',
      'Channel content access is required.',
    );
    const own = await memberChannel('creators own');
    setRealmSettings(
      t.server.ctx.db,
      JSON.stringify({ can_create_private_channel_group: 'role:administrators' }),
    );
    expectError(
      await patch('member', own, { is_private: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });
});

describe('other settings', () => {
  it('default channels are for administrators to set', async () => {
    const id = await memberChannel('maybe default');
    expectError(
      await patch('member', id, { is_default_stream: true }),
      400,
      'BAD_REQUEST',
      'You do not have permission to change default channels.',
    );
    expect((await patch('admin', id, { is_default_stream: true })).status).toBe(200);
    expect(isDefaultStream(t.server.ctx.db, id)).toBe(true);
    const events = await watchers.take();
    expect(receivers(events, (e) => e.type === 'default_streams')).not.toContain('guest');
    expect(
      events.member!.find((e: { type: string }) => e.type === 'default_streams').default_streams,
    ).toContain(id);
  });

  it('retention is for owners', async () => {
    const id = await memberChannel('retained');
    expectError(
      await patch('admin', id, { message_retention_days: 10 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expect((await patch('owner', id, { message_retention_days: 10 })).status).toBe(200);
    const events = await watchers.take();
    expect(events.member!.find(update('message_retention_days')).value).toBe(10);
    expect((await patch('owner', id, { message_retention_days: 'realm_default' })).status).toBe(
      200,
    );
    expect(streamById(t.server.ctx.db, id)!.message_retention_days).toBeNull();
  });

  it('topics_policy needs the organization permission', async () => {
    const id = await memberChannel('topics here');
    expectError(
      await patch('member', id, { topics_policy: 'empty_topic_only' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await patch('admin', id, { topics_policy: 'empty_topic_only' })).status).toBe(200);
    const events = await watchers.take();
    expect(events.guest!.find(update('topics_policy')).value).toBe('empty_topic_only');
  });

  it('folders do not exist yet', async () => {
    const id = await memberChannel('no folders');
    expectError(
      await patch('member', id, { folder_id: 3 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    expect((await patch('member', id, { folder_id: null })).status).toBe(200);
  });
});

describe('permission groups', () => {
  it('changes a setting in {new, old} form, with the legacy posting-policy events', async () => {
    const id = await memberChannel('announcements');
    const admins = groupId('role:administrators');
    expectError(
      await patch('member', id, {
        can_send_message_group: { new: admins, old: groupId('role:members') },
      }),
      400,
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    const res = await patch('member', id, {
      can_send_message_group: { new: admins, old: groupId('role:everyone') },
    });
    expect(res.status).toBe(200);
    const events = await watchers.take();
    const mine = events
      .member!.filter((e) => e.type === 'stream')
      .map((e) => [e.property, e.value]);
    expect(mine).toEqual([
      ['can_send_message_group', admins],
      ['stream_post_policy', 2],
      ['is_announcement_only', true],
    ]);
    // The same value again changes nothing and says nothing.
    await patch('member', id, { can_send_message_group: { new: admins } });
    expect((await watchers.take()).member).toEqual([]);
    // Posting follows the setting.
    const post = await t.as('member').post('/messages', {
      type: 'stream',
      to: 'announcements',
      topic: 'x',
      content: 'hello',
    });
    expect(post.body.msg).toBe('You do not have permission to post in this channel.');
  });

  it('a group that grants metadata access brings the channel to its new members, and takes it away', async () => {
    const id = createChannel(t, {
      name: 'club',
      private: true,
      subscribers: [t.accounts.member.id],
    });
    const moderators = { direct_members: [t.accounts.moderator.id], direct_subgroups: [] };
    // Content access is needed for this setting, so the unsubscribed admin may not.
    expectError(
      await patch('admin', id, { can_subscribe_group: { new: moderators } }),
      400,
      'BAD_REQUEST',
      'Channel content access is required.',
    );
    // A subscriber brings the owner in, who then has content access.
    await subscribeAs(t, 'member', ['club'], { principals: [t.accounts.owner.id] });
    await watchers.clear();
    expect((await patch('owner', id, { can_subscribe_group: { new: moderators } })).status).toBe(
      200,
    );
    let events = await watchers.take();
    expect(receivers(events, streamCreate)).toEqual(['moderator']);
    expect(events.moderator!.find(peerAdd).user_ids).toEqual(
      [t.accounts.owner.id, t.accounts.member.id].sort((a, b) => a - b),
    );
    expect(receivers(events, update('can_subscribe_group'))).toEqual(['admin', 'member', 'owner']);
    expect(events.member!.find(update('can_subscribe_group')).value).toEqual(moderators);

    expect(
      (await patch('owner', id, { can_subscribe_group: { new: groupId('role:nobody') } })).status,
    ).toBe(200);
    events = await watchers.take();
    expect(receivers(events, streamDelete)).toEqual(['moderator']);
  });
});

describe('archiving and unarchiving', () => {
  const archived = update('is_archived');

  it('archives: clients that know archived channels keep it, others forget it', async () => {
    const id = await memberChannel('to archive');
    expectError(
      await t.as('moderator').delete(`/streams/${id}`),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    expect((await t.as('member').delete(`/streams/${id}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    const events = await watchers.take();
    expect(receivers(events, archived)).toEqual(['otherArchiving']);
    expect(events.otherArchiving!.find(archived).value).toBe(true);
    expect(receivers(events, streamDelete)).toEqual([
      'admin',
      'guest',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    expect(events.other!.find(streamDelete)).toEqual({
      id: expect.any(Number),
      type: 'stream',
      op: 'delete',
      streams: [{ stream_id: id }],
      stream_ids: [id],
    });

    expect(
      (await t.as('member').get('/streams')).body.streams.map(
        (s: { stream_id: number }) => s.stream_id,
      ),
    ).not.toContain(id);
    expectError(
      await t.as('member').get(`/streams/${id}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('member').delete(`/streams/${id}`),
      400,
      'BAD_REQUEST',
      'Channel is already deactivated',
    );
    const post = await t.as('member').post('/messages', {
      type: 'stream',
      to: 'to archive',
      topic: 'x',
      content: 'anyone?',
    });
    expect(post.body.msg).toBe("Not authorized to send to channel 'to archive'");
  });

  it('unarchives with is_archived=false', async () => {
    const id = await memberChannel('phoenix');
    await t.as('admin').delete(`/streams/${id}`);
    await watchers.clear();
    expect((await patch('admin', id, { is_archived: false })).status).toBe(200);
    const events = await watchers.take();
    expect(events.otherArchiving!.find(archived).value).toBe(false);
    expect(receivers(events, streamCreate)).toEqual([
      'admin',
      'guest',
      'member',
      'moderator',
      'other',
      'owner',
    ]);
    expect(streamById(t.server.ctx.db, id)!.is_archived).toBe(0);
    expectError(
      await patch('admin', id, { is_archived: false }),
      400,
      'BAD_REQUEST',
      'Channel is not currently deactivated',
    );
  });

  it('will not unarchive a private channel nobody is in', async () => {
    const id = createChannel(t, { name: 'ghost town', private: true, subscribers: [] });
    await t.as('admin').delete(`/streams/${id}`);
    expectError(
      await patch('admin', id, { is_archived: false }),
      400,
      'BAD_REQUEST',
      'Channel is private and have no subscribers',
    );
  });

  it('stops being a default channel or an announcement channel', async () => {
    const id = createChannel(t, { name: 'news desk', subscribers: [] });
    await patch('admin', id, { is_default_stream: true });
    setRealmSettings(
      t.server.ctx.db,
      JSON.stringify({
        new_stream_announcements_stream_id: id,
        signup_announcements_stream_id: id,
      }),
    );
    await watchers.clear();
    await t.as('admin').delete(`/streams/${id}`);
    expect(isDefaultStream(t.server.ctx.db, id)).toBe(false);
    const events = await watchers.take();
    expect(
      events.member!.find((e: { type: string }) => e.type === 'default_streams').default_streams,
    ).not.toContain(id);
    expect(events.guest!.find(isEvent('realm', 'update_dict'))).toMatchObject({
      property: 'default',
      data: { new_stream_announcements_stream_id: -1, signup_announcements_stream_id: -1 },
    });
  });
});
