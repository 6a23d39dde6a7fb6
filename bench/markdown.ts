/**
 * Renders a typical ~200-character chat message (mention, emphasis, link,
 * emoji, inline code) repeatedly and reports renders per second.
 * Run: npx tsx bench/markdown.ts
 */
import { type MarkdownLookups, renderMarkdown } from '../server/markdown/markdown.js';
import { record } from './lib/report.js';

const users = [
  { id: 10, fullName: 'King Hamlet' },
  { id: 11, fullName: 'Iago' },
];
const lookups: MarkdownLookups = {
  userById: (id) => users.find((u) => u.id === id),
  usersByName: (name) => users.filter((u) => u.fullName.toLowerCase() === name.toLowerCase()),
  groupByName: () => undefined,
  channelByName: (name) => (name === 'Denmark' ? { id: 1, name: 'Denmark' } : undefined),
  realmEmoji: () => undefined,
  linkifiers: () => [],
};
const options = { realmUrl: 'https://chat.example.com' };

const MESSAGE =
  'Hey @**King Hamlet**, the deploy is **done** :tada: and the logs are at https://example.com/logs/2024. ' +
  'Please run `npm test` before merging, and *double-check* the config in #**Denmark** thanks!';

const TARGET = 20_000;

function run(iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) renderMarkdown(MESSAGE, lookups, options);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const sample = renderMarkdown(MESSAGE, lookups, options);
console.log(`message (${MESSAGE.length} chars):\n  ${MESSAGE}`);
console.log(`html:\n  ${sample.html}`);

run(5_000); // warm-up: JIT and the emoji tables
const rates: number[] = [];
for (let round = 0; round < 5; round++) {
  const n = 20_000;
  rates.push(n / run(n));
}
rates.sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)]!;
record({
  name: 'Markdown renders per second (median of 5)',
  value: median,
  unit: 'msg/s',
  target: TARGET,
  higherIsBetter: true,
  note: `min ${Math.round(rates[0]!)}, max ${Math.round(rates[rates.length - 1]!)}`,
});
