import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { Watchers } from '../helpers/event-queues.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let other: Account; // a second member, who neither owns the bot nor administers
let watchers: Watchers;
const humans: FixtureName[] = ['owner', 'admin', 'moderator', 'member', 'guest'];

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createMember('Otto Other');
  watchers = new Watchers(t);
  for (const who of [...humans, 'bot'] as const) await watchers.add(who);
  await watchers.add('other', other);
  // Same user, a queue that asked only for realm events.
  await watchers.add('member:realm-only', 'member', { event_types: ['realm'] });
  // A narrow filters message events only; user events still arrive.
  await watchers.add('member:narrowed', 'member', { narrow: [['stream', 'nowhere']] });
});
afterAll(() => t.close());

beforeEach(async () => {
  await watchers.clear();
});

describe('realm_user add (POST /users)', () => {
  it('goes to every active user, shaped for each viewer', async () => {
    // Whoever is created next hides their address from everyone but administrators.
    const db = t.server.ctx.db;
    db.exec(`CREATE TRIGGER hide_new_email AFTER INSERT ON users BEGIN
               UPDATE users SET settings = '{"email_address_visibility":3}' WHERE id = NEW.id;
             END`);
    let userId: number;
    try {
      const res = await t.as('admin').post('/users', {
        email: 'hidden@example.com',
        password: 'a long enough password',
        full_name: 'Hidden Person',
      });
      expect(res.status).toBe(200);
      userId = res.body.user_id;
    } finally {
      db.exec('DROP TRIGGER hide_new_email');
    }

    const got = await watchers.take();
    const placeholder = `user${userId}@test.hearth`;
    for (const name of [...humans, 'bot', 'other', 'member:narrowed']) {
      const adds = got[name]!.filter((e) => e.type === 'realm_user' && e.op === 'add');
      expect(adds, name).toHaveLength(1);
      const person = adds[0].person;
      expect(person, name).toMatchObject({
        user_id: userId,
        full_name: 'Hidden Person',
        email: placeholder,
        is_active: true,
        is_bot: false,
        role: 400,
        is_admin: false,
        is_owner: false,
        is_guest: false,
      });
      const mayKnow = name === 'owner' || name === 'admin';
      expect(person.delivery_email, name).toBe(mayKnow ? 'hidden@example.com' : null);
    }
    expect(got['member:realm-only']).toEqual([]);
  });

  it('shows the real address to everyone when the new user allows it', async () => {
    const res = await t.as('owner').post('/users', {
      email: 'open@example.com',
      password: 'a long enough password',
      full_name: 'Open Person',
    });
    expect(res.status).toBe(200);
    // The new user's system groups (user_group add_members) are not this test's subject.
    const got = await watchers.take('realm_user');
    for (const name of [...humans, 'bot', 'other']) {
      expect(got[name], name).toHaveLength(1);
      expect(got[name]![0], name).toMatchObject({
        type: 'realm_user',
        op: 'add',
        person: {
          user_id: res.body.user_id,
          email: 'open@example.com',
          delivery_email: 'open@example.com',
        },
      });
    }
    expect(got['member:realm-only']).toEqual([]);
  });

  it('is not sent when the operation fails (duplicate e-mail)', async () => {
    const res = await t.as('admin').post('/users', {
      email: 'OPEN@example.com',
      password: 'a long enough password',
      full_name: 'Open Again',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });

  it('is not sent when a non-administrator is refused', async () => {
    const res = await t.as('member').post('/users', {
      email: 'sneaky@example.com',
      password: 'a long enough password',
      full_name: 'Sneaky',
    });
    expect(res.status).toBe(400);
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });
});

describe('realm_bot add (POST /bots)', () => {
  it("goes to the bot's owner and the administrators only", async () => {
    const res = await t
      .as('member')
      .post('/bots', { full_name: 'Event Bot', short_name: 'eventbot', bot_type: 1 });
    expect(res.status).toBe(200);
    const botId = res.body.user_id;
    const got = await watchers.take();

    const realmBot = (name: string) => got[name]!.filter((e) => e.type === 'realm_bot');
    for (const name of ['member', 'owner', 'admin', 'member:narrowed']) {
      expect(realmBot(name), name).toHaveLength(1);
      expect(realmBot(name)[0], name).toMatchObject({
        type: 'realm_bot',
        op: 'add',
        bot: {
          user_id: botId,
          full_name: 'Event Bot',
          bot_type: 1,
          is_active: true,
          owner_id: t.accounts.member.id,
          api_key: res.body.api_key,
          email: 'eventbot-bot@test.hearth',
        },
      });
    }
    for (const name of ['moderator', 'guest', 'other', 'bot', 'member:realm-only']) {
      expect(realmBot(name), name).toEqual([]);
    }

    // Everyone learns about the new (bot) user itself.
    for (const name of [...humans, 'bot', 'other']) {
      const adds = got[name]!.filter((e) => e.type === 'realm_user' && e.op === 'add');
      expect(adds, name).toHaveLength(1);
      expect(adds[0].person, name).toMatchObject({
        user_id: botId,
        is_bot: true,
        bot_type: 1,
        bot_owner_id: t.accounts.member.id,
        delivery_email: 'eventbot-bot@test.hearth',
      });
    }
    expect(got['member:realm-only']).toEqual([]);
  });

  it('is not sent when a guest is refused', async () => {
    const res = await t.as('guest').post('/bots', { full_name: 'Guest Bot', short_name: 'gbot' });
    expect(res.status).toBe(400);
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });
});

describe('realm_user update (PATCH /users/{id})', () => {
  it('announces a role change', async () => {
    const res = await t.as('admin').patch(`/users/${other.id}`, { role: 300 });
    expect(res.status).toBe(200);
    const got = await watchers.take();
    for (const name of [...humans, 'bot', 'other', 'member:narrowed']) {
      const updates = got[name]!.filter((e) => e.type === 'realm_user');
      expect(updates, name).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: other.id, role: 300 },
          id: expect.any(Number),
        },
      ]);
    }
    expect(got['member:realm-only']).toEqual([]);
    await t.as('admin').patch(`/users/${other.id}`, { role: 400 });
  });

  it('announces a new full name', async () => {
    const res = await t.as('owner').patch(`/users/${other.id}`, { full_name: 'Otto Renamed' });
    expect(res.status).toBe(200);
    const got = await watchers.take();
    for (const name of [...humans, 'bot', 'other']) {
      expect(got[name], name).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: other.id, full_name: 'Otto Renamed' },
          id: expect.any(Number),
        },
      ]);
    }
  });

  it('sends nothing when nothing changes', async () => {
    const res = await t.as('owner').patch(`/users/${other.id}`, { full_name: 'Otto Renamed' });
    expect(res.status).toBe(200);
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });
});

