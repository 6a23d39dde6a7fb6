/**
 * `npm start`'s server as it really runs (compiled JavaScript under plain
 * node): time from spawn to the first answered request, on a fresh data
 * directory (creates the organization), on a fresh one with --demo (also
 * seeds the demo people) and on existing data, and the RSS once idle.
 * Targets: < 1.5 s fresh (demo or not), < 1 s existing, < 100 MB idle.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../server/node-flags.js';
import { record } from './lib/report.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) throw new Error('build failed');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-start-'));
/** A fresh port per start: the last one may linger a moment after its exit. */
const nextPort = () => 20_000 + Math.floor(Math.random() * 20_000);

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function start(
  dir = dataDir,
  extra: string[] = [],
): Promise<{ ms: number; stop: () => Promise<void>; pid: number }> {
  const port = nextPort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    // As `npm start` runs it (its V8 flags too), minus npm itself.
    [
      ...SERVER_NODE_FLAGS,
      'dist/server/cli.js',
      '--data-dir',
      dir,
      '--port',
      String(port),
      ...extra,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Ready = the line the CLI prints once the server listens.
  const ms = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('listening on')) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { ms, stop, pid: child.pid! };
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
record({ name: 'idle RSS 5 s after start', value: rssMb(existing.pid), unit: 'MB', target: 100 });
await existing.stop();
rmSync(dataDir, { recursive: true, force: true });
