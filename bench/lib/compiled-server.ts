/**
 * The server as `npm start` runs it: compiled JavaScript under plain node
 * with its V8 flags, minus npm itself. Benchmarks that measure what a user
 * gets (start-up, memory, the chat in a browser) run it this way.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Builds dist/ if any input changed since the last build. */
export function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('build failed');
}

export interface CompiledServer {
  url: string;
  pid: number;
  /** From spawn to the line the CLI prints once the server listens. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts `dist/server/cli.js` on a fresh port (the last one may linger a moment after its exit). */
export async function startCompiledServer(
  dataDir: string,
  extraArgs: string[] = [],
): Promise<CompiledServer> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_FLAGS,
      'dist/server/cli.js',
      '--data-dir',
      dataDir,
      '--port',
      String(port),
      ...extraArgs,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const readyMs = await new Promise<number>((resolve, reject) => {
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
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, readyMs, stop };
}
