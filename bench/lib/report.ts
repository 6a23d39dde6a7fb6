/**
 * Figures a benchmark reports. Each bench process prints its figures as it
 * goes and, when run by bench/run.ts, appends them (one JSON line each) to
 * the file named by HEARTH_BENCH_RESULTS so the runner can print one table.
 */
import { appendFileSync } from 'node:fs';

export interface Figure {
  /** What was measured, e.g. "POST /register p50". */
  name: string;
  value: number;
  unit: 'ms' | 'µs' | 's' | 'MB' | 'msg/s' | 'x' | '%' | 'polls';
  /** Upper bound the figure must stay under (lower bound for rates: see higherIsBetter). */
  target?: number;
  higherIsBetter?: boolean;
  /** The same work done by the bare reference server in the same run, when there is one. */
  ceiling?: number;
  /** Free-form context: load, sizes, the load average. */
  note?: string;
}

export const missed = (f: Figure) =>
  f.target !== undefined && (f.higherIsBetter ? f.value < f.target : f.value > f.target);

export function record(figure: Figure): void {
  const parts = [`  ${figure.name}: ${format(figure.value)} ${figure.unit}`];
  if (figure.ceiling !== undefined)
    parts.push(`(ceiling ${format(figure.ceiling)} ${figure.unit})`);
  if (figure.target !== undefined) {
    parts.push(`target ${figure.higherIsBetter ? '>=' : '<='} ${format(figure.target)}`);
  }
  if (missed(figure)) parts.push('MISS');
  console.log(parts.join(' '));
  const file = process.env.HEARTH_BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

export const format = (n: number) =>
  !Number.isFinite(n)
    ? String(n)
    : Math.abs(n) >= 100
      ? n.toFixed(0)
      : Math.abs(n) >= 10
        ? n.toFixed(1)
        : n.toFixed(2);

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Progress on one line while a database fills (stderr, so figures stay parseable). */
export function progress(label: string, done: number, total: number): void {
  if (done !== total && done % Math.max(1, Math.floor(total / 20)) !== 0) return;
  process.stderr.write(
    `\r  ${label}: ${Math.round((100 * done) / total)}%${done === total ? '\n' : ''}`,
  );
}

/** --quick shrinks every size; benches read their sizes through this. */
export const quick = process.argv.includes('--quick');
