/**
 * network.get / network.set, desktop.status and logs.recent over /trpc, as
 * the browser admin UI of a server run without the desktop app calls them.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOrganization } from '../../server/bootstrap.js';
import {
  desktopListenChoice,
  lanInterfaces,
  readDesktopSettings,
} from '../../server/hosting/index.js';
import { createServer } from '../../server/index.js';
import { createAuthority, issueServerCertificate } from '../../server/tls/x509.js';
import { ownerContext } from '../../server/trpc/context.js';
import { createAppRouter } from '../../server/trpc/router.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from './client.js';

const TOKEN = 'hosting-admin-token-0123456789';

let t: TestServer;
let admin: AdminClient;
let settingsFile: string;

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN });
  admin = trpcClient(t.url, bearer(TOKEN));
  settingsFile = path.join(t.dataDir, 'desktop-settings.json');
});
afterAll(() => t?.close());

describe('network.get', () => {
  it('describes the running server, the saved settings and the machine’s interfaces', async () => {
    const net = await admin.network.get.query();
    expect(net).toEqual({
      lan: false,
      interfaceAddress: null,
      externalUrl: null,
      tlsCertFile: null,
      tlsKeyFile: null,
      authorityProblem: null,
      host: '127.0.0.1',
      port: t.server.port,
      urls: [t.url],
      interfaces: lanInterfaces(),
      qrSvg: expect.stringMatching(/^<svg [^>]*viewBox="0 0 \d+ \d+"[\s\S]*<\/svg>\s*$/),
      clearTextWarning: false,
      tls: null,
      // Started without the desktop app: its command line, not the saved settings, decides.
      followsSettings: false,
    });
    for (const i of net.interfaces) {
      expect(['IPv4', 'IPv6']).toContain(i.family);
      expect(i.address).not.toMatch(/^(127\.|::1$|fe80:)/i);
    }
  });

  it('is for organization owners only', async () => {
    const asAdmin = trpcClient(t.url, basicAuth(t.accounts.admin.email, t.accounts.admin.apiKey));
    const calls = [
      () => asAdmin.network.get.query(),
      () => asAdmin.network.set.mutate({ lan: true }),
      () => asAdmin.logs.recent.query(),
      () => asAdmin.desktop.status.query(),
      () => asAdmin.desktop.openFolder.mutate({ folder: 'data' }),
    ];
    for (const call of calls) {
      expect(await failure(call())).toMatchObject({
        code: 'BAD_REQUEST',
        zulip: { code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' },
      });
    }
    expect(existsSync(settingsFile)).toBe(false);
  });
});

describe('network.set without the desktop app', () => {
  it('persists the settings and answers that a restart is required', async () => {
    const address = lanInterfaces()[0]?.address;
    const result = await admin.network.set.mutate({
      lan: true,
      ...(address ? { interfaceAddress: address } : {}),
      externalUrl: 'https://chat.example.com/',
    });
    expect(result).toEqual({ restartRequired: true });
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({
      lan: true,
      ...(address ? { interfaceAddress: address } : {}),
      externalUrl: 'https://chat.example.com',
    });
    // The running server is unchanged; the saved settings are what the form shows.
    const net = await admin.network.get.query();
    expect(net).toMatchObject({
      lan: true,
      interfaceAddress: address ?? null,
      externalUrl: 'https://chat.example.com',
      host: '127.0.0.1',
      urls: [t.url],
    });
  });

  it('clears the interface and the external URL with null or an empty string', async () => {
    await admin.network.set.mutate({ lan: false, interfaceAddress: null, externalUrl: '' });
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ lan: false });
  });

  it('refuses an address this computer does not have, and bad external URLs', async () => {
    expect(
      await failure(admin.network.set.mutate({ lan: true, interfaceAddress: '203.0.113.77' })),
    ).toMatchObject({
      code: 'BAD_REQUEST',
      httpStatus: 400,
      zulip: {
        code: 'BAD_REQUEST',
        msg: 'This computer has no network address 203.0.113.77',
        var_name: 'interfaceAddress',
      },
    });
    for (const [externalUrl, msg] of [
      ['chat.example.com', 'invalid external URL: chat.example.com'],
      [
        'ftp://chat.example.com',
        'invalid external URL (http or https only): ftp://chat.example.com',
      ],
      [
        'https://u:p@chat.example.com',
        'invalid external URL (no credentials, query or fragment): https://u:p@chat.example.com',
      ],
    ] as const) {
      expect(await failure(admin.network.set.mutate({ lan: true, externalUrl }))).toMatchObject({
        code: 'BAD_REQUEST',
        zulip: { code: 'BAD_REQUEST', msg, var_name: 'externalUrl' },
      });
    }
    const malformed = await failure(
      // @ts-expect-error lan must be a boolean
      admin.network.set.mutate({ lan: 'yes' }),
    );
    expect(malformed).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400, zulip: null });
    expect(malformed.message).toMatch(/^lan: /);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ lan: false });
  });
});

describe('desktop.status without the desktop app', () => {
  it('reports the server as it runs', async () => {
    expect(await admin.desktop.status.query()).toEqual({
      state: 'running',
      url: t.url,
      tlsFingerprint: null,
      port: t.server.port,
      preferredPort: t.server.port,
      portFallback: false,
      host: '127.0.0.1',
      dataDir: t.dataDir,
      startedAt: new Date(t.server.ctx.config.startedAtMs).toISOString(),
      restarts: 0,
      lastError: null,
    });
  });

  it('opens no folder: the server may run on another machine', async () => {
    expect(await failure(admin.desktop.openFolder.mutate({ folder: 'backups' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Folders can be opened only in the desktop app',
    });
    expect(existsSync(path.join(t.dataDir, 'backups'))).toBe(false);
  });
});

describe('logs.recent', () => {
  it('returns the newest log lines, formatted, including the request log', async () => {
    await t.as('member').get('/users/me');
    const { lines } = await admin.logs.recent.query({ lines: 5 });
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.join('\n')).toMatch(/^\S+Z INFO GET \/api\/v1\/users\/me 200 [\d.]+ms$/m);
    const all = await admin.logs.recent.query();
    expect(all.lines[0]).toMatch(/ INFO Hearth listening on 127\.0\.0\.1 port \d+/);
    expect(all.lines.join('\n')).not.toContain(TOKEN);
    expect(all.lines.join('\n')).not.toContain(t.accounts.member.apiKey);
  });

  it('checks the number of lines', async () => {
    for (const lines of [0, 2001, 1.5]) {
      expect(await failure(admin.logs.recent.query({ lines }))).toMatchObject({
        code: 'BAD_REQUEST',
        httpStatus: 400,
      });
    }
  });
});

describe('the certificate for the LAN', () => {
  it('saves the team’s own certificate files once they check out, naming a bad one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-own-cert-'));
    try {
      const now = Date.now();
      const authority = await createAuthority({
        commonName: 'Team CA',
        permitted: { dns: ['localhost'], ips: ['127.0.0.0/8'] },
        notBefore: new Date(now - 60_000),
        notAfter: new Date(now + 86_400_000),
      });
      const pair = await issueServerCertificate({
        authority,
        names: { dns: ['localhost'], ips: ['127.0.0.1'] },
        notBefore: new Date(now - 60_000),
        notAfter: new Date(now + 86_400_000),
      });
      const certFile = path.join(dir, 'server.crt');
      const keyFile = path.join(dir, 'server.key');
      writeFileSync(certFile, pair.certPem);
      writeFileSync(keyFile, pair.keyPem);
      const missing = path.join(dir, 'missing.key');
      expect(
        await failure(
          admin.network.set.mutate({ lan: true, tlsCertFile: certFile, tlsKeyFile: missing }),
        ),
      ).toMatchObject({
        zulip: {
          code: 'BAD_REQUEST',
          msg: `Cannot read the TLS key ${missing}: no such file`,
          var_name: 'tlsKeyFile',
        },
      });
      expect(
        await failure(
          admin.network.set.mutate({ lan: true, tlsCertFile: keyFile, tlsKeyFile: keyFile }),
        ),
      ).toMatchObject({
        zulip: {
          msg: `The TLS certificate ${keyFile} holds no certificate (PEM or DER)`,
          var_name: 'tlsCertFile',
        },
      });
      expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ lan: false });
      await admin.network.set.mutate({ lan: true, tlsCertFile: certFile, tlsKeyFile: keyFile });
      expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({
        lan: true,
        tlsCertificate: { certFile, keyFile },
      });
      expect(await admin.network.get.query()).toMatchObject({
        tlsCertFile: certFile,
        tlsKeyFile: keyFile,
      });
      expect(desktopListenChoice(readDesktopSettings(t.dataDir), [])).toEqual({
        host: '0.0.0.0',
        tlsCertificate: { certFile, keyFile },
      });
      await admin.network.set.mutate({ lan: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a damaged authority is reported, and replaced only when the owner asks', async () => {
    expect(await failure(admin.network.replaceAuthority.mutate())).toMatchObject({
      zulip: {
        msg: 'The certificate authority is not damaged: devices that trust it keep working',
      },
    });
    const folder = path.join(t.dataDir, 'tls');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'ca.crt'), 'damaged');
    const net = await admin.network.get.query();
    expect(net.authorityProblem).toBe(
      `The certificate authority in ${folder} is damaged: ca.key is missing. Hearth does not replace it by itself: devices that trust it would stop trusting this server. Restore ca.crt and ca.key from a copy, or move the folder away and start again to make a new authority (every device must then trust the new one).`,
    );
    const { keptAt, restartRequired } = await admin.network.replaceAuthority.mutate();
    expect(restartRequired).toBe(true);
    expect(existsSync(folder)).toBe(false);
    expect(readFileSync(path.join(keptAt, 'ca.crt'), 'utf8')).toBe('damaged');
    expect((await admin.network.get.query()).authorityProblem).toBeNull();
  });
});

describe('serving the LAN', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-lan-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists every reachable URL over https, the LAN address first, and the authority', async () => {
    const server = await createServer({ dataDir, host: '0.0.0.0', port: 0 });
    try {
      await ensureOrganization(server, { demo: false });
      const caller = createAppRouter().createCaller(ownerContext(server.ctx, null));
      const net = await caller.network.get();
      const v4 = lanInterfaces().filter((i) => i.family === 'IPv4');
      expect(net.host).toBe('0.0.0.0');
      expect(net.urls[0]).toBe(server.url);
      expect(net.urls).toEqual([
        ...new Set([server.url, ...v4.map((i) => `https://${i.address}:${server.port}`)]),
      ]);
      expect(server.url).toMatch(/^https:/);
      expect(net.clearTextWarning).toBe(false);
      const ca = new X509Certificate(readFileSync(path.join(dataDir, 'tls', 'ca.crt')));
      expect(net.tls).toMatchObject({ fingerprint: ca.fingerprint256, ownAuthority: true });
      expect(net.tls?.setupUrl).toBe(`${server.url.replace(/^https:/, 'http:')}/tls/`);
      expect(net.tls?.setupQrSvg).toMatch(/^<svg /);
    } finally {
      await server.close();
    }
  });

  it('the desktop listens where the saved settings say, and never wider', () => {
    const eth = [{ name: 'eth0', address: '192.168.1.20', family: 'IPv4' as const }];
    expect(desktopListenChoice({ lan: false }, eth)).toEqual({ host: '127.0.0.1' });
    expect(desktopListenChoice({ lan: true }, eth)).toEqual({ host: '0.0.0.0' });
    expect(
      desktopListenChoice(
        { lan: true, interfaceAddress: '192.168.1.20', externalUrl: 'https://x.example' },
        eth,
      ),
    ).toEqual({ host: '192.168.1.20', externalUrl: 'https://x.example' });
    expect(desktopListenChoice({ lan: true, interfaceAddress: '10.0.0.9' }, eth)).toEqual({
      host: '127.0.0.1',
      warning: expect.stringContaining('10.0.0.9'),
    });
  });

  it('a damaged settings file means this machine only', async () => {
    const { readDesktopSettings } = await import('../../server/hosting/index.js');
    writeFileSync(path.join(dataDir, 'desktop-settings.json'), '{"lan": tru');
    expect(readDesktopSettings(dataDir)).toEqual({ lan: false });
    writeFileSync(path.join(dataDir, 'desktop-settings.json'), '{"lan": "yes", "externalUrl": 5}');
    expect(readDesktopSettings(dataDir)).toEqual({ lan: false });
  });
});
