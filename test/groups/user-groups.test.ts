import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { groupByName } from '../../server/db/queries/user-groups.js';
import { isEvent, only, receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import {
  type Account,
  type ApiResponse,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let deactivatedUser: Account;
const everyone = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t, { event_types: ['user_group'] });
  for (const who of everyone) await watchers.add(who, who);
  // A client that sees deactivated groups as such.
  await watchers.add('member:deactivated', 'member', {
    client_capabilities: { include_deactivated_groups: true },
  });
  deactivatedUser = await t.createMember('Dee Deactivated');
  const res = await t.as('admin').delete(`/users/${deactivatedUser.id}`);
  expect(res.status).toBe(200);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const id = (who: FixtureName) => t.accounts[who].id;
const systemGroup = (name: string) => groupByName(t.server.ctx.db, name)!.id;
let counter = 0;
const uniqueName = () => `group ${++counter}`;

function expectError(res: ApiResponse, msg: string, code = 'BAD_REQUEST', status = 400) {
  expect(res.body).toMatchObject({ result: 'error', msg, code });
  expect(res.status).toBe(status);
}

/** Creates a group as `who` (the member by default) and returns its id. */
async function create(params: Record<string, unknown> = {}, who: FixtureName = 'member') {
  const res = await t.as(who).post('/user_groups/create', {
    name: uniqueName(),
    description: 'A group',
    members: [],
    ...params,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.group_id as number;
}

async function groupOf(groupId: number, who: FixtureName = 'owner') {
  const res = await t.as(who).get('/user_groups', { include_deactivated_groups: true });
  return res.body.user_groups.find((g: { id: number }) => g.id === groupId);
}

const membersOf = async (groupId: number, direct = false) =>
  (await t.as('owner').get(`/user_groups/${groupId}/members`, { direct_member_only: direct })).body
    .members;

describe('GET /user_groups', () => {
  it('lists system groups and, on request, deactivated ones', async () => {
    const gid = await create();
    let res = await t.as('member').get('/user_groups');
    expect(res.status).toBe(200);
    const names = res.body.user_groups.map((g: { name: string }) => g.name);
    expect(names).toContain('role:everyone');
    expect(names).toContain('role:nobody');
    const owners = res.body.user_groups.find((g: { name: string }) => g.name === 'role:owners');
    expect(owners).toMatchObject({
      is_system_group: true,
      members: [id('owner')],
      can_manage_group: systemGroup('role:nobody'),
      can_leave_group: systemGroup('role:everyone'),
    });
    expect((await t.as('member').post(`/user_groups/${gid}/deactivate`)).status).toBe(200);
    res = await t.as('member').get('/user_groups');
    expect(res.body.user_groups.some((g: { id: number }) => g.id === gid)).toBe(false);
    res = await t.as('member').get('/user_groups', { include_deactivated_groups: true });
    expect(res.body.user_groups.find((g: { id: number }) => g.id === gid).deactivated).toBe(true);
  });

  it('refuses guests and bots; deactivated users cannot authenticate', async () => {
    expectError(await t.as('guest').get('/user_groups'), 'Not allowed for guest users');
    expectError(
      await t.as('bot').get('/user_groups'),
      'This endpoint does not accept bot requests.',
    );
    const res = await t.as(deactivatedUser).get('/user_groups');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('USER_DEACTIVATED');
  });
});

describe('POST /user_groups/create', () => {
  it('creates a group the creator manages, and tells everyone', async () => {
    const name = uniqueName();
    const res = await t.as('member').post('/user_groups/create', {
      name,
      description: 'Team',
      members: [id('member'), id('guest')],
    });
    expect(res.status).toBe(200);
    const gid = res.body.group_id;
    const group = await groupOf(gid);
    expect(group).toMatchObject({
      name,
      description: 'Team',
      members: [id('member'), id('guest')],
      direct_subgroup_ids: [],
      is_system_group: false,
      creator_id: id('member'),
      deactivated: false,
      can_manage_group: { direct_members: [id('member')], direct_subgroups: [] },
      can_add_members_group: { direct_members: [id('member')], direct_subgroups: [] },
      can_join_group: systemGroup('role:nobody'),
      can_leave_group: systemGroup('role:everyone'),
      can_mention_group: systemGroup('role:everyone'),
      can_remove_members_group: systemGroup('role:nobody'),
    });
    expect(typeof group.date_created).toBe('number');
    const events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'add'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect(events.member![0].group).toEqual(group);
  });

  it('takes subgroups and group settings', async () => {
    const sub = await create();
    await watchers.clear();
    const gid = await create({
      subgroups: [sub],
      can_manage_group: systemGroup('role:moderators'),
      can_join_group: { direct_members: [id('guest')], direct_subgroups: [sub] },
      can_mention_group: { direct_members: [], direct_subgroups: [sub] },
    });
    const group = await groupOf(gid);
    expect(group).toMatchObject({
      direct_subgroup_ids: [sub],
      can_manage_group: systemGroup('role:moderators'),
      can_join_group: { direct_members: [id('guest')], direct_subgroups: [sub] },
      can_mention_group: sub,
    });
    const events = only(await watchers.take(), 'user_group');
    expect(events.owner!.map((e) => e.op)).toEqual(['add', 'add_subgroups']);
    expect(events.owner![1]).toMatchObject({ group_id: gid, direct_subgroup_ids: [sub] });
  });

  it('validates names, members, subgroups and settings', async () => {
    const post = (params: Record<string, unknown>) =>
      t.as('member').post('/user_groups/create', {
        name: uniqueName(),
        description: '',
        members: [],
        ...params,
      });
    expectError(await post({ name: '  ' }), "User group name can't be empty!");
    expectError(
      await post({ name: 'x'.repeat(101) }),
      'User group name cannot exceed 100 characters.',
    );
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
      expectError(
        await post({ name: `${prefix}x` }),
        `User group name cannot start with '${prefix}'.`,
      );
    }
    const taken = uniqueName();
    await create({ name: taken });
    expectError(await post({ name: taken }), `User group '${taken}' already exists.`);
    expectError(await post({ members: [9999] }), 'Invalid user ID: 9999');
    expectError(
      await post({ members: [deactivatedUser.id] }),
      `Invalid user ID: ${deactivatedUser.id}`,
    );
    expectError(await post({ subgroups: [9999] }), 'Invalid user group ID: 9999');
    const gone = await create();
    await t.as('owner').post(`/user_groups/${gone}/deactivate`);
    expectError(await post({ subgroups: [gone] }), 'User group is deactivated.');
    expectError(await post({ can_manage_group: 9999 }), 'Invalid user group');
    expectError(
      await post({ can_manage_group: systemGroup('role:internet') }),
      "'can_manage_group' setting cannot be set to 'role:internet' group.",
    );
    for (const setting of [
      'can_add_members_group',
      'can_join_group',
      'can_manage_group',
      'can_remove_members_group',
    ]) {
      expectError(
        await post({ [setting]: systemGroup('role:everyone') }),
        `'${setting}' setting cannot be set to 'role:everyone' group.`,
      );
    }
    expect((await post({ can_leave_group: systemGroup('role:everyone') })).status).toBe(200);
    expectError(
      await post({ can_join_group: { direct_members: [9999], direct_subgroups: [] } }),
      'Invalid user ID: 9999',
    );
    // The reference's error schema has no var_name; Zulip sends it.
    const missing = await t
      .as('member')
      .post('/user_groups/create', { name: 'x', members: [] }, { skipSchema: true });
    expectError(missing, "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING');
    expect(missing.body.var_name).toBe('description');
    expectError(await post({ members: 'nope' }), expect.any(String) as unknown as string);
  });

  it('needs can_create_groups: members and up, never guests', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'bot'] as const) {
      const res = await t.as(who).post('/user_groups/create', {
        name: uniqueName(),
        description: '',
        members: [],
      });
      expect(res.status, who).toBe(200);
    }
    const res = await t.as('guest').post('/user_groups/create', {
      name: uniqueName(),
      description: '',
      members: [],
    });
    expectError(res, 'Insufficient permission');
  });
});

