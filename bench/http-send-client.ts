/** Load generator for bench/http-send.ts, run as its own process. */
import http from 'node:http';

const { url, senders, streamId, total, concurrency } = JSON.parse(process.env.BENCH_CONFIG!) as {
  url: string;
  senders: string[];
  streamId: number;
  total: number;
  concurrency: number;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);

function send(i: number): Promise<void> {
  const body = new URLSearchParams({
    type: 'stream',
    to: String(streamId),
    topic: `topic ${i % 50}`,
    content: `Message ${i}: hello @**User 3**, see https://example.com/${i} and \`code\` **bold** :smile:`,
  }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: senders[i % senders.length]!,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// Warm up (JIT, statement caches), then measure.
for (let i = 0; i < 500; i++) await send(i);
let next = 0;
const start = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) await send(next++);
  }),
);
process.stdout.write(JSON.stringify({ seconds: (performance.now() - start) / 1000 }));
agent.destroy();
