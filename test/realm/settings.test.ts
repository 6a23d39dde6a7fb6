import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateOrganization } from '../../server/realm/index.js';
import { Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let general: number;
const groupId = (name: string) =>
  (
    t.server.ctx.db.prepare('SELECT id FROM user_groups WHERE name = ?').get(name) as {
      id: number;
    }
  ).id;

beforeAll(async () => {
  t = await startTestServer();
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
  watchers = new Watchers(t, { event_types: ['realm'] });
  for (const name of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
    await watchers.add(name);
  }
  await watchers.clear();
});
afterAll(() => t.close());

const ALL_ACTIVE = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

async function patchOk(params: Record<string, unknown>, who: 'owner' | 'admin' = 'owner') {
  const res = await t.as(who).patch('/realm', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Every queue's realm events; the active users' must all equal `expected`, the rest none. */
async function expectRealmEvents(expected: Record<string, unknown>[]) {
  const events = await watchers.take('realm');
  for (const name of ALL_ACTIVE) {
    expect(
      events[name]!.map(({ id: _id, ...rest }) => rest),
      name,
    ).toEqual(expected);
  }
}

async function registerState(who: 'member' | 'owner' = 'member') {
  const res = await t.as(who).post('/register', { fetch_event_types: ['realm'] });
  expect(res.status).toBe(200);
  return res.body;
}

describe('who may change settings', () => {
  it.each(['member', 'moderator', 'guest', 'bot'] as const)(
    '%s gets the admin error',
    async (who) => {
      const res = await t.as(who).patch('/realm', { allow_edit_history: false });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        result: 'error',
        code: 'UNAUTHORIZED_PRINCIPAL',
        msg: 'Must be an organization administrator',
      });
    },
  );

  it.each([
    ['waiting_period_threshold', 5],
    ['emails_restricted_to_domains', true],
    ['can_invite_users_group', { new: 0 }],
    ['can_create_groups', { new: 0 }],
    ['can_manage_all_groups', { new: 0 }],
    ['create_multiuse_invite_group', { new: 0 }],
  ])('an admin may not change owner-only %s', async (name, value) => {
    const v =
      typeof value === 'object' ? { new: groupId('role:administrators') } : (value as unknown);
    const res = await t.as('admin').patch('/realm', { [name]: v });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization owner',
    });
    await expectRealmEvents([]);
  });

  it('an admin changes an admin setting; an owner an owner-only one', async () => {
    expect(await patchOk({ enable_read_receipts: true }, 'admin')).toMatchObject({
      result: 'success',
      enable_read_receipts: true,
    });
    await expectRealmEvents([
      { type: 'realm', op: 'update', property: 'enable_read_receipts', value: true },
    ]);
    expect(await patchOk({ waiting_period_threshold: 7 })).toMatchObject({
      waiting_period_threshold: 7,
    });
    await expectRealmEvents([
      { type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 7 },
    ]);
    expect((await registerState()).realm_waiting_period_threshold).toBe(7);
  });
});