describe('realm_user update (DELETE /users/{id})', () => {
  it("announces the deactivation and removes the user's queues", async () => {
    const victim = await t.createMember('Short Lived');
    await watchers.clear(); // its realm_user add
    const client = t.as(victim);
    const reg = await client.post('/register', { fetch_event_types: [] });
    const second = await client.post('/register', { fetch_event_types: [] });
    expect([...t.server.ctx.events.queuesOf(victim.id)]).toHaveLength(2);
    const poll = client.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1 });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const res = await t.as('admin').delete(`/users/${victim.id}`);
    expect(res.status).toBe(200);
    // The waiting poll is finished, not left hanging.
    const finished = await poll;
    expect(finished.body.events).toEqual([]);

    const got = await watchers.take();
    for (const name of [...humans, 'bot', 'other', 'member:narrowed']) {
      expect(got[name], name).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: victim.id, is_active: false },
          id: expect.any(Number),
        },
      ]);
    }
    expect(got['member:realm-only']).toEqual([]);
    expect([...t.server.ctx.events.queuesOf(victim.id)]).toEqual([]);
    for (const queueId of [reg.body.queue_id, second.body.queue_id]) {
      expect(() => t.server.ctx.events.get(queueId, victim.id)).toThrow(/Bad event queue ID/);
    }
    // And the account itself is refused.
    const after = await client.get('/events', {
      queue_id: second.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('USER_DEACTIVATED');
  });
});

