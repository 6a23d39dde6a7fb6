/**
 * Load generator for bench/fanout.ts, run as its own process: one long-poll
 * loop per event queue, and a sender at a fixed rate. Reports, per message,
 * the time from its send to its arrival in the last queue.
 */
import http from 'node:http';

interface Config {
  url: string;
  /** Queues to poll: their id and the owner's Authorization header. */
  queues: Array<{ id: string; auth: string }>;
  senderAuth: string;
  /** Form body of a send; its (encoded) {seq} becomes the message number. */
  sendBody: string;
  rate: number;
  seconds: number;
}

const config = JSON.parse(process.env.BENCH_CONFIG!) as Config;
const agent = new http.Agent({ keepAlive: true, maxSockets: config.queues.length + 50 });
const total = Math.round(config.rate * config.seconds);
const sentAt = new Array<number>(total).fill(0);
const arrivals = new Array<number>(total).fill(0);
const lastArrival = new Array<number>(total).fill(0);
let stopping = false;

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

const SEQ = /bench-seq-(\d+)-/;

async function poll(queue: { id: string; auth: string }): Promise<void> {
  let last = -1;
  while (!stopping) {
    const text = await request(
      'GET',
      `/api/v1/events?queue_id=${queue.id}&last_event_id=${last}`,
      queue.auth,
    );
    const now = performance.now();
    const { events } = JSON.parse(text) as {
      events: Array<{ id: number; type: string; message?: { content: string } }>;
    };
    for (const event of events) {
      last = Math.max(last, event.id);
      const seq = event.message ? SEQ.exec(event.message.content) : null;
      if (!seq) continue;
      const n = Number(seq[1]);
      arrivals[n]!++;
      lastArrival[n] = Math.max(lastArrival[n]!, now);
    }
    if (arrivals.every((a) => a === config.queues.length) && sentAt.every((s) => s > 0)) break;
  }
}

const pollers = config.queues.map((q) => poll(q));
await new Promise((r) => setTimeout(r, 300));
process.send?.({ type: 'started' });
const start = performance.now();
const sends: Promise<string>[] = [];
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / config.rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  sentAt[i] = performance.now();
  sends.push(
    request(
      'POST',
      '/api/v1/messages',
      config.senderAuth,
      config.sendBody.replace(encodeURIComponent('{seq}'), String(i)),
    ),
  );
}
await Promise.all(sends);
const deadline = setTimeout(() => {
  stopping = true;
}, 30_000);
await Promise.race([Promise.all(pollers), new Promise((r) => setTimeout(r, 30_000))]);
clearTimeout(deadline);
// A message some queue never got counts from its send to the end of the run.
const end = performance.now();
const latencies = sentAt.map((s, i) =>
  arrivals[i] === config.queues.length ? lastArrival[i]! - s : end - s,
);
const undelivered = arrivals.filter((a) => a < config.queues.length).length;
process.stdout.write(JSON.stringify({ latencies, undelivered, seconds: (end - start) / 1000 }));
agent.destroy();
process.exit(0);
