import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.js';
import { CliProcess, tempDataDir } from './process.js';

const data = tempDataDir();
let child: CliProcess;
let url: string;
let db: Database.Database;

beforeAll(async () => {
  child = new CliProcess(['--data-dir', data.dir, '--port', '0', '--demo']);
  url = await child.listening();
  db = new Database(path.join(data.dir, 'hearth.sqlite'), { readonly: true });
});
afterAll(async () => {
  db?.close();
  await child.stop();
  data.cleanup();
});

const anonymous = () => new ApiClient(url, null);

async function clientFor(email: string): Promise<ApiClient> {
  const res = await anonymous().post(
    '/dev_fetch_api_key',
    { username: email },
    { skipSchema: true },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new ApiClient(url, { email: res.body.email, apiKey: res.body.api_key });
}

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type User = any;

describe('--demo', () => {
  it('says the dev login endpoints are on', () => {
    expect(child.stdout).toMatch(/dev_list_users/);
    expect(child.stdout).toMatch(/Created a new organization/);
  });

  it('lists its people on GET /dev_list_users', async () => {
    const res = await anonymous().get('/dev_list_users', {}, { skipSchema: true });
    expect(res.status).toBe(200);
    expect(res.body.direct_admins.length).toBeGreaterThanOrEqual(2);
    expect(res.body.direct_users.length).toBeGreaterThanOrEqual(4);
    for (const entry of [...res.body.direct_admins, ...res.body.direct_users]) {
      expect(entry.realm_url).toBe(url);
    }
  });

  it('hands out working keys on POST /dev_fetch_api_key, to every listed person', async () => {
    const res = await anonymous().get('/dev_list_users', {}, { skipSchema: true });
    for (const { email } of [...res.body.direct_admins, ...res.body.direct_users]) {
      const api = await clientFor(email);
      const me = await api.get('/users/me');
      expect(me.status, email).toBe(200);
      expect(me.body.delivery_email.toLowerCase()).toBe(email.toLowerCase());
    }
    const unknown = await anonymous().post(
      '/dev_fetch_api_key',
      { username: 'nobody@nowhere.example' },
      { skipSchema: true },
    );
    expect(unknown.body.result).toBe('error');
  });

  it('has people of every role and bots of types 1, 2 and 4, each with an owner', async () => {
    const list = await anonymous().get('/dev_list_users', {}, { skipSchema: true });
    const owner = await clientFor(list.body.direct_admins[0].email);
    const res = await owner.get('/users');
    expect(res.status).toBe(200);
    const members: User[] = res.body.members;
    const humans = members.filter((u) => !u.is_bot && u.is_active);
    const count = (role: number) => humans.filter((u) => u.role === role).length;
    expect(count(100)).toBeGreaterThanOrEqual(1);
    expect(count(200)).toBeGreaterThanOrEqual(1);
    expect(count(300)).toBeGreaterThanOrEqual(1);
    expect(count(400)).toBeGreaterThanOrEqual(2);
    expect(count(600)).toBeGreaterThanOrEqual(1);

    const bots = members.filter((u) => u.is_bot);
    expect(new Set(bots.map((b) => b.bot_type))).toEqual(new Set([1, 2, 4]));
    const humanIds = new Set(humans.map((u) => u.user_id));
    for (const bot of bots) {
      expect(bot.bot_owner_id, bot.full_name).not.toBeNull();
      expect(humanIds.has(bot.bot_owner_id), bot.full_name).toBe(true);
    }
    // The owner sees every bot in realm_bots.
    const reg = await owner.post('/register', { fetch_event_types: ['realm_bot', 'realm_user'] });
    expect(reg.body.realm_bots.map((b: { bot_type: number }) => b.bot_type).sort()).toEqual([
      1, 2, 4,
    ]);
    expect(reg.body.realm_users.length).toBe(members.filter((u) => u.is_active).length);
  });

  it('has public and private channels, each with subscribers', () => {
    const streams = db
      .prepare('SELECT id, name, invite_only FROM streams WHERE is_archived = 0')
      .all() as { id: number; name: string; invite_only: number }[];
    expect(streams.filter((s) => s.invite_only === 0).length).toBeGreaterThanOrEqual(2);
    expect(streams.filter((s) => s.invite_only === 1).length).toBeGreaterThanOrEqual(1);
    const subscribers = db.prepare(
      'SELECT count(*) AS n FROM subscriptions WHERE stream_id = ? AND active = 1',
    );
    for (const stream of streams) {
      expect((subscribers.get(stream.id) as { n: number }).n, stream.name).toBeGreaterThan(0);
    }
    // Not everyone is in the private channels.
    const humans = (
      db.prepare('SELECT count(*) AS n FROM users WHERE is_bot = 0').get() as { n: number }
    ).n;
    for (const stream of streams.filter((s) => s.invite_only === 1)) {
      expect((subscribers.get(stream.id) as { n: number }).n).toBeLessThan(humans);
    }
  });

  it('has a few hundred messages over several topics, and direct-message conversations', () => {
    const total = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    expect(total).toBeGreaterThanOrEqual(200);
    expect(total).toBeLessThan(2000);
    const topics = db
      .prepare('SELECT count(DISTINCT topic_key) AS n FROM messages WHERE stream_id IS NOT NULL')
      .get() as { n: number };
    expect(topics.n).toBeGreaterThanOrEqual(3);
    const channelsWithMessages = db
      .prepare('SELECT count(DISTINCT stream_id) AS n FROM messages WHERE stream_id IS NOT NULL')
      .get() as { n: number };
    expect(channelsWithMessages.n).toBeGreaterThanOrEqual(3);
    const dms = db
      .prepare(
        'SELECT count(DISTINCT dm_group_id) AS n FROM messages WHERE dm_group_id IS NOT NULL',
      )
      .get() as { n: number };
    expect(dms.n).toBeGreaterThanOrEqual(2);
    // A group conversation (three or more people) among them.
    const groups = db
      .prepare(
        `SELECT count(*) AS n FROM dm_groups g
          WHERE (SELECT count(*) FROM dm_group_members m WHERE m.dm_group_id = g.id) >= 3
            AND EXISTS (SELECT 1 FROM messages WHERE dm_group_id = g.id)`,
      )
      .get() as { n: number };
    expect(groups.n).toBeGreaterThanOrEqual(1);
  });

  it('every channel message comes from a subscriber, every DM from a participant', () => {
    const strays = db
      .prepare(
        `SELECT count(*) AS n FROM messages m
          WHERE (m.stream_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM subscriptions s
                   WHERE s.stream_id = m.stream_id AND s.user_id = m.sender_id))
             OR (m.dm_group_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dm_group_members g
                   WHERE g.dm_group_id = m.dm_group_id AND g.user_id = m.sender_id))`,
      )
      .get() as { n: number };
    expect(strays.n).toBe(0);
  });

  it('writes a zuliprc for the owner and restarts without seeding twice', async () => {
    const before = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    child.signal('SIGTERM');
    expect((await child.exited).code).toBe(0);
    child = new CliProcess(['--data-dir', data.dir, '--port', '0', '--demo']);
    url = await child.listening();
    expect(child.stdout).not.toMatch(/Created a new organization/);
    expect((db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(
      before,
    );
    const res = await anonymous().get('/dev_list_users', {}, { skipSchema: true });
    expect(res.status).toBe(200);
  });
});
