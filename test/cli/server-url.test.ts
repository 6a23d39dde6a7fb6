import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.js';
import { type CliProcess, cliSession, ON_THIS_MACHINE, parseZuliprc } from './process.js';

const cli = cliSession();

const field = (output: string, label: string) =>
  new RegExp(`^\\s*${label}:\\s+(\\S+)\\s*$`, 'm').exec(output)?.[1];

const zuliprc = (dir: string) => parseZuliprc(readFileSync(path.join(dir, 'zuliprc'), 'utf8'));

async function stop(child: CliProcess) {
  child.signal('SIGTERM');
  expect((await child.exited).code).toBe(0);
}

/** A port nobody listens on right now (the OS picks it, then it is released). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** The expected LAN address, worked out independently of the server's code. */
function firstLanIpv4(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const i of list ?? []) {
      if (i.family === 'IPv4' && !i.internal && !i.address.startsWith('169.254.')) return i.address;
    }
  }
  return undefined;
}

async function urlsFrom(local: string, email: string, apiKey: string) {
  const settings = await new ApiClient(local, null).get('/server_settings');
  expect(settings.status).toBe(200);
  const reg = await new ApiClient(local, { email, apiKey }).post('/register', {
    fetch_event_types: ['realm'],
  });
  expect(reg.status).toBe(200);
  return {
    settings: [settings.body.realm_url, settings.body.realm_uri],
    register: [reg.body.realm_url, reg.body.realm_uri],
  };
}

describe('--external-url', () => {
  const dir = cli.dataDir();

  it('is what server_settings, register, the banner and the zuliprc give clients', async () => {
    const child = cli.start([
      '--data-dir',
      dir,
      '--port',
      '0',
      '--external-url',
      'https://chat.example.com/',
    ]);
    const local = await child.listening();
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const external = 'https://chat.example.com';
    expect(await child.printedUrl()).toBe(external);
    expect(field(child.stdout, 'URL')).toBe(external);
    expect(child.stdoutLines).toContain(`On this machine: ${local}`);
    const rc = zuliprc(dir);
    expect(rc.site).toBe(external);
    expect(await urlsFrom(local, rc.email!, rc.key!)).toEqual({
      settings: [external, external],
      register: [external, external],
    });
    // The printed password works over the local URL.
    const login = await new ApiClient(local, null).post('/fetch_api_key', {
      username: field(child.stdout, 'Owner'),
      password: field(child.stdout, 'Password'),
    });
    expect(login.status).toBe(200);
    await stop(child);
  });

  it('HEARTH_EXTERNAL_URL sets it too; a new one rewrites the zuliprc, keeping the key', async () => {
    const before = zuliprc(dir);
    const child = cli.start(['--data-dir', dir, '--port', '0'], {
      HEARTH_EXTERNAL_URL: 'http://hearth.lan:8080/chat/',
    });
    const local = await child.listening();
    const external = 'http://hearth.lan:8080/chat';
    expect(await child.printedUrl()).toBe(external);
    expect(zuliprc(dir)).toEqual({ ...before, site: external });
    expect(statSync(path.join(dir, 'zuliprc')).mode & 0o777).toBe(0o600);
    expect(await urlsFrom(local, before.email!, before.key!)).toEqual({
      settings: [external, external],
      register: [external, external],
    });
    await stop(child);
  });

  it('the flag wins over the variable', async () => {
    const child = cli.start(
      ['--data-dir', cli.dataDir(), '--port', '0', '--external-url', 'http://flag.example'],
      { HEARTH_EXTERNAL_URL: 'http://variable.example' },
    );
    await child.listening();
    expect(await child.printedUrl()).toBe('http://flag.example');
    await stop(child);
  });

  it.each([
    ['not a url'],
    ['ftp://files.example.com'],
    ['https://user:secret@chat.example.com'],
    ['https://chat.example.com/?a=1'],
  ])('refuses %s and exits with an error', async (bad) => {
    const child = cli.start(['--data-dir', cli.dataDir(), '--port', '0', '--external-url', bad]);
    expect((await child.exited).code).toBe(1);
    expect(child.stderr).toMatch(/invalid external URL/);
    expect(child.stdout).not.toMatch(/Hearth listening/);
  });
});

