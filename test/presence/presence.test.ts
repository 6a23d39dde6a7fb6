import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { presenceOf } from '../../server/db/queries/presence.js';
import { setUserActive } from '../../server/db/queries/users.js';
import { type Event, receivers, Watcher, Watchers } from '../helpers/event-queues.js';
import type { Account, FixtureName, RequestOptions, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { FakeClock, setRealm, setUser } from '../messages/send-support.js';

const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);

let t: TestServer;
/** Active, but never reports presence: only receives events. */
let quiet: Account;
/** Deactivated after registering a queue: gets no events, appears nowhere. */
let gone: Account;
let goneQueueId: string;
let watchers: Watchers;

const ZULIP_TERMINAL = {
  encoding: 'form' as const,
  headers: { 'user-agent': 'ZulipTerminal/0.7.0+git Linux-6.1 (Debian GNU/Linux; 12)' },
};

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  watchers = new Watchers(t);
  quiet = await t.createMember('Quinn Quiet');
  gone = await t.createMember('Gail Gone');
  for (const who of ['owner', 'admin', 'member', 'guest', 'bot'] as const) {
    await watchers.add(who);
  }
  await watchers.add('quiet', quiet);
  await watchers.add('owner:simplified', 'owner', {
    client_capabilities: { simplified_presence_events: true },
  });
  await watchers.add('owner:messages-only', 'owner', {
    event_types: ['message'],
  });
  goneQueueId = (await Watcher.register(t.as(gone), {}, 'gone')).queueId;
  setUserActive(t.server.ctx.db, gone.id, false);
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

const ping = (
  who: FixtureName | Account,
  params: Record<string, unknown> = {},
  options: RequestOptions = {},
) => t.as(who).post('/users/me/presence', { status: 'active', ...params }, options);

const row = (account: Account) => presenceOf(t.server.ctx.db, account.id);

/**
 * Every queue but the one that asked for message events only: presence
 * events reach every active user, the one reporting too (Zulip's
 * send_presence_changed: active_user_ids).
 */
function everyone(): string[] {
  return watchers
    .names()
    .filter((name) => name !== 'owner:messages-only')
    .sort();
}

/**
 * zulip-terminal's reading of a legacy presences dictionary
 * (ZT/model.py): every entry but "aggregated" is a client dict.
 */
function zulipTerminalStatus(presences: Record<string, Record<string, Event>>, email: string) {
  let status = 'offline';
  for (const [client, info] of Object.entries(presences[email] ?? {})) {
    if (client === 'aggregated') continue;
    if (nowSeconds() - info.timestamp >= 140) continue;
    if (info.status === 'active') status = 'active';
    else if (info.status === 'idle' && status !== 'active') status = 'idle';
  }
  return status;
}

function expectLegacyShape(presences: Record<string, Record<string, Event>>) {
  expect(Object.keys(presences).length).toBeGreaterThan(0);
  for (const [email, entry] of Object.entries(presences)) {
    expect(email).toContain('@');
    expect(entry.aggregated).toEqual({
      client: 'website',
      status: expect.stringMatching(/^(active|idle)$/),
      timestamp: expect.any(Number),
    });
    for (const [client, info] of Object.entries(entry)) {
      if (client === 'aggregated') continue;
      expect(typeof info, `${email} ${client}`).toBe('object');
      expect(info).toEqual({
        client: 'website',
        status: entry.aggregated.status,
        timestamp: entry.aggregated.timestamp,
        pushable: false,
      });
    }
  }
}

