/**
 * GET /messages with search narrows in a 1,000,000-message organization,
 * newest 100 first, over HTTP. Targets: a common word (in one message in
 * five) p50 < 10 ms, a rare one (one in 50,000) p50 < 5 ms; narrows the
 * search index cannot drive alone (a channel with a common word, a sparse
 * has:link, an older page) are reported against the same bound, and the
 * worst case of a search with another indexed term (every match filtered
 * out) without one.
 */
import http from 'node:http';
import { createServer } from '../server/index.js';
import { cachedDataDir } from './lib/cache.js';
import { basicAuthOf, buildOrg, COMMON_WORD, RARE_WORD } from './lib/org.js';
import { percentile, quick, record } from './lib/report.js';

const shape = {
  users: 100,
  channels: 50,
  subscriptionsPerUser: 25,
  messages: quick ? 100_000 : 1_000_000,
};
const { dataDir, cleanup } = await cachedDataDir(`search-${shape.messages}m`, (dir) =>
  buildOrg(dir, shape),
);
const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const auth = basicAuthOf(server, 1);

function fetchWindow(narrow: unknown[], anchor: string): Promise<{ ms: number; count: number }> {
  const query = new URLSearchParams({
    anchor,
    num_before: '100',
    num_after: '0',
    narrow: JSON.stringify(narrow),
  });
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(
        `${server.url}/api/v1/messages?${query}`,
        { agent, headers: { authorization: auth } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => {
            if (res.statusCode !== 200)
              return reject(new Error(`messages: ${res.statusCode} ${body}`));
            const count = (JSON.parse(body) as { messages: unknown[] }).messages.length;
            resolve({ ms: performance.now() - start, count });
          });
        },
      )
      .on('error', reject);
  });
}

async function measure(
  label: string,
  narrow: unknown[],
  target: number | undefined,
  ceiling?: number,
  anchor = 'newest',
): Promise<number> {
  const first = await fetchWindow(narrow, anchor);
  const samples: number[] = [];
  for (let i = 0; i < (quick ? 20 : 50); i++) samples.push((await fetchWindow(narrow, anchor)).ms);
  const note = `${first.count} messages returned, ${shape.messages} in the organization`;
  const p50 = percentile(samples, 50);
  record({ name: `${label} p50`, value: p50, unit: 'ms', target, ceiling, note });
  record({ name: `${label} p99`, value: percentile(samples, 99), unit: 'ms', note });
  return p50;
}

// The ceiling: the newest 100 messages with no narrow, the same answer size.
const plain = await measure('newest 100, no narrow', [], undefined);
await measure('search, common word', [{ operator: 'search', operand: COMMON_WORD }], 10, plain);
await measure('search, rare word', [{ operator: 'search', operand: RARE_WORD }], 5, plain);
await measure(
  'search, common word in one channel',
  [
    { operator: 'channel', operand: 'channel 3' },
    { operator: 'search', operand: COMMON_WORD },
  ],
  10,
  plain,
);
await measure('has:link (one message in 1,000)', [{ operator: 'has', operand: 'link' }], 10, plain);
// No message has a reaction: the walk must not read every message to say so.
await measure(
  'has:reaction (none in the organization)',
  [{ operator: 'has', operand: 'reaction' }],
  10,
  plain,
);
// Scrolling back: the 100 matches before the middle of the history.
await measure(
  'search, common word, 100 before the middle',
  [{ operator: 'search', operand: COMMON_WORD }],
  10,
  plain,
  String(shape.messages / 2),
);
// Every match filtered out by the other term (the links are all in a
// channel this user cannot read without naming it): the worst case of the
// stretches, each of the word's matches read once.
await measure(
  'search, common word with has:link, none visible',
  [
    { operator: 'has', operand: 'link' },
    { operator: 'search', operand: COMMON_WORD },
  ],
  undefined,
  plain,
);

agent.destroy();
await server.close();
cleanup();
