/**
 * `npm start`'s server as it really runs (compiled JavaScript under plain
 * node): time from spawn to the first answered request, on a fresh data
 * directory (creates the organization) and on existing data, and the RSS
 * once idle. Targets: < 1.5 s fresh, < 1 s existing, < 100 MB idle.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { record } from './lib/report.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) throw new Error('build failed');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-start-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);

async function ready(url: string, started: number, deadline: number): Promise<number> {
  while (performance.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/v1/server_settings`);
      if (res.ok) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the server did not become ready');
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function start(): Promise<{ ms: number; stop: () => Promise<void>; pid: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['dist/server/cli.js', '--data-dir', dataDir, '--port', String(port)],
    { cwd: root, stdio: 'ignore' },
  );
  const ms = await ready(`http://127.0.0.1:${port}`, started, started + 30_000);
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { ms, stop, pid: child.pid! };
}

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
record({ name: 'idle RSS 5 s after start', value: rssMb(existing.pid), unit: 'MB', target: 100 });
await existing.stop();
rmSync(dataDir, { recursive: true, force: true });
