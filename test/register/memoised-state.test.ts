/**
 * POST /register keeps realm_users, the channel dicts and realm_user_groups
 * serialised between requests (they are the same for everyone). Each test
 * registers first, so the kept copy exists, then writes and registers again:
 * a copy kept past a write that changes it fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableVersion } from '../../server/db/write-versions.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let subject: Account;

beforeAll(async () => {
  t = await startTestServer();
  subject = await quickMember(t, 'Sam Subject');
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: register state is arbitrary JSON
type State = any;

async function register(
  who: FixtureName | Account,
  fetchEventTypes: string[],
  params: Record<string, unknown> = {},
): Promise<State> {
  const res = await t.as(who).post('/register', {
    fetch_event_types: fetchEventTypes,
    include_subscribers: 'true',
    ...params,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const ok = (res: { status: number; body: unknown }) =>
  expect(res.status, JSON.stringify(res.body)).toBe(200);

describe('realm_users', () => {
  const person = async (who: FixtureName | Account = 'member', userId = subject.id) => {
    const state = await register(who, ['realm_user']);
    return (
      state.realm_users.find((u: { user_id: number }) => u.user_id === userId) ??
      state.realm_non_active_users.find((u: { user_id: number }) => u.user_id === userId)
    );
  };

  it('shows a new name, role and time zone', async () => {
    expect((await person()).full_name).toBe('Sam Subject');
    ok(await t.as('admin').patch(`/users/${subject.id}`, { full_name: 'Sam Renamed' }));
    expect((await person()).full_name).toBe('Sam Renamed');

    ok(await t.as('admin').patch(`/users/${subject.id}`, { role: 300 }));
    expect(await person()).toMatchObject({ role: 300, is_admin: false });
    ok(await t.as('admin').patch(`/users/${subject.id}`, { role: 400 }));
    expect((await person()).role).toBe(400);

    ok(await t.as(subject).patch('/settings', { timezone: 'Asia/Tokyo' }));
    expect((await person()).timezone).toBe('Asia/Tokyo');
  });

  it('moves a deactivated user to realm_non_active_users and back', async () => {
    const lists = async () => {
      const state = await register('member', ['realm_user']);
      const has = (list: Array<{ user_id: number }>) => list.some((u) => u.user_id === subject.id);
      return [has(state.realm_users), has(state.realm_non_active_users)];
    };
    expect(await lists()).toEqual([true, false]);
    ok(await t.as('admin').delete(`/users/${subject.id}`));
    expect(await lists()).toEqual([false, true]);
    ok(await t.as('admin').post(`/users/${subject.id}/reactivate`));
    expect(await lists()).toEqual([true, false]);
  });

  it("follows the user's e-mail visibility, for each kind of viewer", async () => {
    const seen = async (who: FixtureName) => {
      const p = await person(who);
      return [p.email, p.delivery_email];
    };
    const hidden = `user${subject.id}@`;
    ok(await t.as(subject).patch('/settings', { email_address_visibility: 1 }));
    expect(await seen('member')).toEqual([subject.email, subject.email]);
    ok(await t.as(subject).patch('/settings', { email_address_visibility: 5 }));
    expect((await seen('member'))[0]).toContain(hidden);
    expect((await seen('member'))[1]).toBeNull();
    expect((await seen('moderator'))[1]).toBe(subject.email);
    expect((await seen('admin'))[1]).toBe(subject.email);
    ok(await t.as(subject).patch('/settings', { email_address_visibility: 2 }));
    expect((await seen('guest'))[1]).toBeNull();
    expect((await seen('member'))[1]).toBe(subject.email);
    ok(await t.as(subject).patch('/settings', { email_address_visibility: 3 }));
    expect((await seen('moderator'))[1]).toBeNull();
    expect((await seen('admin'))[1]).toBe(subject.email);
    // Everyone sees their own address.
    expect((await person(subject)).delivery_email).toBe(subject.email);
  });

  it('shows custom profile values, and drops those of a deleted field', async () => {
    const field = await t.as('admin').post('/realm/profile_fields', {
      name: 'Desk',
      field_type: 1,
    });
    ok(field);
    const key = String(field.body.id);
    expect((await person()).profile_data[key]).toBeUndefined();
    ok(
      await t
        .as(subject)
        .patch('/users/me/profile_data', { data: [{ id: field.body.id, value: 'B12' }] }),
    );
    expect((await person()).profile_data[key]).toEqual({
      value: 'B12',
      rendered_value: '<p>B12</p>',
    });
    ok(await t.as('admin').delete(`/realm/profile_fields/${field.body.id}`));
    expect((await person()).profile_data[key]).toBeUndefined();
  });

  it('shows new users, and rows any query module writes', async () => {
    await register('member', ['realm_user']);
    const newcomer = await quickMember(t, 'Nia Newcomer');
    expect((await person('member', newcomer.id))?.full_name).toBe('Nia Newcomer');
    t.server.ctx.db
      .prepare('UPDATE users SET full_name = ? WHERE id = ?')
      .run('Nia Raw', newcomer.id);
    expect((await person('member', newcomer.id)).full_name).toBe('Nia Raw');
  });
});

describe('subscriptions, never_subscribed and streams', () => {
  let channelId: number;
  let watcher: Account;

  beforeAll(async () => {
    watcher = await quickMember(t, 'Wes Watcher');
    channelId = createChannel(t, { name: 'memo channel', subscribers: [watcher.id] });
  });

  const channels = async (who: FixtureName | Account = watcher, params = {}) => {
    const state = await register(who, ['subscription', 'stream'], params);
    const find = (list: State[]): State => list.find((s) => s.stream_id === channelId);
    return {
      subscribed: find(state.subscriptions),
      unsubscribed: find(state.unsubscribed),
      never: find(state.never_subscribed),
      stream: find(state.streams),
    };
  };

  it('shows a changed description in every list', async () => {
    expect((await channels()).subscribed.description).toBe('About memo channel');
    ok(await t.as('admin').patch(`/streams/${channelId}`, { description: 'Rewritten' }));
    const seen = await channels();
    expect(seen.subscribed.description).toBe('Rewritten');
    expect(seen.stream.description).toBe('Rewritten');
    expect((await channels('member')).never.description).toBe('Rewritten');
  });

  it('shows subscribers joining, leaving and being deactivated', async () => {
    const joiner = await quickMember(t, 'Jo Joiner');
    expect((await channels()).subscribed.subscribers).toEqual([watcher.id]);
    ok(
      await t
        .as(joiner)
        .post('/users/me/subscriptions', { subscriptions: [{ name: 'memo channel' }] }),
    );
    let seen = await channels();
    expect(seen.subscribed.subscribers).toEqual([watcher.id, joiner.id]);
    expect(seen.subscribed.subscriber_count).toBe(2);
    expect(seen.stream.subscriber_count).toBe(2);
    expect((await channels('member')).never.subscribers).toEqual([watcher.id, joiner.id]);

    ok(await t.as('admin').delete(`/users/${joiner.id}`));
    seen = await channels();
    expect(seen.subscribed.subscribers).toEqual([watcher.id]);
    expect(seen.stream.subscriber_count).toBe(1);

    const leaver = await quickMember(t, 'Lee Leaver');
    ok(
      await t
        .as(leaver)
        .post('/users/me/subscriptions', { subscriptions: [{ name: 'memo channel' }] }),
    );
    expect((await channels(leaver)).subscribed).toBeDefined();
    ok(await t.as(leaver).delete('/users/me/subscriptions', { subscriptions: ['memo channel'] }));
    seen = await channels(leaver);
    expect(seen.subscribed).toBeUndefined();
    expect(seen.unsubscribed.subscribers).toEqual([watcher.id]);
  });

  it('shows a changed permission and privacy', async () => {
    expect((await channels()).stream.invite_only).toBe(false);
    ok(
      await t.as('admin').patch(`/streams/${channelId}`, {
        can_remove_subscribers_group: JSON.stringify({
          new: { direct_members: [watcher.id], direct_subgroups: [] },
        }),
      }),
    );
    expect((await channels()).subscribed.can_remove_subscribers_group).toEqual({
      direct_members: [watcher.id],
      direct_subgroups: [],
    });
    ok(await t.as('admin').patch(`/streams/${channelId}`, { is_private: true }));
    expect((await channels()).stream.invite_only).toBe(true);
    expect((await channels('member')).never).toBeUndefined();
  });

  it('shows new channels and drops archived ones', async () => {
    await channels();
    const id = createChannel(t, { name: 'brand new', subscribers: [watcher.id] });
    const state = await register(watcher, ['subscription', 'stream']);
    expect(state.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toContain(id);
    expect(state.streams.map((s: { stream_id: number }) => s.stream_id)).toContain(id);
    ok(await t.as('admin').delete(`/streams/${id}`));
    const after = await register(watcher, ['subscription', 'stream']);
    expect(after.subscriptions.map((s: { stream_id: number }) => s.stream_id)).not.toContain(id);
    const archived = await register(watcher, ['subscription'], {
      client_capabilities: JSON.stringify({ archived_channels: true }),
    });
    const kept = archived.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    expect(kept.is_archived).toBe(true);
  });

  it('GET /streams and GET /users/me/subscriptions follow the same writes', async () => {
    const described = async () => {
      const streams = await t.as(watcher).get('/streams');
      const subs = await t
        .as(watcher)
        .get('/users/me/subscriptions', { include_subscribers: 'true' });
      const of = (list: Array<{ stream_id: number; description: string }>) =>
        list.find((s) => s.stream_id === channelId)?.description;
      return [of(streams.body.streams), of(subs.body.subscriptions)];
    };
    ok(await t.as('admin').patch(`/streams/${channelId}`, { description: 'First' }));
    expect(await described()).toEqual(['First', 'First']);
    ok(await t.as('admin').patch(`/streams/${channelId}`, { description: 'Second' }));
    expect(await described()).toEqual(['Second', 'Second']);
  });
});

describe('realm_user_groups', () => {
  const groups = async (params = {}) =>
    (await register('member', ['realm_user_groups'], params)).realm_user_groups as Array<{
      id: number;
      name: string;
      members: number[];
      direct_subgroup_ids: number[];
      deactivated: boolean;
    }>;
  const group = async (id: number, params = {}) => (await groups(params)).find((g) => g.id === id);

  it('shows new groups, names, members and subgroups', async () => {
    await groups();
    const created = await t.as('admin').post('/user_groups/create', {
      name: 'memo group',
      description: 'Kept',
      members: [subject.id],
    });
    ok(created);
    const id = created.body.group_id as number;
    expect((await group(id))?.members).toEqual([subject.id]);

    ok(await t.as('admin').patch(`/user_groups/${id}`, { name: 'memo group renamed' }));
    expect((await group(id))?.name).toBe('memo group renamed');

    const member = t.accounts.member.id;
    ok(await t.as('admin').post(`/user_groups/${id}/members`, { add: [member] }));
    expect((await group(id))?.members).toEqual([subject.id, member].sort((a, b) => a - b));

    const sub = await t.as('admin').post('/user_groups/create', {
      name: 'memo subgroup',
      description: 'Nested',
      members: [],
    });
    ok(sub);
    ok(await t.as('admin').post(`/user_groups/${id}/subgroups`, { add: [sub.body.group_id] }));
    expect((await group(id))?.direct_subgroup_ids).toEqual([sub.body.group_id]);

    ok(await t.as('admin').post(`/user_groups/${id}/deactivate`));
    expect(await group(id)).toBeUndefined();
    const withDeactivated = {
      client_capabilities: JSON.stringify({ include_deactivated_groups: true }),
    };
    expect((await group(id, withDeactivated))?.deactivated).toBe(true);
  });

  it('drops a deactivated user from the member lists', async () => {
    const leaving = await quickMember(t, 'Gil Gone');
    const created = await t.as('admin').post('/user_groups/create', {
      name: 'memo leavers',
      description: 'Leaving',
      members: [leaving.id],
    });
    ok(created);
    expect((await group(created.body.group_id))?.members).toEqual([leaving.id]);
    ok(await t.as('admin').delete(`/users/${leaving.id}`));
    expect((await group(created.body.group_id))?.members).toEqual([]);
  });
});

describe('what counts as a write', () => {
  it("a subscription's read watermark does not; who is subscribed does", async () => {
    const { db } = t.server.ctx;
    const member = t.accounts.member.id;
    const id = createChannel(t, { name: 'watermarks', subscribers: [member] });
    const version = () => tableVersion(db, 'subscriptions');
    const before = version();
    db.prepare('UPDATE subscriptions SET read_through = read_through + 1 WHERE stream_id = ?').run(
      id,
    );
    expect(version()).toBe(before);
    db.prepare('UPDATE subscriptions SET active = 0 WHERE stream_id = ?').run(id);
    expect(version()).toBeGreaterThan(before);
  });
});
