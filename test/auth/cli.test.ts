/**
 * The command line sets the organization's JWT key: --set-jwt-key KEY (or
 * HEARTH_JWT_KEY) stores it, it survives restarts, --clear-jwt-key (or
 * HEARTH_CLEAR_JWT_KEY=1) removes it, and a bad key stops the start.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { cliSession, parseZuliprc } from '../cli/process.js';
import { ApiClient } from '../helpers/server.js';

const cli = cliSession();
const KEY = 'command-line-jwt-key-0123456789abcdef';
const OTHER_KEY = 'environment-jwt-key-0123456789abcdef';
const OWNER = 'owner@hearth.local';

const sign = (key: string) =>
  new SignJWT({ email: OWNER })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(key));

async function exchange(url: string, key: string) {
  const res = await new ApiClient(url, null).post(
    '/jwt/fetch_api_key',
    { token: await sign(key) },
    { skipSchema: true },
  );
  return res.body;
}

async function run(dir: string, args: string[], env: Record<string, string> = {}) {
  const child = cli.start(['--data-dir', dir, '--port', '0', ...args], env);
  const url = await child.listening();
  return { child, url };
}

async function stop(child: ReturnType<typeof cli.start>) {
  child.signal('SIGTERM');
  expect((await child.exited).code).toBe(0);
}

// Each case starts the real CLI (tsx) several times one after another.
describe('--set-jwt-key and --clear-jwt-key', { timeout: 90_000 }, () => {
  it('sets the key, keeps it across restarts, and clears it', async () => {
    const dir = cli.dataDir();
    const first = await run(dir, ['--set-jwt-key', KEY]);
    expect(first.child.stdout).toMatch(/JWT login enabled/);
    const apiKey = parseZuliprc(readFileSync(path.join(dir, 'zuliprc'), 'utf8')).key;
    expect(await exchange(first.url, KEY)).toMatchObject({ result: 'success', api_key: apiKey });
    expect((await exchange(first.url, OTHER_KEY)).msg).toBe('Bad JSON web token');
    await stop(first.child);

    // Without the flag the stored key stays.
    const second = await run(dir, []);
    expect(second.child.stdout).not.toMatch(/JWT login/);
    expect((await exchange(second.url, KEY)).api_key).toBe(apiKey);
    await stop(second.child);

    // The environment variable replaces it.
    const third = await run(dir, [], { HEARTH_JWT_KEY: OTHER_KEY });
    expect((await exchange(third.url, OTHER_KEY)).api_key).toBe(apiKey);
    expect((await exchange(third.url, KEY)).msg).toBe('Bad JSON web token');
    await stop(third.child);

    // --clear-jwt-key wins over the variable.
    const fourth = await run(dir, ['--clear-jwt-key'], { HEARTH_JWT_KEY: KEY });
    expect(fourth.child.stdout).toMatch(/JWT login disabled/);
    expect((await exchange(fourth.url, KEY)).msg).toBe(
      'JWT authentication is not enabled for this organization',
    );
    await stop(fourth.child);

    const fifth = await run(dir, [], { HEARTH_CLEAR_JWT_KEY: '1' });
    expect(fifth.child.stdout).toMatch(/JWT login disabled/);
    await stop(fifth.child);
  });

  it('a key too short, or a key and --clear-jwt-key together, stop the start', async () => {
    const dir = cli.dataDir();
    const short = cli.start(['--data-dir', dir, '--port', '0', '--set-jwt-key', 'too-short']);
    expect((await short.exited).code).toBe(1);
    expect(short.stderr).toMatch(/invalid JWT key: The JWT key must be at least 32 bytes long/);
    expect(short.stdout).not.toMatch(/Hearth listening/);

    const both = cli.start([
      '--data-dir',
      dir,
      '--port',
      '0',
      '--set-jwt-key',
      KEY,
      '--clear-jwt-key',
    ]);
    expect((await both.exited).code).toBe(1);
    expect(both.stderr).toMatch(/not both/);
    const bothInEnv = cli.start(['--data-dir', dir, '--port', '0'], {
      HEARTH_JWT_KEY: KEY,
      HEARTH_CLEAR_JWT_KEY: '1',
    });
    expect((await bothInEnv.exited).code).toBe(1);
    expect(bothInEnv.stderr).toMatch(/not both/);
  });
});