describe('POST /user_groups/{id}/members and GET members', () => {
  it('adds and removes members; events go to everyone', async () => {
    const gid = await create();
    await watchers.clear();
    let res = await t.as('member').post(`/user_groups/${gid}/members`, {
      add: [id('guest'), id('moderator')],
    });
    expect(res.status).toBe(200);
    expect(await membersOf(gid)).toEqual([id('moderator'), id('guest')].sort((a, b) => a - b));
    let events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'add_members'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect(events.bot![0]).toMatchObject({
      group_id: gid,
      user_ids: [id('guest'), id('moderator')],
    });
    res = await t.as('member').post(`/user_groups/${gid}/members`, { delete: [id('guest')] });
    expect(res.status).toBe(200);
    expect(await membersOf(gid)).toEqual([id('moderator')]);
    events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'remove_members'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect(events.guest![0]).toMatchObject({ group_id: gid, user_ids: [id('guest')] });
  });

  it('refuses duplicates, non-members, unknown users and empty requests', async () => {
    const gid = await create({ members: [id('member')] });
    const post = (params: Record<string, unknown>) =>
      t.as('member').post(`/user_groups/${gid}/members`, params);
    expectError(
      await post({ add: [id('member')] }),
      `User ${id('member')} is already a member of this group`,
    );
    expectError(
      await post({ delete: [id('guest')] }),
      `There is no member '${id('guest')}' in this user group`,
    );
    expectError(await post({ add: [9999] }), 'Invalid user ID: 9999');
    expectError(await post({ delete: [9999] }), 'Invalid user ID: 9999');
    expectError(
      await post({}),
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    expectError(
      await post({ add: [] }),
      expect.stringContaining('Nothing to do') as unknown as string,
    );
    expectError(
      await t.as('member').post('/user_groups/9999/members', { add: [id('guest')] }),
      'Invalid user group',
    );
    // All or nothing: a failing part undoes the others.
    expectError(
      await post({ add: [id('guest')], delete: [id('admin')] }),
      `There is no member '${id('admin')}' in this user group`,
    );
    expect(await membersOf(gid)).toEqual([id('member')]);
  });

  it('system groups are never edited, even by owners', async () => {
    for (const name of ['role:members', 'role:owners', 'role:nobody']) {
      const gid = systemGroup(name);
      expectError(
        await t.as('owner').post(`/user_groups/${gid}/members`, { add: [id('guest')] }),
        'Insufficient permission',
      );
      expectError(
        await t.as('owner').post(`/user_groups/${gid}/subgroups`, { add: [await create()] }),
        'Insufficient permission',
      );
      expectError(
        await t.as('owner').patch(`/user_groups/${gid}`, { description: 'x' }),
        'Insufficient permission',
      );
      expectError(
        await t.as('owner').post(`/user_groups/${gid}/deactivate`),
        'Insufficient permission',
      );
    }
  });

  it('role matrix for adding others: managers, can_manage_all_groups (owners), can_add_members_group', async () => {
    // Created by the admin: the admin manages it; nobody else but owners.
    const gid = await create({}, 'admin');
    const allowed: Record<string, boolean> = {};
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const res = await t
        .as(who)
        .post(`/user_groups/${gid}/members`, { add: [id('owner'), id('admin')] });
      allowed[who] = res.status === 200;
      if (res.status === 200) {
        await t
          .as('owner')
          .post(`/user_groups/${gid}/members`, { delete: [id('owner'), id('admin')] });
      } else {
        expect(res.body.msg).toBe(
          who === 'guest'
            ? 'Not allowed for guest users'
            : who === 'bot'
              ? 'This endpoint does not accept bot requests.'
              : 'Insufficient permission',
        );
      }
    }
    expect(allowed).toEqual({
      owner: true,
      admin: true,
      moderator: false,
      member: false,
      guest: false,
      bot: false,
    });
    // can_add_members_group = moderators lets moderators (and up) add, but not remove.
    await t.as('admin').patch(`/user_groups/${gid}`, {
      can_add_members_group: { new: systemGroup('role:moderators') },
    });
    expect(
      (await t.as('moderator').post(`/user_groups/${gid}/members`, { add: [id('member')] })).status,
    ).toBe(200);
    expectError(
      await t.as('moderator').post(`/user_groups/${gid}/members`, { delete: [id('member')] }),
      'Insufficient permission',
    );
    expectError(
      await t.as('member').post(`/user_groups/${gid}/members`, { add: [id('guest')] }),
      'Insufficient permission',
    );
    await t.as('admin').patch(`/user_groups/${gid}`, {
      can_remove_members_group: { new: systemGroup('role:moderators') },
    });
    expect(
      (await t.as('moderator').post(`/user_groups/${gid}/members`, { delete: [id('member')] }))
        .status,
    ).toBe(200);
  });

  it('joining and leaving oneself follow can_join_group and can_leave_group', async () => {
    const gid = await create({}, 'admin');
    expectError(
      await t.as('member').post(`/user_groups/${gid}/members`, { add: [id('member')] }),
      'Insufficient permission',
    );
    await t.as('admin').patch(`/user_groups/${gid}`, {
      can_join_group: { new: systemGroup('role:members') },
      can_leave_group: { new: systemGroup('role:nobody') },
    });
    expect(
      (await t.as('member').post(`/user_groups/${gid}/members`, { add: [id('member')] })).status,
    ).toBe(200);
    // Joining is for oneself only.
    expectError(
      await t.as('member').post(`/user_groups/${gid}/members`, { add: [id('moderator')] }),
      'Insufficient permission',
    );
    expectError(
      await t.as('member').post(`/user_groups/${gid}/members`, { delete: [id('member')] }),
      'Insufficient permission',
    );
    await t.as('admin').patch(`/user_groups/${gid}`, {
      can_leave_group: { new: systemGroup('role:everyone') },
    });
    expect(
      (await t.as('member').post(`/user_groups/${gid}/members`, { delete: [id('member')] })).status,
    ).toBe(200);
  });

  it('reads members directly or through subgroups, and one membership', async () => {
    const inner = await create({ members: [id('guest')] });
    const outer = await create({ members: [id('member')], subgroups: [inner] });
    expect(await membersOf(outer, true)).toEqual([id('member')]);
    expect(await membersOf(outer)).toEqual([id('member'), id('guest')].sort((a, b) => a - b));
    const check = (userId: number, direct: boolean) =>
      t
        .as('moderator')
        .get(`/user_groups/${outer}/members/${userId}`, { direct_member_only: direct });
    expect((await check(id('guest'), false)).body.is_user_group_member).toBe(true);
    expect((await check(id('guest'), true)).body.is_user_group_member).toBe(false);
    expect((await check(id('admin'), false)).body.is_user_group_member).toBe(false);
    expectError(await check(9999, false), 'No such user');
    expectError(await t.as('member').get('/user_groups/9999/members'), 'Invalid user group');
    expectError(
      await t.as('guest').get(`/user_groups/${outer}/members`),
      'Not allowed for guest users',
    );
    expectError(
      await t.as('bot').get(`/user_groups/${outer}/members`),
      'This endpoint does not accept bot requests.',
    );
    // System groups mirror roles.
    const admins = (
      await t.as('member').get(`/user_groups/${systemGroup('role:administrators')}/members`)
    ).body.members;
    expect(admins).toEqual([id('owner'), id('admin')].sort((a, b) => a - b));
  });
});