describe('validation', () => {
  it.each([
    [{ name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
    [{ description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
    [{ name: '   ' }, "Organization name can't be empty."],
    [{ allow_edit_history: 'maybe' }, undefined],
    [{ allow_message_editing: 3 }, 'allow_message_editing is not a boolean'],
    [{ mandatory_topics: 'yes' }, undefined],
    [{ enable_read_receipts: 1 }, 'enable_read_receipts is not a boolean'],
    [{ emails_restricted_to_domains: 0 }, 'emails_restricted_to_domains is not a boolean'],
    [{ waiting_period_threshold: -1 }, 'Invalid waiting_period_threshold'],
    [{ waiting_period_threshold: 'soon' }, undefined],
    [{ topics_policy: 'inherit' }, 'Invalid topics_policy'],
    [
      { message_edit_history_visibility_policy: 'some' },
      'Invalid message_edit_history_visibility_policy',
    ],
    [
      { message_content_edit_limit_seconds: 0 },
      "Bad value for 'message_content_edit_limit_seconds': 0",
    ],
    [
      { message_content_delete_limit_seconds: -5 },
      "Bad value for 'message_content_delete_limit_seconds': -5",
    ],
    [
      { move_messages_within_stream_limit_seconds: JSON.stringify('forever') },
      "Bad value for 'move_messages_within_stream_limit_seconds': forever",
    ],
    [
      { move_messages_between_streams_limit_seconds: JSON.stringify('never') },
      "Bad value for 'move_messages_between_streams_limit_seconds': never",
    ],
    [{ can_mention_many_users_group: { new: 999999 } }, 'Invalid user group'],
    [{ can_resolve_topics_group: { new: 5 }, __internet: true }, undefined],
    [{ can_delete_own_message_group: 7 }, undefined],
    [
      {
        direct_message_permission_group: {
          new: { direct_members: [999999], direct_subgroups: [] },
        },
      },
      'Invalid user ID: 999999',
    ],
    [
      {
        direct_message_initiator_group: {
          new: { direct_members: [], direct_subgroups: [999999, 998] },
        },
      },
      'Invalid user group ID: 998',
    ],
  ])('%j is refused', async (params, msg) => {
    const { __internet, ...rest } = params as Record<string, unknown>;
    const body = __internet
      ? { can_resolve_topics_group: { new: groupId('role:internet') } }
      : rest;
    const res = await t.as('owner').patch('/realm', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.result).toBe('error');
    expect(res.body.code).toBe('BAD_REQUEST');
    if (__internet) {
      expect(res.body.msg).toBe(
        "'can_resolve_topics_group' setting cannot be set to 'role:internet' group.",
      );
    } else if (msg !== undefined) {
      expect(res.body.msg).toBe(msg);
    } else {
      expect(res.body.msg).toMatch(/\S/);
    }
    await expectRealmEvents([]);
  });

  it.each([
    'can_add_subscribers_group',
    'can_create_public_channel_group',
    'can_create_private_channel_group',
    'can_create_web_public_channel_group',
    'can_delete_any_message_group',
    'can_move_messages_between_channels_group',
    'can_set_delete_message_policy_group',
    'can_set_topics_policy_group',
    'can_invite_users_group',
  ])('%s refuses role:everyone', async (name) => {
    const res = await t.as('owner').patch('/realm', { [name]: { new: groupId('role:everyone') } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(`'${name}' setting cannot be set to 'role:everyone' group.`);
  });

  it('a stale old value is EXPECTATION_MISMATCH and changes nothing', async () => {
    const res = await t.as('owner').patch('/realm', {
      allow_edit_history: false,
      can_resolve_topics_group: {
        new: groupId('role:members'),
        old: groupId('role:administrators'),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'EXPECTATION_MISMATCH',
      msg: "'old' value does not match the expected value.",
    });
    await expectRealmEvents([]);
    const state = await registerState();
    expect(state.realm_allow_edit_history).toBe(true);
    expect(state.realm_can_resolve_topics_group).toBe(groupId('role:everyone'));
  });
});

describe('events, response and register state', () => {
  it('name and description: update events, "updated" in the response', async () => {
    const body = await patchOk({ name: 'Hearth Org', description: 'About us' }, 'admin');
    expect(body).toMatchObject({ name: 'updated', description: 'updated' });
    await expectRealmEvents([
      { type: 'realm', op: 'update', property: 'name', value: 'Hearth Org' },
      { type: 'realm', op: 'update', property: 'description', value: 'About us' },
    ]);
    const state = await registerState();
    expect(state.realm_name).toBe('Hearth Org');
    expect(state.realm_description).toBe('About us');
    expect((await t.as('member').get('/server_settings')).body.realm_name).toBe('Hearth Org');
  });

  it('server_settings gives the description rendered, as Zulip does; register gives its source', async () => {
    await patchOk({ description: 'We **ship** things. See https://example.com' }, 'admin');
    const settings = await t.anonymous().get('/server_settings');
    expect(settings.status).toBe(200);
    expect(settings.body.realm_description).toBe(
      '<p>We <strong>ship</strong> things. See <a href="https://example.com">https://example.com</a></p>',
    );
    expect((await registerState()).realm_description).toBe(
      'We **ship** things. See https://example.com',
    );
    await patchOk({ description: '' }, 'admin');
    expect((await t.anonymous().get('/server_settings')).body.realm_description).toBe('');
    await patchOk({ description: 'About us' }, 'admin');
    await expectRealmEvents(
      ['We **ship** things. See https://example.com', '', 'About us'].map((value) => ({
        type: 'realm',
        op: 'update',
        property: 'description',
        value,
      })),
    );
  });

  it('an unchanged value sends nothing and reports nothing', async () => {
    const body = await patchOk({ allow_message_editing: true, name: 'Hearth Org' });
    expect(body).toEqual({ result: 'success', msg: '' });
    await expectRealmEvents([]);
  });

  it('message editing settings use update_dict; limits take "unlimited"', async () => {
    const body = await patchOk({
      allow_message_editing: false,
      message_content_edit_limit_seconds: JSON.stringify('unlimited'),
      message_content_delete_limit_seconds: 120,
      move_messages_within_stream_limit_seconds: 3600,
      move_messages_between_streams_limit_seconds: JSON.stringify('unlimited'),
    });
    expect(body).toMatchObject({
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
      message_content_delete_limit_seconds: 120,
      move_messages_within_stream_limit_seconds: 3600,
      move_messages_between_streams_limit_seconds: null,
    });
    await expectRealmEvents([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { allow_message_editing: false },
      },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { message_content_edit_limit_seconds: null },
      },
      { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 120 },
      {
        type: 'realm',
        op: 'update',
        property: 'move_messages_within_stream_limit_seconds',
        value: 3600,
      },
      {
        type: 'realm',
        op: 'update',
        property: 'move_messages_between_streams_limit_seconds',
        value: null,
      },
    ]);
    const state = await registerState();
    expect(state).toMatchObject({
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: null,
      realm_message_content_delete_limit_seconds: 120,
      realm_move_messages_within_stream_limit_seconds: 3600,
      realm_move_messages_between_streams_limit_seconds: null,
    });
    await patchOk({ allow_message_editing: true });
    await watchers.clear();
  });

  it('group settings: update_dict with the group id or the anonymous group', async () => {
    const admins = groupId('role:administrators');
    const body = await patchOk({
      can_resolve_topics_group: { new: admins, old: groupId('role:everyone') },
      can_mention_many_users_group: {
        new: { direct_members: [t.accounts.member.id], direct_subgroups: [admins] },
      },
      can_add_subscribers_group: { new: { direct_members: [], direct_subgroups: [admins] } },
    });
    expect(body).toMatchObject({
      can_resolve_topics_group: admins,
      can_add_subscribers_group: admins,
    });
    const anonymous = { direct_members: [t.accounts.member.id], direct_subgroups: [admins] };
    await expectRealmEvents([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_add_subscribers_group: admins },
      },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_mention_many_users_group: anonymous },
      },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_resolve_topics_group: admins },
      },
    ]);
    const state = await registerState();
    expect(state.realm_can_resolve_topics_group).toBe(admins);
    expect(state.realm_can_mention_many_users_group).toEqual(anonymous);
    expect(state.realm_can_add_subscribers_group).toBe(admins);
  });

  it('topics_policy and mandatory_topics change together, as update_dict', async () => {
    expect(await patchOk({ topics_policy: 'disable_empty_topic' }, 'admin')).toMatchObject({
      topics_policy: 'updated',
    });
    await expectRealmEvents([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { topics_policy: 'disable_empty_topic', mandatory_topics: true },
      },
    ]);
    expect(await registerState()).toMatchObject({
      realm_topics_policy: 'disable_empty_topic',
      realm_mandatory_topics: true,
    });
    expect(await patchOk({ mandatory_topics: false })).toMatchObject({ mandatory_topics: false });
    await expectRealmEvents([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { topics_policy: 'allow_empty_topic', mandatory_topics: false },
      },
    ]);
  });
});

