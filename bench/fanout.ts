/**
 * Event delivery: messages sent over HTTP by 10 senders to a channel whose
 * subscribers (as many as the live queues) each hold a long-poll queue, against a bare fastify +
 * better-sqlite3 server built here (insert the row, push the same event
 * bytes to every queue, answer long polls), both under the same load from
 * another process, the two servers taking turns at each size (three rounds
 * of each fixed-load and sends-only pair; figures are the medians). The load
 * process first sends WARMUP_SECONDS of messages that do not count.
 *
 * At a fixed offered load (each queue re-polls no sooner than POLL_INTERVAL_MS
 * after its previous poll began, as clients with a 20 ms round trip do) both
 * servers answer about as many polls per message; the run fails when the two
 * differ by more than 5 %, since the CPU ratio would then compare different
 * work. Targets there, at 200 msg/s x 100 queues and 20 msg/s x 1,000
 * queues: server CPU per message, CPU per answered poll and p99 from send to
 * every queue each <= 1.25x the bare server's. CPU per answered poll is CPU
 * per message less that of the same sends to no live queue (measured too),
 * over polls per message: what delivering an event and answering and
 * re-parking a poll cost, the sends' own work aside.
 *
 * The sends alone also go to two references, which show what Hearth's
 * promise that an answered send is on disk costs by itself, next to the
 * margin the first target leaves: the bare server with a fsync per send
 * (its table in a WAL file, synchronous=FULL), and Hearth under
 * synchronous=NORMAL (answering without waiting for the disk).
 *
 * At saturation (queues re-poll the moment an answer arrives) a slower server
 * batches more events per answer and answers fewer polls: those figures show
 * capacity, not cost, and keep only the target per additional live queue.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import type { ClientCapabilities } from '../server/events/queue.js';
import { cachedDataDir } from './lib/cache.js';
import { buildIfStale } from './lib/compiled-server.js';
import { buildOrg } from './lib/org.js';
import { type Figure, format, percentile, quick, record } from './lib/report.js';

const SECONDS = quick ? 2 : 5;
const WARMUP_SECONDS = quick ? 0.5 : 2;
const USERS = 1000;
const SENDERS = 10;
/** A client with a 20 ms round trip re-polls no sooner than this after its last poll began. */
const POLL_INTERVAL_MS = 20;
/** Polls per message may differ this much between the servers before a fixed-load run is void. */
const POLL_PARITY = 0.05;
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
  senders: string[];
  /** Form body of a send to the channel with this many subscribers. */
  sendBody(subscribers: number): string;
  dropQueues(): void;
}

interface LoadRun {
  cpuPerMessageUs: number;
  cpuPerPollUs: number;
  pollsPerMessage: number;
  p99: number;
  note: string;
}

