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
import { performance } from 'node:perf_hooks';
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

/** Where one run's time went: what says whether a miss is the disk's, the loop's or the machine's. */
interface RunDetail {
  rate: number;
  /** Sends per commit. */
  perBatch: number;
  /** From a commit to its answers, mean (FULL only: under NORMAL answers follow at once). */
  waitMs: number;
  /** Sends waiting on an fsync at any moment (Little's law: rate × wait), out of `clients`. */
  waitingClients: number;
  /** Share of the run the event loop was busy. */
  loopBusy: number;
  serverCpuUsPerSend: number;
}

async function measure(clients: number, sends: number): Promise<RunDetail> {
  const before = bench.server.ctx.groupCommitStats();
  const loopBefore = performance.eventLoopUtilization();
  const run = await bench.run(clients, sends, 100);
  const loop = performance.eventLoopUtilization(loopBefore);
  const after = bench.server.ctx.groupCommitStats();
  const waited = after.waited - before.waited;
  const waitMs = waited === 0 ? 0 : (after.waitedMs - before.waitedMs) / waited;
  return {
    rate: run.rate,
    perBatch: (after.writes - before.writes) / Math.max(1, after.batches - before.batches),
    waitMs,
    waitingClients: (run.rate * waitMs) / 1000,
    loopBusy: loop.utilization,
    // Includes the fdatasyncs' own kernel time on the thread pool.
    serverCpuUsPerSend: (run.serverCpuSeconds * 1e6) / sends,
  };
}

const summary = (d: RunDetail) =>
  `${d.rate.toFixed(0)} msg/s; ${d.perBatch.toFixed(1)} sends/commit, commit→answer ${d.waitMs.toFixed(2)} ms (${d.waitingClients.toFixed(1)} clients waiting on the disk), loop busy ${(100 * d.loopBusy).toFixed(0)}%, server CPU ${d.serverCpuUsPerSend.toFixed(0)} µs/send`;

for (const { clients, sends, target } of cases) {
  const rates: Record<'FULL' | 'NORMAL', number[]> = { FULL: [], NORMAL: [] };
  const details: Record<'FULL' | 'NORMAL', RunDetail[]> = { FULL: [], NORMAL: [] };
  for (const level of ROUNDS) {
    bench.server.ctx.setSynchronous(level);
    const run = await measure(clients, sends);
    rates[level].push(run.rate);
    details[level].push(run);
    console.log(`  ${clients} client(s), ${level}: ${summary(run)}`);
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
  const of = (level: 'FULL' | 'NORMAL', pick: (d: RunDetail) => number) =>
    median(details[level].map(pick));
  const waitMs = of('FULL', (d) => d.waitMs);
  // Closed loop: each client's next send follows its answer, so a send takes clients/rate.
  const perSendNormal = (1000 * clients) / normal;
  const perSendFull = (1000 * clients) / full;
  const explanation =
    `a send took ${perSendNormal.toFixed(2)} ms under NORMAL, ${perSendFull.toFixed(2)} ms under FULL ` +
    `(${waitMs.toFixed(2)} ms of it from commit to answer, waiting for the fsync` +
    (target === undefined
      ? ')'
      : `; the target allows ${(perSendNormal / target).toFixed(2)} ms)`) +
    `; sends/commit FULL ${of('FULL', (d) => d.perBatch).toFixed(1)}, NORMAL ${of('NORMAL', (d) => d.perBatch).toFixed(1)}` +
    `; loop busy FULL ${(100 * of('FULL', (d) => d.loopBusy)).toFixed(0)}%, NORMAL ${(100 * of('NORMAL', (d) => d.loopBusy)).toFixed(0)}%` +
    `; server CPU FULL ${of('FULL', (d) => d.serverCpuUsPerSend).toFixed(0)}, NORMAL ${of('NORMAL', (d) => d.serverCpuUsPerSend).toFixed(0)} µs/send`;
  console.log(`  ${clients} client(s), medians: ${explanation}`);
  record({
    name: `commit→answer under FULL, ${clients} client${clients === 1 ? '' : 's'}, mean (the fsync as the event loop sees it)`,
    value: waitMs,
    unit: 'ms',
    note: explanation,
  });
}
bench.server.ctx.setSynchronous('FULL');
await bench.close();
