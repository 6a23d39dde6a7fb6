import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { ensureBuilt } from '../../scripts/build.js';

/** Building can take a while on a busy machine; a current build takes about a second. */
export const BUILD_TIMEOUT_MS = 120_000;

let build: Promise<string[]> | undefined;
/** dist/ and the admin UI, built once per test file (and only when stale). */
export function built(): Promise<string[]> {
  build ??= ensureBuilt();
  return build;
}

/** The environment of a process the tests start: nothing from HEARTH_* or from npm. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) {
    if (key.startsWith('HEARTH_') || key.startsWith('npm_')) delete env[key];
  }
  return env;
}

export const LISTENING = /^Hearth listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

/** A started command, everything it printed, and how it ended. */
export class Started {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly child: ChildProcess;
  /** Started as the leader of its own process group (stopped as a whole). */
  readonly detached: boolean;

  constructor(command: string, args: string[], options: { cwd: string; detached?: boolean }) {
    this.detached = options.detached ?? false;
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnv(),
      detached: this.detached,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The value of a `  Name:  value` line of the first-start banner. */
  field(name: string): string | undefined {
    return new RegExp(`^  ${name}:\\s+(\\S+)$`, 'm').exec(this.stdout)?.[1];
  }

  /** Resolves with the URL and port of the listening line; rejects if the process ends first. */
  async listening(timeoutMs = 60_000): Promise<{ url: string; port: number }> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = LISTENING.exec(this.stdout);
      if (match) return { url: match[1]!, port: Number(match[2]) };
      if (!this.running) break;
      await sleep(25);
    }
    throw new Error(`no listening line\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when nothing accepts connections on the port (the server is gone). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Waits until the port is free; returns how long it took, or null on timeout. */
export async function portFreedWithin(port: number, timeoutMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await portIsFree(port)) return Date.now() - started;
    await sleep(50);
  }
  return null;
}

/** A port nothing listens on right now (the OS's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether any process of the group led by `pid` is left. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops what a test left running: the process, or (when it leads its own
 * group) every process of the group, even when the leader already exited
 * and left a child behind (the case a failing signal test produces).
 */
async function stopAll(p: Started): Promise<void> {
  const pid = p.child.pid!;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(p.detached ? -pid : pid, signal);
    } catch {
      // already gone
    }
  };
  const gone = () => (p.detached ? !groupAlive(pid) : !p.running);
  if (gone()) return;
  kill('SIGTERM');
  for (let waited = 0; !gone() && waited < 5000; waited += 50) await sleep(50);
  if (!gone()) kill('SIGKILL');
}

/**
 * Processes and data directories of one test file, all stopped and removed
 * after it: a process that is still running is stopped by its own pid (its
 * process group when it was started detached).
 */
export function session() {
  const started: Started[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(started.map(stopAll));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    dataDir(): string {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-build-test-'));
      dirs.push(dir);
      return dir;
    },
    start(command: string, args: string[], options: { cwd: string; detached?: boolean }) {
      const p = new Started(command, args, options);
      started.push(p);
      return p;
    },
  };
}
