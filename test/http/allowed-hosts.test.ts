/**
 * Only the names the server is reached by (issue 20, point 6): a page that
 * rebinds its own name to 127.0.0.1 sends its name in Host, and is refused
 * as Zulip (Django's ALLOWED_HOSTS) refuses it: 400, here in the JSON
 * envelope with code BAD_REQUEST. Every request goes to 127.0.0.1; only the
 * Host header (or an absolute-form target) names another host.
 */
import { connect } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOrganization } from '../../server/bootstrap.js';
import type { ServerConfig } from '../../server/core/context.js';
import { AllowedHosts } from '../../server/http/allowed-hosts.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** One raw HTTP exchange with 127.0.0.1:port; the status line's code and the JSON body. */
function exchange(port: number, request: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(body) });
      } catch {
        resolve({ status, body });
      }
    });
  });
}

const get = (
  port: number,
  host: string | null,
  target = '/api/v1/server_settings',
  version = '1.1',
) =>
  exchange(
    port,
    `GET ${target} HTTP/${version}\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`,
  );

const refused = (msg: string) => ({
  status: 400,
  body: { result: 'error', msg, code: 'BAD_REQUEST' },
});

describe('a server on 127.0.0.1', () => {
  let t: TestServer;
  let port: number;
  beforeAll(async () => {
    t = await startTestServer({ adminToken: 'a'.repeat(43) });
    port = t.server.port;
  });
  afterAll(() => t.close());

  it('answers the loopback names, with or without its port', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      'localhost',
      '127.0.0.1',
      `LocalHost:${port}`,
      `localhost.:${port}`,
    ]) {
      const res = await get(port, host);
      expect(res.status, host).toBe(200);
      expect(res.body, host).toMatchObject({ result: 'success' });
    }
  });

  it('refuses any other name, another port, and malformed values', async () => {
    expect(await get(port, `rebind.example:${port}`)).toEqual(
      refused(`Invalid Host header: rebind.example:${port}`),
    );
    expect(await get(port, 'rebind.example')).toEqual(
      refused('Invalid Host header: rebind.example'),
    );
    expect(await get(port, '127.0.0.1:1')).toEqual(refused('Invalid Host header: 127.0.0.1:1'));
    expect(await get(port, '127.0.0.2')).toEqual(refused('Invalid Host header: 127.0.0.2'));
    expect(await get(port, 'localhost.rebind.example')).toMatchObject({ status: 400 });
    expect(await get(port, `user@localhost:${port}`)).toMatchObject({ status: 400 });
    expect(await get(port, '::1')).toMatchObject({ status: 400 });
    expect(await get(port, '')).toEqual(refused('Invalid Host header: '));
  });

  it('refuses before anything else: the chat, the admin door, unknown paths, bodies', async () => {
    const evil = 'rebind.example';
    for (const target of ['/', '/admin/', '/trpc/setup.status', '/no/such/path']) {
      expect(await get(port, evil, target), target).toEqual(
        refused(`Invalid Host header: ${evil}`),
      );
    }
    // An authenticated request is refused too, and its body read so the answer arrives.
    const count = () => t.server.ctx.db.prepare('SELECT count(*) AS n FROM messages').get();
    const before = count();
    const body = 'type=stream&to=general&topic=x&content=hi';
    const auth = Buffer.from(`${t.accounts.owner.email}:${t.accounts.owner.apiKey}`).toString(
      'base64',
    );
    const res = await exchange(
      port,
      `POST /api/v1/messages HTTP/1.1\r\nHost: ${evil}:${port}\r\nAuthorization: Basic ${auth}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    expect(res).toEqual(refused(`Invalid Host header: ${evil}:${port}`));
    expect(count()).toEqual(before);
  });

  it('wants exactly one Host from HTTP/1.1; HTTP/1.0 may send none', async () => {
    expect(await get(port, null)).toEqual(refused('Missing Host header'));
    expect(
      await exchange(
        port,
        `GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nHost: rebind.example\r\nConnection: close\r\n\r\n`,
      ),
    ).toEqual(refused('Invalid Host header: more than one'));
    expect(await get(port, null, '/api/v1/server_settings', '1.0')).toMatchObject({ status: 200 });
    expect(await get(port, 'rebind.example', '/api/v1/server_settings', '1.0')).toMatchObject({
      status: 400,
    });
  });

  it('takes an absolute-form target’s host instead of the header', async () => {
    expect(
      await get(port, `127.0.0.1:${port}`, 'http://rebind.example/api/v1/server_settings'),
    ).toEqual(refused('Invalid host in the request target: rebind.example'));
    expect(
      await get(port, 'rebind.example', `http://127.0.0.1:${port}/api/v1/server_settings`),
    ).toMatchObject({ status: 200, body: { result: 'success' } });
  });

  it('keeps the clients’ way of asking working (fetch, Node’s http)', async () => {
    expect((await fetch(`${t.url}/api/v1/server_settings`)).status).toBe(200);
    expect((await fetch(`http://localhost:${port}/api/v1/server_settings`)).status).toBe(200);
  });
});

