/**
 * Load generator for bench/fanout.ts, run as its own process: one long-poll
 * loop per event queue (each on its own bare keep-alive socket), and senders
 * taking turns at a fixed total rate. Reports, per message, the time from its
 * send to its arrival in the last queue, the polls answered, and the
 * process's own CPU time.
 *
 * With `minPollIntervalMs` each queue re-polls no sooner than that after its
 * previous poll began, as a client with that round trip does: the offered
 * load is then fixed, and every server answers about as many polls per
 * message. Without it a queue re-polls the moment its answer arrives, and a
 * slower server batches more events per answer (saturation).
 */
import http from 'node:http';
import { KeepAliveConnection } from './lib/keep-alive-connection.js';

interface Config {
  url: string;
  /** Queues to poll: their id and the owner's Authorization header. */
  queues: Array<{ id: string; auth: string }>;
  /** Authorization headers of the senders, used in turn. */
  senders: string[];
  /** Form body of a send; its (encoded) {seq} becomes the message number. */
  sendBody: string;
  rate: number;
  /** Sent before the measured ones and not counted. */
  warmupSeconds: number;
  seconds: number;
  /** 0: re-poll at once (saturation). */
  minPollIntervalMs: number;
  /**
   * Polls only, no sends: each queue polls `?queue_id=<id>&<pollQuery>`
   * back to back (a dont_block poll of an empty queue), to weigh the
   * request cycle alone.
   */
  pollQuery?: string;
}

const config = JSON.parse(process.env.BENCH_CONFIG!) as Config;
const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
const warmup = Math.round(config.rate * config.warmupSeconds);
const total = warmup + Math.round(config.rate * config.seconds);
const sentAt = new Array<number>(total).fill(0);
const arrivals = new Array<number>(total).fill(0);
const lastArrival = new Array<number>(total).fill(0);
let stopping = false;
let polls = 0;
/** Messages every queue has received. */
let complete = 0;
/** Settles once every message has reached every queue: other pollers may still be parked. */
let everyMessageArrived!: () => void;
const allArrived = new Promise<void>((resolve) => {
  everyMessageArrived = resolve;
});

function request(method: string, path: string, auth: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${config.url}${path}`,
      {
        method,
        agent,
        headers: {
          authorization: auth,
          ...(body
            ? {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(body),
              }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(text)
            : reject(new Error(`${path}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A message's number, in the content the sender gave it. */
const SEQ = /bench-seq-(\d+)-/g;
/**
 * An event's own id: the last key of its object, which ends the event, so
 * another event or the end of the array follows. A message object's own id
 * is followed by more keys.
 */
const EVENT_ID = /,"id":(\d+)\}(?=,\{|\])/g;

/**
 * The answer is scanned rather than parsed: on this 2-core machine, parsing
 * every answer in full made the load client the bottleneck of the
 * 1,000-queue run, and a real client runs on a machine of its own.
 */
async function poll(queue: { id: string; auth: string }): Promise<void> {
  const connection = new KeepAliveConnection(config.url);
  let last = -1;
  const interval = config.minPollIntervalMs;
  while (!stopping && complete < total) {
    const began = performance.now();
    const text = await connection.request(
      'GET',
      `/api/v1/events?queue_id=${queue.id}&last_event_id=${last}`,
      queue.auth,
    );
    polls++;
    const now = performance.now();
    for (const [, id] of text.matchAll(EVENT_ID)) last = Math.max(last, Number(id));
    // A queue gets each message once, so each number counts once per answer.
    for (const n of new Set(Array.from(text.matchAll(SEQ), ([, seq]) => Number(seq)))) {
      if (++arrivals[n]! === config.queues.length && ++complete === total) everyMessageArrived();
      lastArrival[n] = Math.max(lastArrival[n]!, now);
    }
    const wait = began + interval - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  connection.close();
}

/** Sends messages [from, to) at the configured rate, each numbered by its index. */
async function sendAtRate(from: number, to: number): Promise<void> {
  const start = performance.now();
  const sends: Promise<string>[] = [];
  for (let i = from; i < to; i++) {
    const due = start + ((i - from) * 1000) / config.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sentAt[i] = performance.now();
    const send = request(
      'POST',
      '/api/v1/messages',
      config.senders[i % config.senders.length]!,
      config.sendBody.replace(encodeURIComponent('{seq}'), String(i)),
    );
    // Without queues (the sends' own cost), a message has arrived once its send is answered.
    if (config.queues.length === 0) {
      send.then(() => {
        lastArrival[i] = performance.now();
        if (++complete === total) everyMessageArrived();
      });
    }
    sends.push(send);
  }
  await Promise.all(sends);
}

if (config.pollQuery !== undefined) await pollOnly(config.pollQuery);

/** The polls-only run: `seconds` of back-to-back polls after `warmupSeconds` that do not count. */
async function pollOnly(query: string): Promise<never> {
  let counted = false;
  const loops = config.queues.map(async (queue) => {
    const connection = new KeepAliveConnection(config.url);
    while (!stopping) {
      await connection.request('GET', `/api/v1/events?queue_id=${queue.id}&${query}`, queue.auth);
      if (counted) polls++;
    }
    connection.close();
  });
  await new Promise((r) => setTimeout(r, config.warmupSeconds * 1000));
  process.send?.({ type: 'started' });
  counted = true;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await new Promise((r) => setTimeout(r, config.seconds * 1000));
  stopping = true;
  await Promise.all(loops);
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(
    JSON.stringify({
      latencies: [],
      undelivered: 0,
      seconds: (performance.now() - start) / 1000,
      clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
      polls,
    }),
  );
  agent.destroy();
  process.exit(0);
}

const pollers = config.queues.map((q) => poll(q));
await new Promise((r) => setTimeout(r, 300));
// Both processes reach a steady state (JIT, caches, socket buffers) before
// anything counts: a cold start's backlog would otherwise be the p99.
await sendAtRate(0, warmup);
const warmedBy = performance.now() + 30_000;
while (complete < warmup && performance.now() < warmedBy) {
  await new Promise((r) => setTimeout(r, 10));
}
process.send?.({ type: 'started' });
polls = 0;
const start = performance.now();
const cpuStart = process.cpuUsage();
await sendAtRate(warmup, total);

const deadline = setTimeout(() => {
  stopping = true;
}, 30_000);
await Promise.race([allArrived, Promise.all(pollers), new Promise((r) => setTimeout(r, 30_000))]);
clearTimeout(deadline);
stopping = true;
// A message some queue never got counts from its send to the end of the run.
const end = performance.now();
const latencies = sentAt
  .slice(warmup)
  .map((s, i) =>
    arrivals[warmup + i] === config.queues.length ? lastArrival[warmup + i]! - s : end - s,
  );
const undelivered = arrivals.slice(warmup).filter((a) => a < config.queues.length).length;
const cpu = process.cpuUsage(cpuStart);
process.stdout.write(
  JSON.stringify({
    latencies,
    undelivered,
    seconds: (end - start) / 1000,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
    polls,
  }),
);
agent.destroy();
process.exit(0);
