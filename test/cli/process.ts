import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(REPO, 'server', 'cli.ts');

if (!existsSync(path.join(REPO, 'node_modules', 'tsx'))) {
  throw new Error('the CLI tests need tsx in node_modules');
}

export const LISTENING = /^Hearth listening on (http:\/\/127\.0\.0\.1:(\d+))$/;
/** The listening line whatever the URL (a LAN address, an --external-url). */
export const LISTENING_ANY = /^Hearth listening on (\S+)$/;
/** Printed before the listening line when clients use another URL than this machine. */
export const ON_THIS_MACHINE = /^On this machine: (http:\/\/\S+)$/;

/** A `node --import tsx server/cli.ts` child and everything it printed. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string | undefined> = {}) {
    const base: Record<string, string | undefined> = { ...process.env };
    // The tests say exactly which settings the process gets.
    for (const key of Object.keys(base)) if (key.startsWith('HEARTH_')) delete base[key];
    this.child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: REPO,
      env: { ...base, ...env, NO_COLOR: '1' },
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

  get pid(): number {
    return this.child.pid!;
  }

  get stdoutLines(): string[] {
    return this.stdout.split('\n').filter((line) => line.length > 0);
  }

  /**
   * Resolves once the process says it listens, with the URL this machine
   * reaches it at (loopback when it listens on every interface: tests never
   * send traffic to a LAN address); rejects if it exits first.
   */
  async listening(timeoutMs = 20_000): Promise<string> {
    await this.printedUrl(timeoutMs);
    const local = this.stdoutLines.find((l) => ON_THIS_MACHINE.test(l));
    return local ? ON_THIS_MACHINE.exec(local)![1]! : this.printedUrl();
  }

  /** The URL of the listening line: the one clients are told to use. */
  async printedUrl(timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => {
      exited = true;
    });
    while (Date.now() < deadline) {
      const line = this.stdoutLines.find((l) => LISTENING_ANY.test(l));
      if (line) return LISTENING_ANY.exec(line)![1]!;
      if (exited) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(
      `the CLI did not report listening\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
    );
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Stops the process if it still runs (by its own pid only). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

/** A fresh data directory, removed by the returned cleanup. */
export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The processes and data directories of one test file: call it at the top
 * of the file; after all its tests the processes are stopped and the
 * directories removed.
 */
export function cliSession() {
  const started: CliProcess[] = [];
  const cleanups: (() => void)[] = [];
  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop()));
    for (const cleanup of cleanups) cleanup();
  });
  return {
    /** Every process started, in order. */
    started: started as readonly CliProcess[],
    /** A fresh data directory. */
    dataDir(): string {
      const d = tempDataDir();
      cleanups.push(d.cleanup);
      return d.dir;
    },
    /** Starts `hearth` with these arguments and HEARTH_* settings. */
    start(args: string[], env: Record<string, string> = {}): CliProcess {
      const child = new CliProcess(args, env);
      started.push(child);
      return child;
    },
  };
}

/** Parses the [api] section of a zuliprc. */
export function parseZuliprc(text: string): Record<string, string> {
  const lines = text.split('\n').map((l) => l.trim());
  expectSection(lines[0]);
  const out: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const eq = line.indexOf('=');
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

function expectSection(first: string | undefined): void {
  if (first !== '[api]') throw new Error(`zuliprc does not start with [api]: ${first}`);
}