describe('LAN mode (--host 0.0.0.0)', () => {
  it('tells clients the LAN address, never 127.0.0.1, and serves it over loopback too', async () => {
    const dir = cli.dataDir();
    const child = cli.start(['--data-dir', dir, '--port', '0', '--host', '0.0.0.0']);
    // Only loopback traffic: the LAN URL is read from the output and the zuliprc.
    const local = await child.listening();
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:(\d+)$/);
    const port = /:(\d+)$/.exec(local)![1];
    const printed = await child.printedUrl();
    const host = new URL(printed).hostname;
    expect(host).not.toBe('127.0.0.1');
    expect(host).not.toBe('localhost');
    expect(host).not.toBe('0.0.0.0');
    expect(new URL(printed).port).toBe(port);
    const lan = firstLanIpv4();
    // The LAN is served over HTTPS (loopback keeps plain HTTP: `local` above).
    if (lan) expect(printed).toBe(`https://${lan}:${port}`);
    expect(field(child.stdout, 'URL')).toBe(printed);
    expect(child.stdoutLines.some((l) => ON_THIS_MACHINE.test(l))).toBe(true);
    const rc = zuliprc(dir);
    expect(rc.site).toBe(printed);
    expect(await urlsFrom(local, rc.email!, rc.key!)).toEqual({
      settings: [printed, printed],
      register: [printed, printed],
    });
    await stop(child);
  });

  it('on loopback only, clients are told the loopback URL', async () => {
    const dir = cli.dataDir();
    const child = cli.start(['--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
    const local = await child.listening();
    expect(await child.printedUrl()).toBe(local);
    expect(child.stdoutLines.some((l) => ON_THIS_MACHINE.test(l))).toBe(false);
    expect(zuliprc(dir).site).toBe(local);
    await stop(child);
  });
});

describe('the zuliprc follows the port', () => {
  const dir = cli.dataDir();
  const file = path.join(dir, 'zuliprc');

  it('is rewritten, mode 0600, with the same credentials when the port changes', async () => {
    const first = cli.start(['--data-dir', dir, '--port', '0']);
    const firstUrl = await first.listening();
    const before = zuliprc(dir);
    expect(before.site).toBe(firstUrl);
    await stop(first);
    // Someone loosened its mode and added a line of their own.
    writeFileSync(file, `${readFileSync(file, 'utf8')}insecure=false\n`);
    chmodSync(file, 0o644);

    let port = await freePort();
    while (`http://127.0.0.1:${port}` === firstUrl) port = await freePort();
    const second = cli.start(['--data-dir', dir, '--port', String(port)]);
    const secondUrl = await second.listening();
    expect(secondUrl).toBe(`http://127.0.0.1:${port}`);
    expect(zuliprc(dir)).toEqual({ ...before, insecure: 'false', site: secondUrl });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(second.stdout).toContain(`its site is now ${secondUrl}`);
    // The credentials in it still work.
    const me = await new ApiClient(secondUrl, { email: before.email!, apiKey: before.key! }).get(
      '/users/me',
    );
    expect(me.status).toBe(200);
    await stop(second);

    // Same URL again: the file is left alone.
    const text = readFileSync(file, 'utf8');
    const mtime = statSync(file).mtimeMs;
    const third = cli.start(['--data-dir', dir, '--port', String(port)]);
    await third.listening();
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(third.stdout).not.toMatch(/its site is now/);
    await stop(third);
  });
});

describe('--demo logins and presence', () => {
  const dir = cli.dataDir();
  let child: CliProcess;
  let url: string;
  let password: string;

  it('prints one password that every demo person logs in with on POST /fetch_api_key', async () => {
    child = cli.start(['--data-dir', dir, '--port', '0', '--demo']);
    url = await child.listening();
    const line = child.stdoutLines.find((l) => l.startsWith('Demo password'));
    expect(line).toBeDefined();
    password = /:\s*(\S+)$/.exec(line!)![1]!;
    const list = await new ApiClient(url, null).get('/dev_list_users', {}, { skipSchema: true });
    const emails: string[] = [...list.body.direct_admins, ...list.body.direct_users].map(
      (u: { email: string }) => u.email,
    );
    expect(emails.length).toBeGreaterThanOrEqual(8);
    for (const email of emails) {
      const res = await new ApiClient(url, null).post('/fetch_api_key', {
        username: email,
        password,
      });
      expect(res.status, email).toBe(200);
      expect(res.body.email.toLowerCase()).toBe(email.toLowerCase());
      const me = await new ApiClient(url, { email: res.body.email, apiKey: res.body.api_key }).get(
        '/users/me',
      );
      expect(me.status, email).toBe(200);
    }
    const wrong = await new ApiClient(url, null).post('/fetch_api_key', {
      username: 'iago@hearth.local',
      password: `${password}x`,
    });
    expect(wrong.status).toBe(401);
    // Every demo human has a password; bots never do.
    const db = new Database(path.join(dir, 'hearth.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT is_bot, password_hash FROM users').all() as {
      is_bot: number;
      password_hash: string | null;
    }[];
    db.close();
    expect(rows.filter((r) => !r.is_bot).every((r) => r.password_hash !== null)).toBe(true);
    expect(rows.filter((r) => r.is_bot).every((r) => r.password_hash === null)).toBe(true);
  });

  async function presences() {
    const login = await new ApiClient(url, null).post('/fetch_api_key', {
      username: 'hamlet@hearth.local',
      password,
    });
    const api = new ApiClient(url, { email: login.body.email, apiKey: login.body.api_key });
    const res = await api.get('/realm/presence');
    expect(res.status).toBe(200);
    return res.body as {
      server_timestamp: number;
      presences: Record<string, { aggregated: { status: string; timestamp: number } }>;
    };
  }

  it('shows people online, idle and away on GET /realm/presence', async () => {
    const { presences: all, server_timestamp } = await presences();
    const status = (email: string) => all[email]?.aggregated.status;
    expect(status('iago@hearth.local')).toBe('active');
    expect(status('desdemona@hearth.local')).toBe('active');
    expect(status('cordelia@hearth.local')).toBe('idle');
    const recent = Object.values(all).filter(
      (p) => p.aggregated.status === 'active' && server_timestamp - p.aggregated.timestamp < 120,
    );
    expect(recent.length).toBeGreaterThanOrEqual(3);
    // Someone last seen hours ago: clients show them away from the timestamp.
    const othello = all['othello@hearth.local']!.aggregated.timestamp;
    expect(server_timestamp - othello).toBeGreaterThan(3600);
  });

  it('a restart refreshes the presence and keeps the passwords', async () => {
    await stop(child);
    child = cli.start(['--data-dir', dir, '--port', '0', '--demo']);
    url = await child.listening();
    expect(child.stdout).not.toMatch(/Created a new organization/);
    expect(child.stdoutLines.find((l) => l.startsWith('Demo password'))).toMatch(
      new RegExp(`: ${password}$`),
    );
    const { presences: all, server_timestamp } = await presences();
    expect(server_timestamp - all['iago@hearth.local']!.aggregated.timestamp).toBeLessThan(60);
    await stop(child);
  });
});
