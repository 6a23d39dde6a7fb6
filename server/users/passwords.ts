import { spawn } from 'node:child_process';
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
 * rarely; so each estimate runs in a short-lived Node process of its own
 * (the Electron binary runs as Node with ELECTRON_RUN_AS_NODE) and the
 * server's memory never holds them. Estimates run one at a time.
 */

const resolve = createRequire(import.meta.url).resolve;

/** The packages' CommonJS entry points, for the estimating process to load. */
const modules = () => ({
  core: resolve('@zxcvbn-ts/core'),
  common: resolve('@zxcvbn-ts/language-common'),
  english: resolve('@zxcvbn-ts/language-en'),
});

/** Reads {modules, password, userInputs} from stdin, prints the guesses. */
const ESTIMATOR_SOURCE = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const { modules, password, userInputs } = JSON.parse(input);
  const { ZxcvbnFactory } = require(modules.core);
  const common = require(modules.common);
  const english = require(modules.english);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
  });
  process.stdout.write(JSON.stringify({ guesses: zxcvbn.check(password, userInputs).guesses }));
});
`;

/** An estimate that has not finished by then has gone wrong. */
const ESTIMATE_TIMEOUT_MS = 30_000;

function estimateInChildProcess(password: string, userInputs: string[]): Promise<number> {
  return new Promise((resolveGuesses, reject) => {
    const child = spawn(process.execPath, ['-e', ESTIMATOR_SOURCE], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), ESTIMATE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const guesses = code === 0 ? (JSON.parse(out) as { guesses?: unknown }).guesses : undefined;
      if (typeof guesses === 'number') resolveGuesses(guesses);
      else reject(new Error(`password estimate failed (exit ${code}): ${err.slice(0, 500)}`));
    });
    // The password goes through a pipe: never the command line, which others may read.
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ modules: modules(), password, userInputs }));
  });
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