describe('subgroups', () => {
  it('adds and removes subgroups with events, and lists them', async () => {
    const a = await create();
    const b = await create();
    const c = await create();
    await watchers.clear();
    let res = await t.as('member').post(`/user_groups/${a}/subgroups`, { add: [b] });
    expect(res.status).toBe(200);
    let events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'add_subgroups'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect(events.guest![0]).toMatchObject({ group_id: a, direct_subgroup_ids: [b] });
    await t.as('member').post(`/user_groups/${b}/subgroups`, { add: [c] });
    expect((await t.as('member').get(`/user_groups/${a}/subgroups`)).body.subgroups).toEqual([
      b,
      c,
    ]);
    expect(
      (await t.as('member').get(`/user_groups/${a}/subgroups`, { direct_subgroup_only: true })).body
        .subgroups,
    ).toEqual([b]);
    await watchers.clear();
    res = await t.as('member').post(`/user_groups/${a}/subgroups`, { delete: [b] });
    expect(res.status).toBe(200);
    events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'remove_subgroups'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect((await groupOf(a)).direct_subgroup_ids).toEqual([]);
    // Also through POST /members.
    res = await t.as('member').post(`/user_groups/${a}/members`, { add_subgroups: [c] });
    expect(res.status).toBe(200);
    expect((await groupOf(a)).direct_subgroup_ids).toEqual([c]);
    res = await t.as('member').post(`/user_groups/${a}/members`, { delete_subgroups: [c] });
    expect(res.status).toBe(200);
    expect((await groupOf(a)).direct_subgroup_ids).toEqual([]);
  });

  it('refuses cycles, duplicates, unknown and deactivated groups', async () => {
    const a = await create();
    const b = await create({ subgroups: [a] });
    const c = await create({ subgroups: [b] });
    const post = (gid: number, params: Record<string, unknown>) =>
      t.as('member').post(`/user_groups/${gid}/subgroups`, params);
    expectError(
      await post(a, { add: [a] }),
      `User group ${a} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await post(a, { add: [b] }),
      `User group ${a} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await post(a, { add: [c] }),
      `User group ${a} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await post(b, { add: [a] }),
      `User group ${a} is already a subgroup of this group.`,
    );
    expectError(await post(b, { delete: [c] }), `User group ${c} is not a subgroup of this group.`);
    expectError(await post(b, { add: [9999] }), 'Invalid user group ID: 9999');
    expectError(await post(9999, { add: [a] }), 'Invalid user group');
    expectError(await post(b, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    const gone = await create();
    await t.as('member').post(`/user_groups/${gone}/deactivate`);
    expectError(await post(b, { add: [gone] }), 'User group is deactivated.');
    // System groups may be subgroups of user groups.
    expect((await post(a, { add: [systemGroup('role:moderators')] })).status).toBe(200);
    // Subgroups of a deactivated group can be changed (level 391).
    const d = await create();
    await t.as('member').post(`/user_groups/${d}/deactivate`);
    await watchers.clear();
    expect((await post(d, { add: [a] })).status).toBe(200);
    // Only clients that see deactivated groups hear about it.
    const events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'add_subgroups'))).toEqual([
      'member:deactivated',
    ]);
  });

  it('adding needs can_add_members_group, removing can_manage_group; bots may call it, guests not', async () => {
    const gid = await create({}, 'admin');
    const sub = await create({}, 'admin');
    expectError(
      await t.as('member').post(`/user_groups/${gid}/subgroups`, { add: [sub] }),
      'Insufficient permission',
    );
    expectError(
      await t.as('guest').post(`/user_groups/${gid}/subgroups`, { add: [sub] }),
      'Not allowed for guest users',
    );
    expectError(
      await t.as('bot').post(`/user_groups/${gid}/subgroups`, { add: [sub] }),
      'Insufficient permission',
    );
    await t.as('admin').patch(`/user_groups/${gid}`, {
      can_add_members_group: {
        new: { direct_members: [id('bot'), id('member')], direct_subgroups: [] },
      },
    });
    expect((await t.as('bot').post(`/user_groups/${gid}/subgroups`, { add: [sub] })).status).toBe(
      200,
    );
    expectError(
      await t.as('member').post(`/user_groups/${gid}/subgroups`, { delete: [sub] }),
      'Insufficient permission',
    );
    expect(
      (await t.as('owner').post(`/user_groups/${gid}/subgroups`, { delete: [sub] })).status,
    ).toBe(200);
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('renames, describes and changes settings, with an event each', async () => {
    const gid = await create();
    await watchers.clear();
    const name = uniqueName();
    const res = await t.as('member').patch(`/user_groups/${gid}`, {
      name,
      description: 'New',
      can_mention_group: { new: systemGroup('role:members'), old: systemGroup('role:everyone') },
      can_join_group: { new: { direct_members: [id('guest')], direct_subgroups: [] } },
    });
    expect(res.status).toBe(200);
    const events = only(await watchers.take(), 'user_group');
    expect(receivers(events, isEvent('user_group', 'update'))).toEqual(
      [...everyone, 'member:deactivated'].sort(),
    );
    expect(events.guest!.map((e) => e.data)).toEqual([
      { name },
      { description: 'New' },
      { can_join_group: { direct_members: [id('guest')], direct_subgroups: [] } },
      { can_mention_group: systemGroup('role:members') },
    ]);
    expect(await groupOf(gid)).toMatchObject({
      name,
      description: 'New',
      can_mention_group: systemGroup('role:members'),
    });
  });

  it('sends nothing when nothing changes', async () => {
    const gid = await create();
    const group = await groupOf(gid);
    await watchers.clear();
    const res = await t.as('member').patch(`/user_groups/${gid}`, {
      name: group.name,
      description: group.description,
      can_leave_group: {
        new: { direct_members: [], direct_subgroups: [systemGroup('role:everyone')] },
      },
    });
    expect(res.status).toBe(200);
    expect(receivers(await watchers.take())).toEqual([]);
  });

  it('validates', async () => {
    const gid = await create();
    const patch = (params: Record<string, unknown>, who: FixtureName = 'member') =>
      t.as(who).patch(`/user_groups/${gid}`, params);
    expectError(await patch({}), 'No new data supplied');
    expectError(await patch({ name: 'role:x' }), "User group name cannot start with 'role:'.");
    const other = await create();
    const otherName = (await groupOf(other)).name;
    expectError(await patch({ name: otherName }), `User group '${otherName}' already exists.`);
    expectError(
      await patch({
        can_mention_group: { new: systemGroup('role:members'), old: systemGroup('role:nobody') },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
    expectError(
      await patch({ can_manage_group: { new: systemGroup('role:everyone') } }),
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await patch({ can_manage_group: systemGroup('role:members') }),
      expect.any(String) as unknown as string,
    );
    expectError(
      await t.as('member').patch('/user_groups/9999', { name: 'x' }),
      'Invalid user group',
    );
    expectError(await patch({ description: 'x' }, 'moderator'), 'Insufficient permission');
    expectError(await patch({ description: 'x' }, 'guest'), 'Not allowed for guest users');
    expectError(
      await patch({ description: 'x' }, 'bot'),
      'This endpoint does not accept bot requests.',
    );
    expect((await patch({ description: 'by owner' }, 'owner')).status).toBe(200);
  });

  it('hands management over through can_manage_group', async () => {
    const gid = await create();
    await t.as('member').patch(`/user_groups/${gid}`, {
      can_manage_group: { new: systemGroup('role:moderators') },
    });
    expect(
      (await t.as('moderator').patch(`/user_groups/${gid}`, { description: 'mod' })).status,
    ).toBe(200);
    expectError(
      await t.as('member').patch(`/user_groups/${gid}`, { description: 'x' }),
      'Insufficient permission',
    );
  });
});

describe('deactivation and reactivation', () => {
  it('deactivates: update for capable clients, remove for others; register state follows', async () => {
    const gid = await create();
    const before = await t
      .as('guest')
      .post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(before.body.realm_user_groups.some((g: { id: number }) => g.id === gid)).toBe(true);
    await watchers.clear();
    expect((await t.as('member').post(`/user_groups/${gid}/deactivate`)).status).toBe(200);
    const events = await watchers.take();
    expect(receivers(events, isEvent('user_group', 'remove'))).toEqual([...everyone].sort());
    expect(events.owner![0]).toEqual({
      type: 'user_group',
      op: 'remove',
      group_id: gid,
      id: expect.any(Number),
    });
    expect(events['member:deactivated']!.map((e) => [e.op, e.data])).toEqual([
      ['update', { deactivated: true }],
    ]);
    const after = await t
      .as('guest')
      .post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(after.body.realm_user_groups.some((g: { id: number }) => g.id === gid)).toBe(false);
    const capable = await t.as('guest').post('/register', {
      fetch_event_types: ['realm_user_groups'],
      client_capabilities: { include_deactivated_groups: true },
    });
    expect(
      capable.body.realm_user_groups.find((g: { id: number }) => g.id === gid).deactivated,
    ).toBe(true);
    expectError(
      await t.as('member').post(`/user_groups/${gid}/deactivate`),
      'User group is deactivated.',
    );
    expectError(
      await t.as('member').get(`/user_groups/${gid}/members`),
      'User group is deactivated.',
    );

    // Reactivation: add for others, update for capable clients.
    await watchers.clear();
    expect((await t.as('member').patch(`/user_groups/${gid}`, { deactivated: false })).status).toBe(
      200,
    );
    const again = await watchers.take();
    expect(receivers(again, isEvent('user_group', 'add'))).toEqual([...everyone].sort());
    expect(again.admin![0].group).toMatchObject({ id: gid, deactivated: false });
    expect(again['member:deactivated']!.map((e) => [e.op, e.data])).toEqual([
      ['update', { deactivated: false }],
    ]);
    expect((await groupOf(gid)).deactivated).toBe(false);
  });

  it('role matrix: managers and owners', async () => {
    for (const who of ['admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const gid = await create({}, 'owner');
      expectError(
        await t.as(who).post(`/user_groups/${gid}/deactivate`),
        'Insufficient permission',
      );
    }
    const gid = await create({}, 'admin');
    expect((await t.as('owner').post(`/user_groups/${gid}/deactivate`)).status).toBe(200);
    expectError(await t.as('owner').post('/user_groups/9999/deactivate'), 'Invalid user group');
  });

  it('refuses groups in use, listing every objection', async () => {
    const gid = await create();
    const parent = await create({ subgroups: [gid] });
    const user = await create({
      can_mention_group: gid,
      can_join_group: { direct_members: [id('member')], direct_subgroups: [gid] },
    });
    const channel = createChannel(t, { name: `ch${counter}`, subscribers: [] });
    const { db } = t.server.ctx;
    db.prepare('UPDATE streams SET permissions = ? WHERE id = ?').run(
      JSON.stringify({ can_send_message_group: gid, can_add_subscribers_group: 'role:members' }),
      channel,
    );
    const realmSettings = JSON.parse(
      (db.prepare('SELECT settings FROM realm WHERE id = 1').get() as { settings: string })
        .settings,
    );
    db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(
      JSON.stringify({
        ...realmSettings,
        can_create_groups: {
          direct_members: [],
          direct_subgroups: [gid, systemGroup('role:administrators')],
        },
      }),
    );
    await watchers.clear();
    // The reference's error schema forbids `objections`, though its example has them.
    const res = await t
      .as('member')
      .post(`/user_groups/${gid}/deactivate`, {}, { skipSchema: true });
    expectError(res, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(res.body.objections).toEqual([
      { type: 'subgroup', supergroup_ids: [parent] },
      { type: 'channel', channel_id: channel, settings: ['can_send_message_group'] },
      { type: 'user_group', group_id: user, settings: ['can_join_group', 'can_mention_group'] },
      { type: 'realm', settings: ['can_create_groups'] },
    ]);
    expect(receivers(await watchers.take())).toEqual([]);
    db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(realmSettings));
    db.prepare('UPDATE streams SET permissions = ? WHERE id = ?').run('{}', channel);
    // A deactivated supergroup no longer objects.
    await t.as('member').post(`/user_groups/${user}/deactivate`);
    await t.as('member').post(`/user_groups/${parent}/deactivate`);
    expect((await t.as('member').post(`/user_groups/${gid}/deactivate`)).status).toBe(200);
  });
});

describe('register state', () => {
  it('realm_user_groups follows creation, membership and renames', async () => {
    const fetch = async () =>
      (await t.as('member').post('/register', { fetch_event_types: ['realm_user_groups'] })).body
        .realm_user_groups;
    const before = await fetch();
    const gid = await create({ members: [id('admin')] });
    await t.as('member').post(`/user_groups/${gid}/members`, { add: [id('guest')] });
    const after = await fetch();
    expect(after.length).toBe(before.length + 1);
    const group = after.find((g: { id: number }) => g.id === gid);
    expect(group.members).toEqual([id('admin'), id('guest')].sort((a, b) => a - b));
    expect(group).toEqual(await groupOf(gid));
  });
});
