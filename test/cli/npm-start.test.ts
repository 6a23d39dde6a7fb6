/**
 * `npm start` as a new user runs it: its prestart builds the admin UI when
 * missing or stale, so the `Admin UI:` link it prints answers with the page.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING, REPO, tempDataDir } from './process.js';

const data = tempDataDir();
let child: ChildProcess;
let stdout = '';
let stderr = '';

async function line(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const text of stdout.split('\n')) {
      const match = pattern.exec(text);
      if (match) return match;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`npm start printed no ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
}

beforeAll(() => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('HEARTH_')) delete env[key];
  // Its own process group (npm -> sh -> tsx -> node), so that it stops as a whole.
  child = spawn('npm', ['start', '--', '--port', '0', '--data-dir', data.dir], {
    cwd: REPO,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
});

afterAll(async () => {
  if (child.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  data.cleanup();
});

describe('npm start', () => {
  it('serves the admin UI at the link it prints', { timeout: 90_000 }, async () => {
    const url = (await line(LISTENING))[1]!;
    const admin = (await line(/^Admin UI: (\S+)$/))[1]!;
    expect(admin.startsWith(`${url}/admin/#token=`)).toBe(true);

    const page = await fetch(admin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="app.js"');
    const script = await fetch(new URL('app.js', admin));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});
