/**
 * Event delivery: messages sent over HTTP to a channel whose subscribers
 * each hold a live long-poll queue, against a bare fastify + better-sqlite3
 * server built here (insert the row, push the same event to the same
 * queues, answer long polls), both under the same load from another process.
 * The load process first sends WARMUP_SECONDS of messages that do not count.
 * Targets: server CPU per message to 100 queues <= 1.25x the bare server;
 * each additional live queue <= 5 µs; p99 from send to every queue < 50 ms
 * at 200 msg/s x 100 queues and < 250 ms at 100 msg/s x 1,000 queues.
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { insertStream, insertSubscription } from '../server/db/queries/streams.js';
import { userByEmailKey } from '../server/db/queries/users.js';
import type { ClientCapabilities } from '../server/events/queue.js';
import { createServer } from '../server/index.js';
import { cachedDataDir } from './lib/cache.js';
import { buildOrg } from './lib/org.js';
import { percentile, quick, record } from './lib/report.js';

const SECONDS = quick ? 2 : 5;
const WARMUP_SECONDS = quick ? 0.5 : 2;
const USERS = 1000;
const capabilities: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: false,
  include_deactivated_groups: false,
  archived_channels: false,
  empty_topic_name: true,
  simplified_presence_events: false,
};

interface Target {
  url: string;
  queues(n: number): Array<{ id: string; auth: string }>;
  senderAuth: string;
  sendBody: string;
  dropQueues(): void;
}

async function load(target: Target, queues: number, rate: number) {
  const client = fork(
    path.join(path.dirname(new URL(import.meta.url).pathname), 'fanout-client.ts'),
    [],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: {
        ...process.env,
        BENCH_CONFIG: JSON.stringify({
          url: target.url,
          queues: target.queues(queues),
          senderAuth: target.senderAuth,
          sendBody: target.sendBody,
          rate,
          warmupSeconds: WARMUP_SECONDS,
          seconds: SECONDS,
        }),
      },
    },
  );
  let output = '';
  client.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  let cpuStart = process.cpuUsage();
  client.on('message', () => {
    cpuStart = process.cpuUsage();
  });
  await new Promise<void>((resolve, reject) =>
    client.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`client exited ${code}`)),
    ),
  );
  const cpu = process.cpuUsage(cpuStart);
  target.dropQueues();
  const { latencies, undelivered, polls, clientCpuSeconds } = JSON.parse(output) as {
    latencies: number[];
    undelivered: number;
    polls: number;
    clientCpuSeconds: number;
  };
  // How much the two processes worked says whether a miss is the server's or the machine's.
  const serverCpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    `  ${queues} queues x ${rate} msg/s: ${polls} polls; CPU s: server ${serverCpuSeconds.toFixed(2)}, ` +
      `client ${clientCpuSeconds.toFixed(2)}; p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  const messages = latencies.length;
  return {
    cpuPerMessageUs: (cpu.user + cpu.system) / messages,
    p99: percentile(latencies, 99),
    note: `${undelivered} of ${messages} messages missing from some queue after 30 s`,
  };
}

// --- Hearth, on the 1,000-user organization of the register bench.
const { dataDir, cleanup } = await cachedDataDir('register-1000u-200c', (dir) =>
  buildOrg(dir, { users: USERS, channels: 200, subscriptionsPerUser: 30, messages: 2000 }),
);
const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
const { ctx } = server;
const users = Array.from(
  { length: USERS },
  (_, i) => userByEmailKey(ctx.db, `user${i}@bench.test`)!,
);
const authOf = (u: { delivery_email: string; api_key: string }) =>
  `Basic ${Buffer.from(`${u.delivery_email}:${u.api_key}`).toString('base64')}`;
const streamId = ctx.transaction(() => {
  const id = insertStream(ctx.db, {
    name: 'fanout',
    description: '',
    rendered_description: '',
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    date_created: 0,
    creator_id: null,
  });
  for (const u of users) insertSubscription(ctx.db, id, u.id, '#76ce90');
  return id;
});
const sendBody = new URLSearchParams({
  type: 'stream',
  to: String(streamId),
  topic: 'fan out',
  content:
    'bench-seq-{seq}- hello everyone, the **release notes** are at https://example.com/notes',
}).toString();
let hearthQueues: ReturnType<typeof ctx.events.register>[] = [];
const hearth: Target = {
  url: server.url,
  senderAuth: authOf(users[0]!),
  sendBody,
  queues(n) {
    hearthQueues = users.slice(0, n).map((u) =>
      ctx.events.register({
        userId: u.id,
        eventTypes: new Set(['message']),
        narrow: [],
        allPublicStreams: false,
        applyMarkdown: false,
        slimPresence: false,
        capabilities,
        clientName: 'bench',
      }),
    );
    return hearthQueues.map((q, i) => ({ id: q.id, auth: authOf(users[i]!) }));
  },
  dropQueues() {
    for (const q of hearthQueues) ctx.events.delete(q);
    hearthQueues = [];
  },
};

const hearthAt100 = await load(hearth, 100, 200);
const hearthAt1000 = await load(hearth, 1000, 100);
const hearthAt100Slow = await load(hearth, 100, 100);
await server.close();
cleanup();

// --- The ceiling: the least a server can do for the same requests.
const bare = await bareServer(USERS);
const bareAt100 = await load(bare.target, 100, 200);
const bareAt1000 = await load(bare.target, 1000, 100);
await bare.close();

const load100 = '200 msg/s x 100 queues';
record({
  name: 'fan-out: server CPU per message, 100 queues',
  value: hearthAt100.cpuPerMessageUs,
  unit: 'µs',
  target: bareAt100.cpuPerMessageUs * 1.25,
  ceiling: bareAt100.cpuPerMessageUs,
  note: load100,
});
record({
  name: 'fan-out: CPU per additional live queue',
  value: (hearthAt1000.cpuPerMessageUs - hearthAt100Slow.cpuPerMessageUs) / 900,
  unit: 'µs',
  target: 5,
  note: '100 msg/s, 1,000 queues against 100',
});
record({
  name: 'fan-out: p99 send to every queue, 200 msg/s x 100 queues',
  value: hearthAt100.p99,
  unit: 'ms',
  target: 50,
  ceiling: bareAt100.p99,
  note: hearthAt100.note,
});
record({
  name: 'fan-out: p99 send to every queue, 100 msg/s x 1,000 queues',
  value: hearthAt1000.p99,
  unit: 'ms',
  target: 250,
  ceiling: bareAt1000.p99,
  note: hearthAt1000.note,
});

/** Fastify + better-sqlite3 with in-memory queues: insert, push, answer long polls. */
async function bareServer(userCount: number) {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE messages (id INTEGER PRIMARY KEY, sender INTEGER, topic TEXT, content TEXT, date INTEGER)',
  );
  const insert = db.prepare(
    'INSERT INTO messages (sender, topic, content, date) VALUES (?, ?, ?, ?)',
  );
  interface Queue {
    id: string;
    events: Array<{ id: number; json: string }>;
    nextId: number;
    waiting: ((json: string) => void) | null;
  }
  const queues = new Map<string, Queue>();
  const keys = new Map<string, number>();
  for (let i = 0; i < userCount; i++)
    keys.set(`Basic ${Buffer.from(`u${i}@bare:key${i}`).toString('base64')}`, i);
  const answer = (q: Queue) =>
    `{"result":"success","msg":"","queue_id":"${q.id}","events":[${q.events.map((e) => e.json).join(',')}]}`;
  const app = Fastify();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post('/api/v1/messages', (req, reply) => {
    const sender = keys.get(req.headers.authorization ?? '');
    const body = req.body as Record<string, string>;
    const now = Math.floor(Date.now() / 1000);
    const id = Number(insert.run(sender, body.topic, body.content, now).lastInsertRowid);
    const message = JSON.stringify({
      id,
      sender_id: sender,
      content: body.content,
      recipient_id: 1,
      timestamp: now,
      client: 'bench',
      subject: body.topic,
      topic_links: [],
      is_me_message: false,
      reactions: [],
      submessages: [],
      sender_full_name: `User ${sender}`,
      sender_email: `u${sender}@bare`,
      sender_realm_str: 'bare',
      display_recipient: 'fanout',
      type: 'stream',
      stream_id: Number(body.to),
      avatar_url: null,
      content_type: 'text/x-markdown',
    });
    for (const q of queues.values()) {
      const eventId = q.nextId++;
      q.events.push({
        id: eventId,
        json: `{"type":"message","flags":[],"message":${message},"id":${eventId}}`,
      });
      if (q.waiting) {
        const wake = q.waiting;
        q.waiting = null;
        wake(answer(q));
      }
    }
    reply.type('application/json').send(`{"result":"success","msg":"","id":${id}}`);
  });
  app.get('/api/v1/events', (req, reply) => {
    const { queue_id, last_event_id } = req.query as Record<string, string>;
    const q = queues.get(queue_id!)!;
    const last = Number(last_event_id);
    q.events = q.events.filter((e) => e.id > last);
    if (q.events.length > 0) return reply.type('application/json').send(answer(q));
    return new Promise<void>((resolve) => {
      q.waiting = (json) => {
        reply.type('application/json').send(json);
        resolve();
      };
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const authOfIndex = [...keys.keys()];
  return {
    close: () => app.close(),
    target: {
      url: `http://127.0.0.1:${address.port}`,
      senderAuth: authOfIndex[0]!,
      sendBody,
      queues(n: number) {
        return Array.from({ length: n }, (_, i) => {
          const id = `bare-${i}-${os.uptime()}`;
          queues.set(id, { id, events: [], nextId: 0, waiting: null });
          return { id, auth: authOfIndex[i]! };
        });
      },
      dropQueues() {
        queues.clear();
      },
    } satisfies Target,
  };
}
