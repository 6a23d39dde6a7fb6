/**
 * HTTPS under `--https`, on loopback (the only addresses tests may talk
 * to; lan.test.ts covers a LAN address inside a network namespace).
 */
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockHolder } from '../../server/index.js';
import { issueServerCertificate } from '../../server/tls/x509.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { failureOf, registerSendAndPoll, request } from './tls-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const OTHER_CA = path.join(__dirname, '..', 'fixtures', 'tls', 'other-ca.crt');

describe('--https on loopback, with the installation’s certificate authority', () => {
  let t: TestServer;
  let ca: string;

  beforeAll(async () => {
    t = await startTestServer({ https: true });
    ca = readFileSync(path.join(t.dataDir, 'tls', 'ca.crt'), 'utf8');
  });
  afterAll(() => t.close());

  it('announces the https URL and keeps the authority’s key owner-only', () => {
    expect(t.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(t.server.localUrl).toBe(t.server.url);
    expect(t.server.ctx.config.externalUrl).toBe(t.server.url);
    expect(statSync(path.join(t.dataDir, 'tls', 'ca.key')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(t.dataDir, 'tls', 'server.key')).mode & 0o777).toBe(0o600);
    expect(new X509Certificate(ca).ca).toBe(true);
    // The data directory's lock records the https URL for a second server to name.
    expect(readLockHolder(t.dataDir)?.url).toBe(t.server.url);
  });

  it('a client that trusts only the authority registers, sends and long-polls', async () => {
    const { owner, member } = t.accounts;
    const { messageId, event } = await registerSendAndPoll(t.server.url, { ca }, owner, member);
    expect(event.type).toBe('message');
    expect(event.message.id).toBe(messageId);
    const settings = await request(`${t.server.url}/api/v1/server_settings`, { ca });
    expect(settings.body.realm_url).toBe(t.server.url);
  });

  it('a client without the authority is refused by TLS', async () => {
    const url = `${t.server.url}/api/v1/server_settings`;
    expect(await failureOf(url)).toMatch(/^UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    // Another authority is no better.
    expect(await failureOf(url, { ca: readFileSync(OTHER_CA) })).toMatch(
      /^UNABLE_TO_VERIFY_LEAF_SIGNATURE/,
    );
  });

  it('the certificate names the addresses served, for at most 398 days', async () => {
    const answer = await request(`${t.server.url}/api/v1/server_settings`, { ca });
    const cert = new X509Certificate(answer.peer!.raw);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkIP('192.0.2.1')).toBeUndefined();
    expect(cert.checkIssued(new X509Certificate(ca))).toBe(true);
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(lifetime).toBeLessThanOrEqual(398 * DAY_MS);
    expect(lifetime).toBeGreaterThan(300 * DAY_MS);
    // By name too: https://localhost works.
    const byName = `https://localhost:${t.server.port}/api/v1/server_settings`;
    expect((await request(byName, { ca })).status).toBe(200);
  });

  it('serves the authority without credentials: PEM, iOS profile and setup page', async () => {
    const pem = await request(`${t.server.url}/tls/ca.crt`, { ca });
    expect(pem.status).toBe(200);
    expect(pem.text).toBe(ca);
    expect(pem.headers['content-type']).toBe('application/x-x509-ca-cert');
    const der = new X509Certificate(ca).raw.toString('base64');
    const profile = await request(`${t.server.url}/tls/hearth.mobileconfig`, { ca });
    expect(profile.status).toBe(200);
    expect(profile.headers['content-type']).toBe('application/x-apple-aspen-config');
    expect(profile.text).toContain('<string>com.apple.security.root</string>');
    expect(profile.text.replace(/\s/g, '')).toContain(der);
    const page = await request(`${t.server.url}/tls/`, { ca });
    expect(page.status).toBe(200);
    expect(page.text).toContain(new X509Certificate(ca).fingerprint256);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const qr = await request(`${t.server.url}/tls/setup-qr.svg`, { ca });
    expect(qr.status).toBe(200);
    expect(qr.text).toMatch(/^<svg/);
    const info = await request(`${t.server.url}/tls/info`, { ca });
    expect(info.body).toEqual({
      result: 'success',
      msg: '',
      authority: true,
      fingerprint: new X509Certificate(ca).fingerprint256,
      setup_url: `http://127.0.0.1:${t.server.port}/tls/`,
    });
  });

  it('answers plain HTTP with a redirect to HTTPS, but serves /tls/ plainly', async () => {
    const plain = `http://127.0.0.1:${t.server.port}`;
    const api = await request(`${plain}/api/v1/messages?anchor=newest`, {
      method: 'POST',
      auth: t.accounts.owner,
      params: { type: 'stream', to: 'x', topic: 'y', content: 'z' },
    });
    expect(api.status).toBe(307);
    expect(api.headers.location).toBe(`${t.server.url}/api/v1/messages?anchor=newest`);
    const file = await request(`${plain}/tls/ca.crt`);
    expect(file.status).toBe(200);
    expect(file.text).toBe(ca);
  });

  it('sets the chat session cookie Secure over TLS; no HSTS for an address', async () => {
    const member = t.accounts.member;
    const answer = await request(`${t.server.url}/chat/session`, {
      ca,
      method: 'POST',
      params: { username: member.email, password: member.password! },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']?.[0]).toMatch(/; Secure(;|$)/);
    // Browsers ignore HSTS for IP literals, and localhost is every local server's.
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('a server without TLS', () => {
  it('has no authority to offer: /tls/ files 404, /tls/info says so', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.url).toMatch(/^http:/);
      for (const file of ['ca.crt', 'hearth.mobileconfig', '', 'setup-qr.svg']) {
        expect((await request(`${plain.url}/tls/${file}`)).status).toBe(404);
      }
      expect((await request(`${plain.url}/tls/info`)).body).toEqual({
        result: 'success',
        msg: '',
        authority: false,
        fingerprint: null,
        setup_url: null,
      });
      expect(readdirSync(plain.dataDir)).not.toContain('tls');
    } finally {
      await plain.close();
    }
  });
});

describe('the authority’s name constraints', () => {
  it('a certificate it signs for a name outside them is refused by clients', async () => {
    const t = await startTestServer({ https: true });
    try {
      const folder = path.join(t.dataDir, 'tls');
      const authority = {
        certPem: readFileSync(path.join(folder, 'ca.crt'), 'utf8'),
        keyPem: readFileSync(path.join(folder, 'ca.key'), 'utf8'),
      };
      const now = Date.now();
      const serve = async (names: { dns: string[]; ips: string[] }) => {
        const pair = await issueServerCertificate({
          authority,
          names,
          notBefore: new Date(now - DAY_MS),
          notAfter: new Date(now + DAY_MS),
        });
        const server = https.createServer({ cert: pair.certPem, key: pair.keyPem }, (_q, s) =>
          s.end('hi'),
        );
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const port = (server.address() as { port: number }).port;
          return await failureOf(`https://127.0.0.1:${port}/`, { ca: authority.certPem });
        } finally {
          server.close();
        }
      };
      // Signed by the same authority: names within its constraints pass, others fail.
      expect(await serve({ dns: ['localhost'], ips: ['127.0.0.1'] })).toBe('ok');
      expect(await serve({ dns: ['www.example.com'], ips: ['127.0.0.1'] })).toMatch(
        /permitted subtree violation/,
      );
      expect(await serve({ dns: [], ips: ['127.0.0.1', '8.8.8.8'] })).toMatch(
        /permitted subtree violation/,
      );
    } finally {
      await t.close();
    }
  });
});
