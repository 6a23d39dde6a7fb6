/**
 * What durable sends cost. The server commits with synchronous=FULL (an
 * answered send survives a power cut: db/DESIGN.md, "Durability"), which
 * fsyncs the WAL at every commit; group commit shares that fsync among the
 * sends that arrive together. Each figure is the send rate under FULL with
 * its ceiling, the same server and load under NORMAL (fsync only at
 * checkpoints), measured in the same run, the two alternating.
 * Target: with 16 clients, FULL keeps 80% of NORMAL's rate. One client
 * has nothing to share its fsync with; its figure says what one costs.
 *
 *   npx tsx bench/durable-send.ts [--quick]
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Figure, percentile, quick, record } from './lib/report.js';
import { startSendBench } from './lib/send-load.js';

/**
 * What one fsync costs on this disk, the context for every ratio below:
 * 4 KiB rewritten in a 1 MiB file, as a WAL is rewritten after a checkpoint.
 */
function fsyncMs(): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-fsync-'));
  const fd = openSync(path.join(dir, 'probe'), 'w');
  const page = Buffer.alloc(4096, 7);
  for (let i = 0; i < 256; i++) writeSync(fd, page, 0, page.length, i * page.length);
  fdatasyncSync(fd);
  const samples: number[] = [];
  for (let i = 0; i < (quick ? 50 : 200); i++) {
    const start = performance.now();
    writeSync(fd, page, 0, page.length, (i % 256) * page.length);
    fdatasyncSync(fd);
    samples.push(performance.now() - start);
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  return percentile(samples, 50);
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle)
    ? (sorted[middle - 1]! + sorted[middle]!) / 2
    : sorted[Math.floor(middle)]!;
}

record({
  name: 'fdatasync of a 4 KiB rewrite p50 (the disk the ratios below ran on)',
  value: fsyncMs(),
  unit: 'ms',
});

const bench = await startSendBench();
const db = bench.server.ctx.db;
const initial = db.pragma('synchronous', { simple: true });
if (initial !== 2)
  throw new Error(`the server should open with synchronous=FULL (2), not ${initial}`);

/** Alternating, so that drift in the machine's load falls on both alike. */
const ABBA = ['NORMAL', 'FULL', 'FULL', 'NORMAL'] as const;
const ROUNDS = quick ? ABBA : [...ABBA, ...ABBA];

const cases: Array<{ clients: number; sends: number; target?: number }> = [
  { clients: 1, sends: quick ? 150 : 300 },
  { clients: 16, sends: quick ? 1500 : 4000, target: 0.8 },
];

for (const { clients, sends, target } of cases) {
  const rates: Record<'FULL' | 'NORMAL', number[]> = { FULL: [], NORMAL: [] };
  for (const level of ROUNDS) {
    db.pragma(`synchronous = ${level}`);
    const run = await bench.run(clients, sends, 100);
    rates[level].push(run.rate);
    console.log(`  ${clients} client(s), ${level}: ${run.rate.toFixed(0)} msg/s`);
  }
  // The median: one run slowed by a neighbour on the machine moves it least.
  const full = median(rates.FULL);
  const normal = median(rates.NORMAL);
  const figure: Figure = {
    name: `POST /messages, synchronous=FULL, ${clients} client${clients === 1 ? '' : 's'}`,
    value: full,
    unit: 'msg/s',
    ceiling: normal,
    higherIsBetter: true,
    note: `ceiling: NORMAL; runs FULL ${rates.FULL.map((r) => r.toFixed(0)).join(', ')}, NORMAL ${rates.NORMAL.map((r) => r.toFixed(0)).join(', ')}`,
  };
  if (target !== undefined) figure.target = normal * target;
  record(figure);
}
db.pragma('synchronous = FULL');
await bench.close();
