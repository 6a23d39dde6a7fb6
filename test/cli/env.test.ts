import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.js';
import { type CliProcess, cliSession, parseZuliprc } from './process.js';

const cli = cliSession();
const dataDir = cli.dataDir;

async function start(args: string[], env: Record<string, string> = {}) {
  const child = cli.start(args, env);
  const url = await child.listening();
  return { child, url };
}

async function stop(child: CliProcess) {
  child.signal('SIGTERM');
  expect((await child.exited).code).toBe(0);
}

/** How many anonymous requests in a row are answered before a 429. */
async function anonymousRequestsBeforeLimit(url: string, max: number): Promise<number> {
  const api = new ApiClient(url, null);
  for (let i = 0; i < max; i++) {
    const res = await api.get('/server_settings', {}, { skipSchema: true });
    if (res.status === 429) return i;
  }
  return max;
}

describe('environment variables', () => {
  it('HEARTH_DATA_DIR, HEARTH_PORT, HEARTH_HOST, HEARTH_DEMO and HEARTH_RATE_LIMIT=0 act like the flags', async () => {
    const dir = dataDir();
    const { child, url } = await start([], {
      HEARTH_DATA_DIR: dir,
      HEARTH_PORT: '0',
      HEARTH_HOST: '0.0.0.0',
      HEARTH_DEMO: '1',
      HEARTH_RATE_LIMIT: '0',
    });
    // Listening on every interface: reachable over plain loopback; the LAN over HTTPS.
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(child.stdout).toMatch(/^HTTPS: devices trust this server/m);
    expect(existsSync(path.join(dir, 'hearth.sqlite'))).toBe(true);
    // Clients (the zuliprc's) are told the LAN address, not loopback.
    const rc = parseZuliprc(readFileSync(path.join(dir, 'zuliprc'), 'utf8'));
    expect(rc.site).toBe(await child.printedUrl());
    expect(rc.site).not.toMatch(/127\.0\.0\.1/);
    // Demo mode: the dev login endpoints answer.
    const users = await new ApiClient(url, null).get('/dev_list_users', {}, { skipSchema: true });
    expect(users.status).toBe(200);
    expect(users.body.direct_admins.length).toBeGreaterThan(0);
    // No rate limit: well past the 100 anonymous requests a minute.
    expect(await anonymousRequestsBeforeLimit(url, 130)).toBe(130);
    await stop(child);
  });

  it('flags win over the environment; --host 0.0.0.0 serves the LAN over HTTPS', async () => {
    const flagDir = dataDir();
    const envDir = dataDir();
    const { child, url } = await start(
      ['--data-dir', flagDir, '--port', '0', '--host', '0.0.0.0', '--no-rate-limit'],
      {
        HEARTH_DATA_DIR: envDir,
        HEARTH_PORT: '1',
        HEARTH_HOST: '127.0.0.1',
        HEARTH_RATE_LIMIT: '1',
      },
    );
    expect(existsSync(path.join(flagDir, 'hearth.sqlite'))).toBe(true);
    expect(existsSync(path.join(envDir, 'hearth.sqlite'))).toBe(false);
    // The authority's fingerprint, to compare on each device, and no clear-text warning.
    const ca = new X509Certificate(readFileSync(path.join(flagDir, 'tls', 'ca.crt')));
    expect(child.stdout).toContain(`fingerprint, to compare on each device: ${ca.fingerprint256}`);
    expect(await child.printedUrl()).toMatch(/^https:\/\//);
    expect(child.stderr).not.toMatch(/WARNING|clear text/);
    expect((await new ApiClient(url, null).get('/server_settings')).status).toBe(200);
    // --no-rate-limit
    expect(await anonymousRequestsBeforeLimit(url, 130)).toBe(130);
    // Not a demo: the dev endpoints stay shut.
    const dev = await new ApiClient(url, null).get('/dev_list_users', {}, { skipSchema: true });
    expect(dev.body.result).toBe('error');
    await stop(child);
  });

  it('rate limiting is on by default', async () => {
    const { child, url } = await start(['--data-dir', dataDir(), '--port', '0']);
    expect(child.stderr).not.toMatch(/WARNING/);
    expect(await anonymousRequestsBeforeLimit(url, 130)).toBe(100);
    const limited = await new ApiClient(url, null).get('/server_settings');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMIT_HIT');
    await stop(child);
  });
});

describe('bad options', () => {
  it('an invalid port is refused with a message and a non-zero exit', async () => {
    const child = cli.start(['--data-dir', dataDir(), '--port', 'abc']);
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    expect(child.stderr).toMatch(/invalid port: abc/);
    expect(child.stdout).not.toMatch(/Hearth listening/);
  });

  it('a TLS certificate that cannot be used stops the start, naming the file', async () => {
    const dir = dataDir();
    const missing = path.join(dir, 'missing.crt');
    const child = cli.start(
      ['--data-dir', dir, '--port', '0', '--tls-cert', missing, '--tls-key', missing],
      { HEARTH_HTTPS: '1' },
    );
    expect((await child.exited).code).toBe(1);
    expect(child.stderr).toContain(`Cannot read the TLS certificate ${missing}: no such file`);
    expect(child.stdout).not.toMatch(/Hearth listening/);
    const half = cli.start(['--data-dir', dir, '--port', '0', '--tls-cert', missing]);
    expect((await half.exited).code).toBe(1);
    expect(half.stderr).toMatch(/--tls-cert needs --tls-key/);
  });
});

describe('--https (HEARTH_HTTPS=1)', () => {
  it('serves loopback over HTTPS with the installation’s authority', async () => {
    const dir = dataDir();
    const child = cli.start(['--data-dir', dir, '--port', '0'], { HEARTH_HTTPS: '1' });
    const url = await child.printedUrl();
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const rc = parseZuliprc(readFileSync(path.join(dir, 'zuliprc'), 'utf8'));
    expect(rc.site).toBe(url);
    // The owner's zuliprc trusts the authority (the Python bindings' cert_bundle).
    expect(rc.cert_bundle).toBe(path.join(dir, 'tls', 'ca.crt'));
    expect(child.stdout).toContain(`${url.replace(/^https/, 'http')}/tls/`);
    expect(existsSync(path.join(dir, 'tls', 'ca.key'))).toBe(true);
    await stop(child);
  });
});