describe('POST /users/me/presence as zulip-terminal sends it', () => {
  it('records the user, answers legacy e-mail-keyed presence and tells the others', async () => {
    const res = await ping('member', { new_user_input: true }, ZULIP_TERMINAL);
    expect(res.status).toBe(200);
    const member = t.accounts.member;
    expect(row(member)).toEqual({
      user_id: member.id,
      last_active_time: nowSeconds(),
      last_connected_time: nowSeconds(),
      last_update_id: expect.any(Number),
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      presences: {
        [member.email]: {
          aggregated: { client: 'website', status: 'active', timestamp: nowSeconds() },
          website: {
            client: 'website',
            status: 'active',
            timestamp: nowSeconds(),
            pushable: false,
          },
        },
      },
      server_timestamp: clock.ms / 1000,
      presence_last_update_id: row(member)!.last_update_id,
    });
    expectLegacyShape(res.body.presences);
    expect(zulipTerminalStatus(res.body.presences, member.email)).toBe('active');

    // The first report is news: every active user hears of it, each queue in its shape.
    const events = await watchers.take('presence');
    expect(receivers(events)).toEqual(everyone());
    // A deactivated user's queue cannot be polled; read it directly.
    expect(t.server.ctx.events.get(goneQueueId, gone.id).pending()).toEqual([]);
    expect(events.owner).toEqual([
      {
        id: expect.any(Number),
        type: 'presence',
        user_id: member.id,
        email: member.email,
        server_timestamp: clock.ms / 1000,
        presence: {
          website: {
            client: 'website',
            status: 'active',
            timestamp: nowSeconds(),
            pushable: false,
          },
        },
      },
    ]);
    expect(events.bot).toEqual(events.owner);
    expect(events['owner:simplified']).toEqual([
      {
        id: expect.any(Number),
        type: 'presence',
        presences: {
          [String(member.id)]: { active_timestamp: nowSeconds(), idle_timestamp: nowSeconds() },
        },
      },
    ]);
  });

  it('sends no event for the regular pings of a user who is online', async () => {
    const before = row(t.accounts.member)!;
    for (let i = 0; i < 3; i++) {
      clock.advance(60);
      expect((await ping('member', { new_user_input: true }, ZULIP_TERMINAL)).status).toBe(200);
    }
    expect(receivers(await watchers.take('presence'))).toEqual([]);
    const after = row(t.accounts.member)!;
    expect(after.last_active_time).toBe(nowSeconds());
    expect(after.last_update_id).toBeGreaterThan(before.last_update_id);
  });

  it('keeps a user active between pings and turns them idle once activity is old', async () => {
    const { member } = t.accounts;
    const activeAt = nowSeconds();
    clock.advance(60);
    let res = await ping('member', { status: 'idle' });
    // Idle for one ping interval: still "active" in the legacy format.
    expect(res.body.presences[member.email].aggregated).toEqual({
      client: 'website',
      status: 'active',
      timestamp: activeAt,
    });
    expect(row(member)).toMatchObject({
      last_active_time: activeAt,
      last_connected_time: nowSeconds(),
    });
    clock.advance(60);
    res = await ping('member', { status: 'idle' });
    expect(res.body.presences[member.email].website).toEqual({
      client: 'website',
      status: 'idle',
      timestamp: nowSeconds(),
      pushable: false,
    });
    expect(zulipTerminalStatus(res.body.presences, member.email)).toBe('idle');
    expect(receivers(await watchers.take('presence'))).toEqual([]);
  });

  it('announces a user coming back to active after a gap', async () => {
    clock.advance(60); // last "active" 180 s ago, past the 130 s a ping cycle allows
    await ping('member');
    const events = await watchers.take('presence');
    expect(receivers(events)).toEqual(everyone());
    expect(events.admin![0].presence.website).toEqual({
      client: 'website',
      status: 'active',
      timestamp: nowSeconds(),
      pushable: false,
    });
  });

  it('announces a first report even when idle, and no idle report after that', async () => {
    await ping('admin', { status: 'idle' });
    let events = await watchers.take('presence');
    expect(receivers(events)).toEqual(everyone());
    // Never active: the activity time defaults to when they joined, long before this connection.
    expect(events.member![0]).toMatchObject({
      user_id: t.accounts.admin.id,
      presence: { website: { status: 'idle', timestamp: nowSeconds() } },
    });
    clock.advance(3600);
    await ping('admin', { status: 'idle' });
    events = await watchers.take('presence');
    expect(receivers(events)).toEqual([]);
    await ping('admin');
    events = await watchers.take('presence');
    expect(receivers(events)).toEqual(everyone());
  });

  it('takes extreme limits without failing', async () => {
    for (const params of [
      { history_limit_days: 2 ** 52 },
      { history_limit_days: -(2 ** 52) },
      { last_update_id: 2 ** 52 },
      { last_update_id: -(2 ** 52), history_limit_days: 2 ** 52 },
    ]) {
      const res = await ping('member', params);
      expect(res.status, JSON.stringify(params)).toBe(200);
    }
    const wide = await ping('member', { history_limit_days: 2 ** 52 });
    expect(wide.body.presences).toHaveProperty(t.accounts.member.email);
  });

  it('answers nothing but success with ping_only, and still records', async () => {
    clock.advance(10);
    const res = await ping('owner', { ping_only: true });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(row(t.accounts.owner)!.last_active_time).toBe(nowSeconds());
  });
});

