/**
 * `npm start`'s server as it really runs (compiled JavaScript under plain
 * node): time from spawn to the first answered request, on a fresh data
 * directory (creates the organization), on a fresh one with --demo (also
 * seeds the demo people) and on existing data, and the RSS once idle.
 * Targets: < 1.5 s fresh (demo or not), < 1 s existing, < 100 MB idle.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale, startCompiledServer } from './lib/compiled-server.js';
import { record } from './lib/report.js';

buildIfStale();

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-start-'));

/** A line of /proc/PID/status in MB: VmRSS, or RssAnon (the private part: heaps, not mapped files). */
const statusMb = (pid: number, field: 'VmRSS' | 'RssAnon') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) /
  1024;

async function start(
  dir = dataDir,
  extra: string[] = [],
): Promise<{ ms: number; stop: () => Promise<void>; pid: number }> {
  const server = await startCompiledServer(dir, extra);
  return { ms: server.readyMs, stop: server.stop, pid: server.pid };
}

const demoDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-demo-'));
const demo = await start(demoDir, ['--demo']);
record({ name: 'start to ready, fresh demo', value: demo.ms / 1000, unit: 's', target: 1.5 });
await demo.stop();
rmSync(demoDir, { recursive: true, force: true });
const fresh = await start();
record({
  name: 'start to ready, fresh data directory',
  value: fresh.ms / 1000,
  unit: 's',
  target: 1.5,
});
await fresh.stop();
const existing = await start();
record({ name: 'start to ready, existing data', value: existing.ms / 1000, unit: 's', target: 1 });
await new Promise((r) => setTimeout(r, 5000));
record({
  name: 'idle RSS 5 s after start',
  value: statusMb(existing.pid, 'VmRSS'),
  unit: 'MB',
  target: 100,
});
// Node 24's binary keeps about 9 MB more of its own code resident than Node
// 20's did (file-backed, shared, clean pages): the private part tells the
// server's own memory apart from the runtime's size.
record({
  name: 'idle private memory (RssAnon) 5 s after start',
  value: statusMb(existing.pid, 'RssAnon'),
  unit: 'MB',
});
await existing.stop();
rmSync(dataDir, { recursive: true, force: true });
