import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_GUESSES,
  PASSWORD_MIN_LENGTH,
} from '../shared/password-rule.js';

/*
 * Zulip's check_password_strength: a length between PASSWORD_MIN_LENGTH and
 * PASSWORD_MAX_LENGTH, and at least PASSWORD_MIN_GUESSES guesses by zxcvbn
 * (here @zxcvbn-ts, its maintained TypeScript successor, with the common
 * and English dictionaries). The account's own e-mail and name count as
 * known words, so neither is a password.
 *
 * The dictionaries take about 60 MB once loaded, and passwords are set
 * rarely; so estimates run in a Node process of their own (the Electron
 * binary runs as Node with ELECTRON_RUN_AS_NODE), started on demand and
 * left to exit once no estimate came for ESTIMATOR_IDLE_MS: a burst (an
 * administrator adding several people) starts it once, and the server's
 * memory never holds the dictionaries. Estimates run one at a time.
 */

const resolve = createRequire(import.meta.url).resolve;

/** The packages' CommonJS entry points, for the estimating process to load. */
const modules = () => ({
  core: resolve('@zxcvbn-ts/core'),
  common: resolve('@zxcvbn-ts/language-common'),
  english: resolve('@zxcvbn-ts/language-en'),
});

/**
 * Loads the packages named in its argument, then answers each line of
 * stdin, {password, userInputs}, with a line {guesses}; exits when stdin
 * ends. Passwords travel through the pipe, never the command line.
 */
const ESTIMATOR_SOURCE = `
const modules = JSON.parse(process.argv[1]);
const { ZxcvbnFactory } = require(modules.core);
const common = require(modules.common);
const english = require(modules.english);
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
});
require('node:readline')
  .createInterface({ input: process.stdin })
  .on('line', (line) => {
    const { password, userInputs } = JSON.parse(line);
    process.stdout.write(JSON.stringify({ guesses: zxcvbn.check(password, userInputs).guesses }) + '\\n');
  });
`;

/** How long the estimating process waits for another estimate before exiting. */
const ESTIMATOR_IDLE_MS = 10_000;
/** An estimate that has not come back by then has gone wrong. */
const ESTIMATE_TIMEOUT_MS = 30_000;

/** The estimating process, while it runs. */
class EstimatorProcess {
  private readonly child: ChildProcess;
  private output = '';
  private waiting: { resolve(guesses: number): void; reject(error: Error): void } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  exited = false;

  constructor(private readonly onExit: () => void) {
    this.child = spawn(process.execPath, ['-e', ESTIMATOR_SOURCE, JSON.stringify(modules())], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    // Nothing here keeps the server's process alive: it may exit meanwhile.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout]) {
      (stream as unknown as { unref?: () => void }).unref?.();
    }
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    this.child.stdin!.on('error', () => {});
    this.child.on('error', (error) => this.end(error));
    this.child.on('exit', (code) => this.end(new Error(`password estimator exited (${code})`)));
  }

  estimate(password: string, userInputs: string[]): Promise<number> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    return new Promise((resolveGuesses, reject) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), ESTIMATE_TIMEOUT_MS);
      this.waiting = {
        resolve: (guesses) => {
          clearTimeout(timer);
          resolveGuesses(guesses);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.child.stdin!.write(`${JSON.stringify({ password, userInputs })}\n`);
    });
  }

  private read(chunk: string): void {
    this.output += chunk;
    const newline = this.output.indexOf('\n');
    if (newline < 0) return;
    const line = this.output.slice(0, newline);
    this.output = this.output.slice(newline + 1);
    const waiting = this.waiting;
    this.waiting = null;
    const guesses = (JSON.parse(line) as { guesses?: unknown }).guesses;
    if (typeof guesses === 'number') waiting?.resolve(guesses);
    else waiting?.reject(new Error('password estimator gave no estimate'));
    this.idleTimer = setTimeout(() => this.child.stdin!.end(), ESTIMATOR_IDLE_MS);
    this.idleTimer.unref();
  }

  private end(error: Error): void {
    if (this.exited) return;
    this.exited = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.waiting?.reject(error);
    this.waiting = null;
    this.onExit();
  }
}

let estimator: EstimatorProcess | null = null;

function estimateInChildProcess(password: string, userInputs: string[]): Promise<number> {
  if (!estimator || estimator.exited) {
    const started: EstimatorProcess = new EstimatorProcess(() => {
      if (estimator === started) estimator = null;
    });
    estimator = started;
  }
  return estimator.estimate(password, userInputs);
}

/** The same estimate in this process: where no process can be started (it then keeps the dictionaries). */
export async function estimateInProcess(password: string, userInputs: string[]): Promise<number> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
  });
  return zxcvbn.check(password, userInputs).guesses;
}

let queue: Promise<unknown> = Promise.resolve();

/** zxcvbn's guess count for `password`, `userInputs` counting as known words. */
export function estimateGuesses(password: string, userInputs: string[]): Promise<number> {
  const run = queue.then(() =>
    estimateInChildProcess(password, userInputs).catch(() =>
      estimateInProcess(password, userInputs),
    ),
  );
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Words of the account a password must not be built from: its e-mail (and
 * the part before the @) and its name (and each word of it).
 */
export function accountWords(...values: (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  for (const value of values) {
    const text = value?.trim().toLowerCase();
    if (!text) continue;
    words.add(text);
    const at = text.lastIndexOf('@');
    if (at > 0) words.add(text.slice(0, at));
    for (const part of text.split(/[\s@._+-]+/)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/**
 * Whether `password` meets the rule (Zulip's check_password_strength),
 * `userInputs` being the account's words (accountWords).
 */
export async function isStrongPassword(password: string, userInputs: string[]): Promise<boolean> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return false;
  return (await estimateGuesses(password, userInputs)) >= PASSWORD_MIN_GUESSES;
}