describe('the modern format and incremental fetches', () => {
  it('keys by user id with slim_presence', async () => {
    const res = await ping('guest', { slim_presence: true });
    const { member, guest } = t.accounts;
    expect(res.body.presences[String(guest.id)]).toEqual({
      active_timestamp: nowSeconds(),
      idle_timestamp: nowSeconds(),
    });
    expect(res.body.presences[String(member.id)]).toEqual({
      active_timestamp: row(member)!.last_active_time,
      idle_timestamp: row(member)!.last_connected_time,
    });
    expect(res.body.presences).not.toHaveProperty(member.email);
  });

  it('returns only what changed after last_update_id, which implies the modern format', async () => {
    const first = await ping('guest', { last_update_id: -1 });
    const all = first.body.presences;
    expect(Object.keys(all).sort()).toEqual(
      ['owner', 'admin', 'member', 'guest']
        .map((w) => String(t.accounts[w as FixtureName].id))
        .sort(),
    );
    const cursor: number = first.body.presence_last_update_id;
    expect(cursor).toBe(row(t.accounts.guest)!.last_update_id);

    // The guest's own report in this request happens in the same second: no change, no new id.
    const again = await ping('guest', { last_update_id: cursor });
    expect(again.body.presences).toEqual({});
    expect(again.body.presence_last_update_id).toBe(cursor);

    clock.advance(30);
    await ping('member', { ping_only: true });
    const next = await ping('guest', { last_update_id: cursor, ping_only: false });
    expect(Object.keys(next.body.presences).sort()).toEqual(
      [t.accounts.member.id, t.accounts.guest.id].map(String).sort(),
    );
    expect(next.body.presence_last_update_id).toBeGreaterThan(cursor);
  });

  it('limits the first fetch to history_limit_days (14 by default)', async () => {
    const db = t.server.ctx.db;
    const old = nowSeconds() - 20 * 86_400;
    db.prepare(
      'UPDATE user_presence SET last_active_time = ?, last_connected_time = ? WHERE user_id = ?',
    ).run(old, old, t.accounts.owner.id);
    const owner = String(t.accounts.owner.id);
    try {
      expect((await ping('member', { slim_presence: true })).body.presences).not.toHaveProperty(
        owner,
      );
      const wide = await ping('member', { slim_presence: true, history_limit_days: 30 });
      expect(wide.body.presences[owner]).toEqual({ active_timestamp: old, idle_timestamp: old });
      const none = await ping('member', { history_limit_days: 0 });
      expect(none.body.presences).toEqual({});
      // A client that already holds data is limited by its update id alone.
      const changed = await ping('member', { last_update_id: 1, history_limit_days: 1 });
      expect(changed.body.presences).toHaveProperty(owner);
    } finally {
      await ping('owner', { ping_only: true });
    }
  });
});