describe('a server given an external URL, on every interface', () => {
  let dataDir: string;
  let server: RunningServer;
  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs');
    dataDir = mkdtempSync(`${os.tmpdir()}/hearth-hosts-`);
    server = await createServer({
      dataDir,
      host: '0.0.0.0',
      port: 0,
      externalUrl: 'https://chat.example.org',
      logFile: false,
      scheduledDelivery: false,
    });
    await ensureOrganization(server, { demo: false });
  });
  afterAll(async () => {
    await server.close();
    const { rmSync } = await import('node:fs');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the external URL’s host (its port, or the one listened on)', async () => {
    const { port } = server;
    for (const host of ['chat.example.org', 'chat.example.org:443', `chat.example.org:${port}`]) {
      expect((await get(port, host)).status, host).toBe(200);
    }
    expect(await get(port, 'chat.example.org:8443')).toMatchObject({ status: 400 });
    expect(await get(port, 'other.example.org')).toMatchObject({ status: 400 });
  });

  it('answers every address of the machine and its host name, and the loopback names', async () => {
    const { port } = server;
    const addresses = Object.values(os.networkInterfaces())
      .flat()
      .filter((i) => i !== undefined)
      .map((i) => (i.family === 'IPv6' ? `[${i.address}]` : i.address))
      .filter((a) => !a.includes('%'));
    expect(addresses.length).toBeGreaterThan(0);
    for (const host of [
      ...addresses.map((a) => `${a}:${port}`),
      `${os.hostname()}:${port}`,
      `localhost:${port}`,
    ]) {
      expect((await get(port, host)).status, host).toBe(200);
    }
    expect(await get(port, `rebind.example:${port}`)).toMatchObject({ status: 400 });
  });
});

describe('the machine’s addresses', () => {
  const config = (host: string): ServerConfig =>
    ({ host, port: 9991, givenExternalUrl: undefined }) as ServerConfig;
  const iface = (address: string): os.NetworkInterfaceInfo =>
    ({
      address,
      family: address.includes(':') ? 'IPv6' : 'IPv4',
      internal: false,
      netmask: '',
      mac: '',
      cidr: null,
      scopeid: 0,
    }) as os.NetworkInterfaceInfo;

  it('are looked up again when a new one is asked for, at most every 2 s', () => {
    let now = 0;
    let list = [iface('192.168.1.20')];
    const allowed = new AllowedHosts(
      config('0.0.0.0'),
      () => now,
      () => ({ eth0: list }),
    );
    expect(allowed.allows('192.168.1.20:9991')).toBe(true);
    list = [iface('10.1.2.3'), iface('fd00::5')];
    now = 1_000;
    expect(allowed.allows('10.1.2.3:9991')).toBe(false);
    now = 2_500;
    expect(allowed.allows('10.1.2.3:9991')).toBe(true);
    expect(allowed.allows('[fd00::5]:9991')).toBe(true);
    expect(allowed.allows('192.168.1.20:9991')).toBe(false);
  });

  it('count only when listening on every interface', () => {
    const allowed = new AllowedHosts(config('192.168.1.20'), Date.now, () => ({
      eth0: [iface('192.168.1.20'), iface('10.1.2.3')],
    }));
    expect(allowed.allows('192.168.1.20:9991')).toBe(true);
    expect(allowed.allows('10.1.2.3:9991')).toBe(false);
    expect(allowed.allows('localhost:9991')).toBe(true);
  });
});