describe('the code that reads a setting honours the change', () => {
  it('allow_edit_history=false refuses edit history', async () => {
    const sent = await t.as('member').post('/messages', {
      type: 'stream',
      to: general,
      topic: 'history',
      content: 'hello',
    });
    expect(sent.status).toBe(200);
    const url = `/messages/${sent.body.id}/history`;
    expect((await t.as('member').get(url)).status).toBe(200);
    await patchOk({ allow_edit_history: false });
    await expectRealmEvents([
      { type: 'realm', op: 'update', property: 'allow_edit_history', value: false },
    ]);
    const res = await t.as('member').get(url);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Message edit history is disabled in this organization');
    expect((await registerState()).realm_allow_edit_history).toBe(false);
    await patchOk({ allow_edit_history: true });
    await watchers.clear();
  });

  it('mandatory_topics refuses the empty topic', async () => {
    const send = () =>
      t.as('member').post('/messages', { type: 'stream', to: general, topic: '', content: 'x' });
    expect((await send()).status).toBe(200);
    await patchOk({ mandatory_topics: true });
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Topics are required in this organization');
    await patchOk({ mandatory_topics: false });
    expect((await send()).status).toBe(200);
    await watchers.clear();
  });

  it('can_create_public_channel_group restricts channel creation', async () => {
    const create = (name: string) =>
      t.as('member').post('/users/me/subscriptions', { subscriptions: [{ name }] });
    await patchOk({
      can_create_public_channel_group: { new: groupId('role:administrators') },
    });
    const res = await create('not allowed');
    expect(res.status).toBe(400);
    await patchOk({ can_create_public_channel_group: { new: groupId('role:members') } });
    expect((await create('allowed')).status).toBe(200);
    await watchers.clear();
  });
});

describe('deactivating the organization', () => {
  let d: TestServer;
  beforeAll(async () => {
    d = await startTestServer();
  });
  afterAll(() => d.close());

  it('sends realm deactivated, then every request answers REALM_DEACTIVATED', async () => {
    const w = new Watchers(d, { event_types: ['realm'] });
    await w.add('member');
    await w.add('owner');
    expect(deactivateOrganization(d.server.ctx)).toBe(true);
    expect(deactivateOrganization(d.server.ctx)).toBe(false);
    for (const who of ['owner', 'member', 'bot'] as const) {
      const res = await d.as(who).get('/users/me');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'REALM_DEACTIVATED' });
    }
    const res = await d.as('owner').patch('/realm', { name: 'back' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('REALM_DEACTIVATED');
  });
});
