/**
 * `npm run bench [-- --quick] [-- --strict] [-- --only register,search]`:
 * every benchmark, one process each so they do not share caches or heaps.
 * Each prints progress and its figures as it goes; at the end one table of
 * every figure with its target and ceiling, misses flagged, written to
 * bench/results.json. The exit code says "missed" only with --strict, since
 * the machine is shared and noisy. Performance targets live here, not in
 * timed tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Figure, format, missed } from './lib/report.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const args = process.argv.slice(2);
const strict = args.includes('--strict');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]!.split(',')) : null;
const passOn = args.filter((a, i) => a === '--quick' || (i > 0 && args[i - 1] === '--messages'));

const benches = [
  'register',
  'search',
  'fanout',
  'storage',
  'http-send',
  'durable-send',
  'markdown',
  'startup',
  'upload-memory',
  'chat',
  'export',
].filter((name) => existsSync(path.join(here, `${name}.ts`)) && (!only || only.has(name)));

const resultsFile = path.join(
  mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-results-')),
  'figures.jsonl',
);
writeFileSync(resultsFile, '');
const failed: string[] = [];
for (const name of benches) {
  console.log(`\n== ${name} ==`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, `${name}.ts`), ...passOn],
    { stdio: 'inherit', env: { ...process.env, HEARTH_BENCH_RESULTS: resultsFile } },
  );
  if (result.status !== 0) failed.push(name);
}

const figures = readFileSync(resultsFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Figure);
rmSync(path.dirname(resultsFile), { recursive: true, force: true });

const rows = figures.map((f) => [
  missed(f) ? 'MISS' : f.target === undefined ? '' : 'ok',
  f.name,
  `${format(f.value)} ${f.unit}`,
  f.target === undefined ? '' : `${f.higherIsBetter ? '>=' : '<='} ${format(f.target)} ${f.unit}`,
  f.ceiling === undefined ? '' : `${format(f.ceiling)} ${f.unit} (${format(f.value / f.ceiling)}x)`,
]);
const header = ['', 'figure', 'value', 'target', 'ceiling'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(`\n${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}`);
for (const row of rows) console.log(line(row));
const misses = figures.filter(missed);
const load = os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
console.log(
  `\n${misses.length} of ${figures.filter((f) => f.target !== undefined).length} targets missed; load average ${load}`,
);
if (failed.length > 0) console.log(`benchmarks that failed to run: ${failed.join(', ')}`);

writeFileSync(
  path.join(here, 'results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      quick: args.includes('--quick'),
      cpus: os.cpus().length,
      loadAverage: os.loadavg(),
      figures: figures.map((f) => ({ ...f, missed: missed(f) })),
      failed,
    },
    null,
    2,
  )}\n`,
);
process.exit(failed.length > 0 || (strict && misses.length > 0) ? 1 : 0);