describe('GET /realm/presence and GET /users/{user_id_or_email}/presence', () => {
  it('lists every active human who reported, in the legacy format, without the update id', async () => {
    const res = await t.as('bot').get('/realm/presence');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'msg',
      'presences',
      'result',
      'server_timestamp',
    ]);
    const emails = ['owner', 'admin', 'member', 'guest'].map(
      (w) => t.accounts[w as FixtureName].email,
    );
    expect(Object.keys(res.body.presences).sort()).toEqual(emails.sort());
    expectLegacyShape(res.body.presences);
  });

  it('gives one user by id or e-mail, "offline" in the aggregate once stale', async () => {
    const { member } = t.accounts;
    clock.advance(10);
    await ping('member');
    const byId = await t.as('guest').get(`/users/${member.id}/presence`);
    expect(byId.body).toEqual({
      result: 'success',
      msg: '',
      presence: {
        website: { status: 'active', timestamp: nowSeconds() },
        aggregated: { status: 'active', timestamp: nowSeconds() },
      },
    });
    const byEmail = await t.as('guest').get(`/users/${encodeURIComponent(member.email)}/presence`);
    expect(byEmail.body).toEqual(byId.body);

    clock.advance(201);
    const stale = await t.as('guest').get(`/users/${member.id}/presence`);
    expect(stale.body.presence.aggregated).toEqual({
      status: 'offline',
      timestamp: nowSeconds() - 201,
    });
    expect(stale.body.presence.website.status).toBe('active');
  });

  it('refuses unknown, deactivated and bot users and users without data', async () => {
    const expectError = async (target: string, msg: string) => {
      const res = await t.as('member').get(`/users/${encodeURIComponent(target)}/presence`);
      expect(res.status, target).toBe(400);
      expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    };
    await expectError('99999', 'No such user');
    await expectError('nobody@example.com', 'No such user');
    await expectError(String(gone.id), 'No such user');
    await expectError(String(t.accounts.bot.id), 'Presence is not supported for bot users.');
    await expectError(t.accounts.bot.email, 'Presence is not supported for bot users.');
    await expectError(String(quiet.id), `No presence data for ${quiet.id}`);
    await expectError(quiet.email, `No presence data for ${quiet.email}`);
  });
});