async function load(
  target: Target,
  queues: number,
  rate: number,
  minPollIntervalMs: number,
  {
    seconds = SECONDS,
    subscribers = queues,
    pollQuery,
  }: { seconds?: number; subscribers?: number; pollQuery?: string } = {},
): Promise<LoadRun> {
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
          senders: target.senders,
          sendBody: target.sendBody(subscribers),
          rate,
          warmupSeconds: WARMUP_SECONDS,
          seconds,
          minPollIntervalMs,
          pollQuery,
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
  const cpuUs = cpu.user + cpu.system;
  // A polls-only run sends nothing.
  if (latencies.length === 0) latencies.push(0);
  const messages = latencies.length;
  const run = {
    cpuPerMessageUs: cpuUs / messages,
    cpuPerPollUs: polls > 0 ? cpuUs / polls : 0,
    pollsPerMessage: polls / messages,
    p99: percentile(latencies, 99),
    note: `${undelivered} of ${messages} messages missing from some queue after 30 s`,
  };
  // How much the two processes worked says whether a miss is the server's or the machine's.
  console.log(
    `  ${queues} queues x ${rate} msg/s${pollQuery ? `, polls only (${pollQuery})` : minPollIntervalMs ? `, re-poll >= ${minPollIntervalMs} ms` : ', saturation'}: ` +
      `${polls} polls (${run.pollsPerMessage.toFixed(1)}/msg); CPU s: server ${(cpuUs / 1e6).toFixed(2)}, ` +
      `client ${clientCpuSeconds.toFixed(2)}; ${run.cpuPerMessageUs.toFixed(0)} µs/msg, ` +
      `${run.cpuPerPollUs.toFixed(1)} µs/poll; p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${run.p99.toFixed(1)} ms; load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  return run;
}

// --- Hearth, on the 1,000-user organization of the register bench.
const { dataDir, cleanup } = await cachedDataDir('register-1000u-200c', (dir) =>
  buildOrg(dir, { users: USERS, channels: 200, subscriptionsPerUser: 30, messages: 2000 }),
);
// Hearth as it ships: dist/, the sources transpiled as `npm start` runs them.
// (Under the bench's TypeScript loader every arrow function kept as a class
// field is wrapped to keep its name, a cost per instance the shipped server
// does not pay.) The queries come from dist too: they share its per-database
// caches and write counters.
buildIfStale();
const fromDist = (file: string) => import(new URL(`../dist/server/${file}`, import.meta.url).href);
const { createServer } = (await fromDist('index.js')) as typeof import('../server/index.js');
const { insertStream, insertSubscription } = (await fromDist(
  'db/queries/streams.js',
)) as typeof import('../server/db/queries/streams.js');
const { userByEmailKey } = (await fromDist(
  'db/queries/users.js',
)) as typeof import('../server/db/queries/users.js');
const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
const { ctx } = server;
const users = Array.from(
  { length: USERS },
  (_, i) => userByEmailKey(ctx.db, `user${i}@bench.test`)!,
);
const authOf = (u: { delivery_email: string; api_key: string }) =>
  `Basic ${Buffer.from(`${u.delivery_email}:${u.api_key}`).toString('base64')}`;
/** Channels whose subscribers are the first N users: as many as the live queues. */
const channelOf = new Map<number, number>();
for (const size of [100, USERS]) {
  channelOf.set(
    size,
    ctx.transaction(() => {
      const id = insertStream(ctx.db, {
        name: `fanout ${size}`,
        description: '',
        rendered_description: '',
        invite_only: false,
        is_web_public: false,
        history_public_to_subscribers: true,
        date_created: 0,
        creator_id: null,
      });
      for (const u of users.slice(0, size)) insertSubscription(ctx.db, id, u.id, '#76ce90');
      return id;
    }),
  );
}
const sendBody = (subscribers: number) =>
  new URLSearchParams({
    type: 'stream',
    to: String(channelOf.get(subscribers)!),
    topic: 'fan out',
    content:
      'bench-seq-{seq}- hello everyone, the **release notes** are at https://example.com/notes',
  }).toString();
let hearthQueues: ReturnType<typeof ctx.events.register>[] = [];
const hearth: Target = {
  url: server.url,
  senders: users.slice(0, SENDERS).map(authOf),
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

/**
 * FANOUT_PROFILE=dir writes a CPU profile and an allocation profile (sampled)
 * of the server process for each
 * fixed-load run (both servers live in it, but only one is loaded at a time).
 */
async function profiled<T>(name: string, wanted: boolean, run: () => Promise<T>): Promise<T> {
  const dir = process.env.FANOUT_PROFILE;
  if (!dir || !wanted) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const result = await run();
  const { profile } = await session.post('Profiler.stop');
  const { profile: allocations } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  writeFileSync(path.join(dir, `${name}.heapprofile`), JSON.stringify(allocations));
  session.disconnect();
  return result;
}

// --- The ceiling: the least a server can do for the same requests.
const bare = await bareServer(USERS);
// --- The same with a fsync per send: a reference for the sends alone, not a ceiling.
const durableBareDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-durable-bare-'));
const durableBare = await bareServer(USERS, path.join(durableBareDir, 'bare.sqlite'));

/**
 * Rounds of each fixed-load and sends-only pair. This machine's neighbours
 * move a single run's CPU figures by a fifth or more; the median of three
 * alternating rounds moves far less.
 */
const ROUNDS = quick ? 1 : 3;

const median = (xs: number[]) => percentile(xs, 50);

/** Messages a run's note says were missing from some queue. */
const lost = (run: LoadRun) => Number.parseInt(run.note, 10);

/** Each figure's median over the rounds; the note of the round that lost the most. */
const medianRun = (runs: LoadRun[]): LoadRun => ({
  cpuPerMessageUs: median(runs.map((r) => r.cpuPerMessageUs)),
  cpuPerPollUs: median(runs.map((r) => r.cpuPerPollUs)),
  pollsPerMessage: median(runs.map((r) => r.pollsPerMessage)),
  p99: median(runs.map((r) => r.p99)),
  note: runs.reduce((a, b) => (lost(b) > lost(a) ? b : a)).note,
});

/**
 * Both servers under one load, taking turns so that the machine's load
 * weighs on both alike, `rounds` times (figures are the medians). With
 * `references`, the bare server with a fsync per send and Hearth under
 * synchronous=NORMAL take turns too.
 */
async function both(
  queues: number,
  rate: number,
  interval: number,
  options: {
    seconds?: number;
    subscribers?: number;
    rounds?: number;
    /** The references for the sends alone: the durable bare server, Hearth not waiting for the disk. */
    references?: boolean;
  } = {},
) {
  const name = `${queues}q-${rate}mps-${interval}ms`;
  const fixedLoad = queues > 0 && interval > 0;
  const hearthRuns: LoadRun[] = [];
  const bareRuns: LoadRun[] = [];
  const durableRuns: LoadRun[] = [];
  const unsyncedRuns: LoadRun[] = [];
  for (let round = 0; round < (options.rounds ?? 1); round++) {
    hearthRuns.push(
      await profiled(`hearth-${name}`, true, () => load(hearth, queues, rate, interval, options)),
    );
    bareRuns.push(
      await profiled(`bare-${name}`, fixedLoad, () =>
        load(bare.target, queues, rate, interval, options),
      ),
    );
    if (options.references) {
      durableRuns.push(await load(durableBare.target, queues, rate, interval, options));
      ctx.setSynchronous('NORMAL');
      try {
        unsyncedRuns.push(await load(hearth, queues, rate, interval, options));
      } finally {
        ctx.setSynchronous('FULL');
      }
    }
  }
  return {
    hearth: medianRun(hearthRuns),
    bare: medianRun(bareRuns),
    durable: durableRuns.length > 0 ? medianRun(durableRuns) : undefined,
    unsynced: unsyncedRuns.length > 0 ? medianRun(unsyncedRuns) : undefined,
  };
}

const longer = { seconds: quick ? 2 : 8 };
// The request cycle alone: 100 queues polling an empty queue with
// dont_block, back to back, no sends. Plainly spelled, Hearth serves them on
// its lean path; with the minus sign escaped (%2D1), on the route (Fastify's
// full cycle, the parameter spec), as before the lean path.
const plainQuery = 'last_event_id=-1&dont_block=true';
const leanPolls = await load(hearth, 100, 0, 0, { pollQuery: plainQuery });
const routePolls = await load(hearth, 100, 0, 0, {
  pollQuery: 'last_event_id=%2D1&dont_block=true',
});
const barePolls = await load(bare.target, 100, 0, 0, { pollQuery: plainQuery });
// The sends alone (no live queue), so that a poll's cost can be told from a send's.
const rounds = { rounds: ROUNDS };
const sends200 = await both(0, 200, 0, { ...rounds, subscribers: 100, references: true });
const sends20 = await both(0, 20, 0, { ...longer, ...rounds, subscribers: USERS });
const fixed100 = await both(100, 200, POLL_INTERVAL_MS, rounds);
const fixed1000 = await both(1000, 20, POLL_INTERVAL_MS, { ...longer, ...rounds });
const saturated100 = await both(100, 200, 0);
const saturated1000 = await both(1000, 100, 0);
// The same channel as the 1,000-queue run: the difference is the live queues alone.
const at100Slow = await both(100, 100, 0, { subscribers: USERS });
await server.close();
cleanup();
await bare.close();
await durableBare.close();
rmSync(durableBareDir, { recursive: true, force: true });

let pollsDiffer = false;
/** CPU per answered poll: what the polls (and the wake-ups) add to the sends alone. */
const perPoll = (run: LoadRun, sendsOnly: LoadRun) =>
  (run.cpuPerMessageUs - sendsOnly.cpuPerMessageUs) / run.pollsPerMessage;
for (const [label, run, sendsOnly] of [
  ['200 msg/s x 100 queues', fixed100, sends200],
  ['20 msg/s x 1,000 queues', fixed1000, sends20],
] as const) {
  const at = `at fixed load, ${label}`;
  const parity = run.hearth.pollsPerMessage / run.bare.pollsPerMessage;
  const even = Math.abs(parity - 1) <= POLL_PARITY;
  if (!even) pollsDiffer = true;
  const pollNote = `re-poll >= ${POLL_INTERVAL_MS} ms after the last began`;
  record({
    name: `fan-out ${at}: polls per message`,
    value: run.hearth.pollsPerMessage,
    unit: 'polls',
    ceiling: run.bare.pollsPerMessage,
    note: even ? pollNote : `${pollNote}; differ by more than 5 %: run void`,
  });
  record({
    name: `fan-out ${at}: server CPU per message`,
    value: run.hearth.cpuPerMessageUs,
    unit: 'µs',
    target: run.bare.cpuPerMessageUs * 1.25,
    ceiling: run.bare.cpuPerMessageUs,
    note: pollNote,
  });
  record({
    name: `fan-out ${at}: server CPU per answered poll`,
    value: perPoll(run.hearth, sendsOnly.hearth),
    unit: 'µs',
    target: perPoll(run.bare, sendsOnly.bare) * 1.25,
    ceiling: perPoll(run.bare, sendsOnly.bare),
    note: 'CPU per message less that of the same sends without queues, over polls per message',
  });
  record({
    name: `fan-out ${at}: server CPU per send, without queues`,
    value: sendsOnly.hearth.cpuPerMessageUs,
    unit: 'µs',
    ceiling: sendsOnly.bare.cpuPerMessageUs,
    note: 'the part of CPU per message that is not event delivery',
  });
  if (sendsOnly.durable && sendsOnly.unsynced) {
    // The first target's margin (a quarter of the bare server's CPU per
    // message) is what Hearth may spend beyond a bare insert: on the
    // promise that an answered send is on disk, and on everything Zulip's
    // API asks of a send. These show what the first costs, in either server.
    const margin = 0.25 * run.bare.cpuPerMessageUs;
    const share = (us: number) =>
      `${format(us)} µs, ${format((100 * us) / margin)} % of the margin CPU per message allows`;
    record({
      name: `fan-out ${at}: server CPU per send, without queues, the bare server with a fsync per send`,
      value: sendsOnly.durable.cpuPerMessageUs,
      unit: 'µs',
      ceiling: sendsOnly.bare.cpuPerMessageUs,
      note: `the fsync adds ${share(sendsOnly.durable.cpuPerMessageUs - sendsOnly.bare.cpuPerMessageUs)}`,
    });
    record({
      name: `fan-out ${at}: server CPU per send, without queues, Hearth not waiting for the disk (NORMAL)`,
      value: sendsOnly.unsynced.cpuPerMessageUs,
      unit: 'µs',
      ceiling: sendsOnly.bare.cpuPerMessageUs,
      note: `waiting for the disk adds ${share(sendsOnly.hearth.cpuPerMessageUs - sendsOnly.unsynced.cpuPerMessageUs)}`,
    });
  }
  record({
    name: `fan-out ${at}: p99 send to every queue`,
    value: run.hearth.p99,
    unit: 'ms',
    target: run.bare.p99 * 1.25,
    ceiling: run.bare.p99,
    note: run.hearth.note,
  });
}

record({
  name: 'GET /events answered at once (dont_block), CPU per poll: lean path',
  value: leanPolls.cpuPerPollUs,
  unit: 'µs',
  ceiling: barePolls.cpuPerPollUs,
  note: '100 queues polling back to back, no sends',
});
record({
  name: 'GET /events answered at once (dont_block), CPU per poll: the route',
  value: routePolls.cpuPerPollUs,
  unit: 'µs',
  ceiling: barePolls.cpuPerPollUs,
  note: 'the same polls with last_event_id spelled %2D1: Fastify and the parameter spec',
});

const saturation = (name: string, unit: Figure['unit'], h: number, b?: number, note?: string) =>
  record({ name: `fan-out at saturation: ${name}`, value: h, unit, ceiling: b, note });
saturation(
  'server CPU per message, 200 msg/s x 100 queues',
  'µs',
  saturated100.hearth.cpuPerMessageUs,
  saturated100.bare.cpuPerMessageUs,
);
saturation(
  'polls per message, 200 msg/s x 100 queues',
  'polls',
  saturated100.hearth.pollsPerMessage,
  saturated100.bare.pollsPerMessage,
);
saturation(
  'p99 send to every queue, 200 msg/s x 100 queues',
  'ms',
  saturated100.hearth.p99,
  saturated100.bare.p99,
  saturated100.hearth.note,
);
saturation(
  'server CPU per message, 100 msg/s x 1,000 queues',
  'µs',
  saturated1000.hearth.cpuPerMessageUs,
  saturated1000.bare.cpuPerMessageUs,
);
saturation(
  'polls per message, 100 msg/s x 1,000 queues',
  'polls',
  saturated1000.hearth.pollsPerMessage,
  saturated1000.bare.pollsPerMessage,
);
saturation(
  'p99 send to every queue, 100 msg/s x 1,000 queues',
  'ms',
  saturated1000.hearth.p99,
  saturated1000.bare.p99,
  saturated1000.hearth.note,
);
/** What each of 900 more live queues adds to a message's CPU, at saturation. */
const perAdditionalQueue = (at1000: LoadRun, at100: LoadRun) =>
  (at1000.cpuPerMessageUs - at100.cpuPerMessageUs) / 900;
record({
  name: 'fan-out at saturation: CPU per additional live queue',
  value: perAdditionalQueue(saturated1000.hearth, at100Slow.hearth),
  unit: 'µs',
  target: 5,
  // The bare server's own figure, measured alike: the target predates it.
  ceiling: perAdditionalQueue(saturated1000.bare, at100Slow.bare),
  note: '100 msg/s, 1,000 queues against 100',
});
if (pollsDiffer) {
  console.error(
    `  polls per message differ by more than ${POLL_PARITY * 100} % between the servers at a fixed load: this run compares different work`,
  );
  process.exitCode = 1;
}

/**
 * Fastify + better-sqlite3 with in-memory queues: insert, push, answer long
 * polls. With `durableFile` the table lives in a WAL file that SQLite
 * fsyncs at each commit (synchronous=FULL): not the ceiling, but what
 * Hearth's promise that an answered send is on disk costs on this machine.
 */
async function bareServer(userCount: number, durableFile?: string) {
  const db = new Database(durableFile ?? ':memory:');
  if (durableFile) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
  }
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
    const { queue_id, last_event_id, dont_block } = req.query as Record<string, string>;
    const q = queues.get(queue_id!)!;
    const last = Number(last_event_id);
    q.events = q.events.filter((e) => e.id > last);
    if (q.events.length > 0 || dont_block === 'true') {
      return reply.type('application/json').send(answer(q));
    }
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
    async close() {
      await app.close();
      db.close();
    },
    target: {
      url: `http://127.0.0.1:${address.port}`,
      senders: authOfIndex.slice(0, SENDERS),
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
