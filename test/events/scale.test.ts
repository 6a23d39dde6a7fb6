import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { createUser } from '../../server/users/users.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const USERS = 200;
const QUEUES_PER_USER = 5;
const TOTAL = USERS * QUEUES_PER_USER;

let t: TestServer;
// fetch's default pool may cap connections per origin; this agent does not.
const agent = new http.Agent({ keepAlive: true, maxSockets: 2000 });

interface Credentials {
  id: number;
  auth: string;
}
const users: Credentials[] = [];
const queues: { user: Credentials; queueId: string }[] = [];

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any;

function request(
  method: string,
  path: string,
  auth: string,
  body?: string,
): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${t.url}/api/v1${path}`);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: auth,
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const basic = (email: string, key: string) =>
  `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

beforeAll(async () => {
  t = await startTestServer();
  for (let i = 0; i < USERS; i++) {
    const { user_id, api_key } = await createUser(t.server.ctx, null, {
      email: `scale${i}@example.com`,
      password: null,
      fullName: `Scale User ${i}`,
    });
    users.push({ id: user_id, auth: basic(`scale${i}@example.com`, api_key) });
  }
  const slots = users.flatMap((user) => Array.from({ length: QUEUES_PER_USER }, () => user));
  await inBatches(slots, 100, async (user) => {
    const res = await request(
      'POST',
      '/register',
      user.auth,
      'event_types=%5B%22realm_user%22%5D&fetch_event_types=%5B%5D',
    );
    expect(res.status).toBe(200);
    queues.push({ user, queueId: res.body.queue_id });
  });
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await t.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('many long-polls at once', () => {
  it(`holds ${TOTAL} waiting GET /events and wakes them all with one event`, async () => {
    expect(queues).toHaveLength(TOTAL);
    const hub = t.server.ctx.events;
    const waiting = () => queues.filter((q) => hub.get(q.queueId, q.user.id).hasWaiter).length;

    const polls = queues.map(({ user, queueId }) =>
      request('GET', `/events?queue_id=${queueId}&last_event_id=-1`, user.auth).then((res) => ({
        ...res,
        at: Date.now(),
      })),
    );

    // Wait until every poll is parked on its queue.
    const deadline = Date.now() + 10_000;
    while (waiting() < TOTAL && Date.now() < deadline) await sleep(50);
    expect(waiting()).toBe(TOTAL);
    await sleep(200);
    // Nobody has been answered yet.
    expect(waiting()).toBe(TOTAL);

    const target = users[0]!;
    const admin = t.accounts.admin;
    const started = Date.now();
    const rename = await request(
      'PATCH',
      `/users/${target.id}`,
      basic(admin.email, admin.apiKey),
      'full_name=Woken+Everyone',
    );
    expect(rename.status).toBe(200);

    const results = await Promise.all(polls);
    const slowest = Math.max(...results.map((r) => r.at)) - started;
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body.events).toEqual([
        {
          id: 0,
          type: 'realm_user',
          op: 'update',
          person: { user_id: target.id, full_name: 'Woken Everyone' },
        },
      ]);
    }
    expect(slowest).toBeLessThan(5000);
    expect(userById(t.server.ctx.db, target.id)!.full_name).toBe('Woken Everyone');
  }, 30_000);
});
