/**
 * Load generator for bench/http-send.ts, run as its own process: each
 * concurrent client sends over its own bare keep-alive socket (Node's http
 * client would cost this process more per request than the server spends
 * on some of them, on the same two cores). Reports the seconds the measured
 * sends took and the process's own CPU time.
 */
import { KeepAliveConnection } from './lib/keep-alive-connection.js';

const { url, senders, streamId, total, concurrency, warmup } = JSON.parse(
  process.env.BENCH_CONFIG!,
) as {
  url: string;
  senders: string[];
  streamId: number;
  total: number;
  concurrency: number;
  /** Sends before the measured ones (default 500). */
  warmup?: number;
};
const path = new URL(url).pathname;

function body(i: number): string {
  return new URLSearchParams({
    type: 'stream',
    to: String(streamId),
    topic: `topic ${i % 50}`,
    content: `Message ${i}: hello @**User 3**, see https://example.com/${i} and \`code\` **bold** :smile:`,
  }).toString();
}

const connections = Array.from({ length: concurrency }, () => new KeepAliveConnection(url));
const send = (connection: KeepAliveConnection, i: number) =>
  connection.request('POST', path, senders[i % senders.length]!, body(i));

// Warm up (JIT, statement caches), then measure.
for (let i = 0; i < (warmup ?? 500); i++) await send(connections[0]!, i);
let next = 0;
const start = performance.now();
const cpuStart = process.cpuUsage();
await Promise.all(
  connections.map(async (connection) => {
    while (next < total) await send(connection, next++);
  }),
);
const cpu = process.cpuUsage(cpuStart);
process.stdout.write(
  JSON.stringify({
    seconds: (performance.now() - start) / 1000,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
);
for (const connection of connections) connection.close();