describe('events are delivered only after the commit', () => {
  const ctx = () => t.server.ctx;
  const rename = (userId: number, fullName: string) =>
    ctx().db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, userId);
  const nameOf = (userId: number) => userById(ctx().db, userId)!.full_name;
  const renameEvent = (userId: number, fullName: string) =>
    ({
      type: 'realm_user',
      users: [t.accounts.member.id, t.accounts.owner.id],
      payload: {
        type: 'realm_user',
        op: 'update',
        person: { user_id: userId, full_name: fullName },
      },
    }) as const;
  const memberQueue = () => ctx().events.get(watchers.get('member').queueId, t.accounts.member.id);

  it('drops the events of a rolled-back transaction', async () => {
    const guest = t.accounts.guest.id;
    const before = nameOf(guest);
    expect(() =>
      ctx().transaction((tx) => {
        rename(guest, 'Never Seen');
        tx.emit(renameEvent(guest, 'Never Seen'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(nameOf(guest)).toBe(before);
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });

  it('delivers the events of a committed transaction after the commit, to the listed users', async () => {
    const guest = t.accounts.guest.id;
    let pendingInside = -1;
    const result = ctx().transaction((tx) => {
      rename(guest, 'Gus Committed');
      tx.emit(renameEvent(guest, 'Gus Committed'));
      pendingInside = memberQueue().pending().length;
      return 'done';
    });
    expect(result).toBe('done');
    expect(pendingInside).toBe(0);
    expect(memberQueue().pending()).toHaveLength(1);
    const got = await watchers.take();
    const expected = [
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: guest, full_name: 'Gus Committed' },
        id: expect.any(Number),
      },
    ];
    expect(got.member).toEqual(expected);
    expect(got['member:narrowed']).toEqual(expected);
    expect(got.owner).toEqual(expected);
    for (const name of ['admin', 'moderator', 'guest', 'bot', 'other', 'member:realm-only']) {
      expect(got[name], name).toEqual([]);
    }
  });

  it('nested transactions join the outer buffer; a failed inner one drops only its own', async () => {
    const guest = t.accounts.guest.id;
    const moderator = t.accounts.moderator.id;
    const seenInside: number[] = [];
    ctx().transaction((outer) => {
      rename(guest, 'Outer Name');
      outer.emit(renameEvent(guest, 'Outer Name'));
      ctx().transaction((inner) => {
        rename(moderator, 'Inner Name');
        inner.emit(renameEvent(moderator, 'Inner Name'));
      });
      seenInside.push(memberQueue().pending().length);
      expect(() =>
        ctx().transaction((inner) => {
          rename(moderator, 'Failed Inner Name');
          inner.emit(renameEvent(moderator, 'Failed Inner Name'));
          throw new Error('inner boom');
        }),
      ).toThrow('inner boom');
      seenInside.push(memberQueue().pending().length);
    });
    expect(seenInside).toEqual([0, 0]);
    expect(nameOf(guest)).toBe('Outer Name');
    expect(nameOf(moderator)).toBe('Inner Name');
    const got = await watchers.take();
    expect(got.member!.map((e) => e.person)).toEqual([
      { user_id: guest, full_name: 'Outer Name' },
      { user_id: moderator, full_name: 'Inner Name' },
    ]);
  });

  it('drops a committed inner transaction when the outer one fails', async () => {
    const guest = t.accounts.guest.id;
    const before = nameOf(guest);
    expect(() =>
      ctx().transaction(() => {
        ctx().transaction((inner) => {
          rename(guest, 'Inner Only');
          inner.emit(renameEvent(guest, 'Inner Only'));
        });
        throw new Error('outer boom');
      }),
    ).toThrow('outer boom');
    expect(nameOf(guest)).toBe(before);
    const got = await watchers.take();
    for (const [name, events] of Object.entries(got)) expect(events, name).toEqual([]);
  });

  it('a transaction after a failed one works normally', async () => {
    const guest = t.accounts.guest.id;
    ctx().transaction((tx) => {
      rename(guest, 'Gus Guest');
      tx.emit(renameEvent(guest, 'Gus Guest'));
    });
    const got = await watchers.take();
    expect(got.member).toHaveLength(1);
    expect(got.owner).toHaveLength(1);
  });
});