describe('who is left out', () => {
  it('never lists deactivated users or bots', async () => {
    t.server.ctx.db
      .prepare(
        'INSERT INTO user_presence (user_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, 0)',
      )
      .run(gone.id, nowSeconds(), nowSeconds());
    const res = await ping('member', { slim_presence: true });
    expect(res.body.presences).not.toHaveProperty(String(gone.id));
    expect(res.body.presences).not.toHaveProperty(String(t.accounts.bot.id));
  });

  it('records nothing for users who turned presence_enabled off', async () => {
    const { moderator } = t.accounts;
    setUser(t, moderator.id, { presence_enabled: false });
    try {
      const res = await ping('moderator');
      expect(res.status).toBe(200);
      expect(row(moderator)).toBeUndefined();
      // They still see everyone else.
      expect(res.body.presences).toHaveProperty(t.accounts.member.email);
      expect(receivers(await watchers.take('presence'))).toEqual([]);
    } finally {
      setUser(t, moderator.id, { presence_enabled: true });
    }
  });

  it('shows users who turned presence_enabled off as last seen a while before that, as Zulip', async () => {
    const { moderator } = t.accounts;
    await ping('moderator');
    // Zulip's do_change_user_setting records one idle report old enough to read as offline.
    const res = await t.as('moderator').patch('/settings', { presence_enabled: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    try {
      const lastSeen = nowSeconds() - 200 - 120;
      clock.advance(600);
      await ping('moderator');
      expect(row(moderator)?.last_connected_time).toBe(lastSeen);
      // Zulip's register, GET /realm/presence and GET /users/{id}/presence keep that record.
      const register = await t
        .as('member')
        .post('/register', { fetch_event_types: ['presence'], slim_presence: true });
      expect(register.body.presences[String(moderator.id)]).toMatchObject({
        idle_timestamp: lastSeen,
      });
      const realm = await t.as('member').get('/realm/presence');
      expect(realm.body.presences).toHaveProperty(moderator.email);
      const one = await t.as('member').get(`/users/${moderator.id}/presence`);
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      expect(one.body.presence.aggregated.status).toBe('offline');
    } finally {
      await t.as('moderator').patch('/settings', { presence_enabled: true });
    }
  });

  it('answers no presence at all, and sends no events, when the organization disabled it', async () => {
    setRealm(t, { presence_disabled: true });
    try {
      clock.advance(3600);
      const res = await ping('member');
      expect(res.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
      expect(receivers(await watchers.take('presence'))).toEqual([]);
      expect((await t.as('member').get('/realm/presence')).body.presences).toEqual({});
      const one = await t.as('guest').get(`/users/${t.accounts.member.id}/presence`);
      expect(one.body.msg).toBe(`No presence data for ${t.accounts.member.id}`);
    } finally {
      setRealm(t, { presence_disabled: false });
    }
  });
});

describe('POST /register presence state', () => {
  it('has exactly the endpoint shape: legacy by default, modern when asked', async () => {
    clock.advance(5);
    const endpoint = await ping('member');
    const register = await t.as('member').post('/register', {
      fetch_event_types: ['presence', 'realm'],
    });
    expect(register.body.presences).toEqual(endpoint.body.presences);
    expect(register.body.presence_last_update_id).toBe(endpoint.body.presence_last_update_id);
    expect(register.body.server_timestamp).toBe(endpoint.body.server_timestamp);
    expectLegacyShape(register.body.presences);
    // The timing it reports is the one the server applies.
    expect(register.body.server_presence_ping_interval_seconds).toBe(60);
    expect(register.body.server_presence_offline_threshold_seconds).toBe(200);

    const slimEndpoint = await ping('member', { slim_presence: true });
    for (const params of [
      { slim_presence: true },
      { client_capabilities: { simplified_presence_events: true } },
    ]) {
      const slim = await t.as('member').post('/register', {
        fetch_event_types: ['presence'],
        ...params,
      });
      expect(slim.body.presences).toEqual(slimEndpoint.body.presences);
    }
  });

  it('takes presence_history_limit_days', async () => {
    const res = await t.as('member').post('/register', {
      fetch_event_types: ['presence'],
      presence_history_limit_days: 0,
    });
    expect(res.body.presences).toEqual({});
    expect(res.body.presence_last_update_id).toBe(-1);
  });
});

describe('bad requests', () => {
  it('refuse a missing or unknown status, bots, and malformed values', async () => {
    const expectError = async (
      who: FixtureName,
      params: Record<string, unknown>,
      msg: string,
      code = 'BAD_REQUEST',
    ) => {
      const res = await t.as(who).post('/users/me/presence', params, { skipSchema: true });
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', msg, code });
    };
    await expectError('member', {}, "Missing 'status' argument", 'REQUEST_VARIABLE_MISSING');
    await expectError('member', { status: 'away' }, 'Invalid status: away');
    await expectError('member', { status: 'offline' }, 'Invalid status: offline');
    await expectError('bot', { status: 'active' }, 'This endpoint does not accept bot requests.');
    await expectError(
      'member',
      { status: 'active', ping_only: 'yes' },
      'ping_only is not valid JSON',
    );
    await expectError(
      'member',
      { status: 'active', slim_presence: 1 },
      'slim_presence is not a boolean',
    );
    await expectError(
      'member',
      { status: 'active', last_update_id: 'x' },
      'last_update_id is not valid JSON',
    );
    await expectError(
      'member',
      { status: 'active', history_limit_days: 1.5 },
      'history_limit_days is not an integer',
    );
    expect(row(t.accounts.bot)).toBeUndefined();
  });
});
