/**
 * Which certificate the server presents: renewal before the end (with the
 * server's clock set forward), the team's own certificate, and files that
 * stop the start (own certificate problems, a damaged authority).
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index.js';
import { createAuthority, issueServerCertificate } from '../../server/tls/x509.js';
import { startTestServer } from '../helpers/server.js';
import { registerSendAndPoll, request } from './tls-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'hearth-tls-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('renewal', () => {
  it('issues a new certificate before the old one ends, without a restart', async () => {
    let offset = 0;
    const t = await startTestServer({ https: true, now: () => Date.now() + offset });
    try {
      const folder = path.join(t.dataDir, 'tls');
      const caPem = readFileSync(path.join(folder, 'ca.crt'), 'utf8');
      const ca = new X509Certificate(caPem);
      const look = async () => {
        const answer = await request(`${t.server.url}/api/v1/server_settings`, {
          rejectUnauthorized: false,
        });
        return new X509Certificate(answer.peer!.raw);
      };
      const first = await look();
      // 300 days on: 97 left, more than the 30 kept in reserve; the same certificate.
      offset = 300 * DAY_MS;
      expect((await look()).serialNumber).toBe(first.serialNumber);
      // 370 days on: 27 left; the next connection gets a new one, valid from "now".
      offset = 370 * DAY_MS;
      const renewed = await look();
      expect(renewed.serialNumber).not.toBe(first.serialNumber);
      expect(renewed.checkIssued(ca) && renewed.verify(ca.publicKey)).toBe(true);
      expect(Date.parse(renewed.validFrom)).toBeGreaterThan(Date.now() + 369 * DAY_MS);
      expect(Date.parse(renewed.validTo) - Date.now()).toBeGreaterThan(700 * DAY_MS);
      expect(renewed.checkIP('127.0.0.1')).toBe('127.0.0.1');
      // Stored for the next start.
      const stored = new X509Certificate(readFileSync(path.join(folder, 'server.crt')));
      expect(stored.serialNumber).toBe(renewed.serialNumber);
      // The authority stays: devices keep trusting the server.
      expect(readFileSync(path.join(folder, 'ca.crt'), 'utf8')).toBe(caPem);
    } finally {
      await t.close();
    }
  });

  it('a restart keeps the stored certificate while it is good', async () => {
    const t = await startTestServer({ https: true });
    try {
      const file = path.join(t.dataDir, 'tls', 'server.crt');
      const before = readFileSync(file, 'utf8');
      await t.server.restart();
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      await t.close();
    }
  });
});

/** A team's own authority and a certificate from it, written to files. */
async function teamCertificate(
  name: string,
  options: { notBefore?: number; notAfter?: number } = {},
) {
  const now = Date.now();
  const authority = await createAuthority({
    commonName: `Team CA ${name}`,
    permitted: { dns: ['localhost'], ips: ['127.0.0.0/8', '::1/128'] },
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 365 * DAY_MS),
  });
  const server = await issueServerCertificate({
    authority,
    names: { dns: ['localhost'], ips: ['127.0.0.1', '::1'] },
    notBefore: new Date(options.notBefore ?? now - DAY_MS),
    notAfter: new Date(options.notAfter ?? now + 90 * DAY_MS),
  });
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const files = {
    ca: path.join(dir, 'team-ca.crt'),
    cert: path.join(dir, 'server.crt'),
    key: path.join(dir, 'server.key'),
  };
  writeFileSync(files.ca, authority.certPem);
  writeFileSync(files.cert, server.certPem);
  writeFileSync(files.key, server.keyPem, { mode: 0o600 });
  return { ...files, authorityPem: authority.certPem, certPem: server.certPem };
}

describe('the team’s own certificate', () => {
  it('is what the server presents; no authority of Hearth’s is made or served', async () => {
    const team = await teamCertificate('own');
    const t = await startTestServer({
      https: true,
      tlsCertificate: { certFile: team.cert, keyFile: team.key },
    });
    try {
      const ca = readFileSync(team.ca);
      const { event } = await registerSendAndPoll(
        t.server.url,
        { ca },
        t.accounts.owner,
        t.accounts.member,
      );
      expect(event.type).toBe('message');
      const answer = await request(`${t.server.url}/tls/ca.crt`, { ca });
      expect(answer.status).toBe(404);
      expect(answer.body.result).toBe('error');
      expect(new X509Certificate(answer.peer!.raw).toString()).toBe(
        new X509Certificate(team.certPem).toString(),
      );
      expect(readdirSync(t.dataDir)).not.toContain('tls');
    } finally {
      await t.close();
    }
  });

  it('may come as one PKCS#12 file', async () => {
    const team = await teamCertificate('pkcs12');
    const pfx = path.join(scratch, 'pkcs12', 'server.p12');
    try {
      execFileSync('openssl', [
        'pkcs12',
        '-export',
        '-in',
        team.cert,
        '-inkey',
        team.key,
        '-out',
        pfx,
        '-passout',
        'pass:team secret',
      ]);
    } catch {
      console.warn('openssl is missing: the PKCS#12 test is skipped');
      return;
    }
    const t = await startTestServer({
      https: true,
      tlsCertificate: { pfxFile: pfx, passphrase: 'team secret' },
    });
    try {
      const ok = await request(`${t.server.url}/api/v1/server_settings`, {
        ca: readFileSync(team.ca),
      });
      expect(ok.status).toBe(200);
    } finally {
      await t.close();
    }
    await expect(startWith({ pfxFile: pfx, passphrase: 'wrong' })).rejects.toThrow(
      `Cannot use the PKCS#12 file ${pfx}: wrong passphrase`,
    );
  });

  it('a missing, unusable, expired or mismatched file stops the start, naming it', async () => {
    const good = await teamCertificate('good');
    const other = await teamCertificate('other');
    const expired = await teamCertificate('expired', {
      notBefore: Date.now() - 100 * DAY_MS,
      notAfter: Date.now() - DAY_MS,
    });
    const missing = path.join(scratch, 'nowhere.crt');
    await expect(startWith({ certFile: missing, keyFile: good.key })).rejects.toThrow(
      `Cannot read the TLS certificate ${missing}: no such file`,
    );
    await expect(startWith({ certFile: scratch, keyFile: good.key })).rejects.toThrow(
      `Cannot read the TLS certificate ${scratch}: is a folder`,
    );
    await expect(startWith({ certFile: good.key, keyFile: good.key })).rejects.toThrow(
      `The TLS certificate ${good.key} holds no certificate`,
    );
    await expect(startWith({ certFile: good.cert, keyFile: good.cert })).rejects.toThrow(
      `The TLS key ${good.cert} holds no private key`,
    );
    await expect(startWith({ certFile: expired.cert, keyFile: expired.key })).rejects.toThrow(
      new RegExp(`^The TLS certificate ${expired.cert} expired on \\d{4}-`),
    );
    await expect(startWith({ certFile: good.cert, keyFile: other.key })).rejects.toThrow(
      `The TLS key ${other.key} does not belong to the certificate in ${good.cert}`,
    );
  });

  it('is refused when nothing is served over HTTPS', async () => {
    const good = await teamCertificate('plain');
    await expect(
      startWith({ certFile: good.cert, keyFile: good.key }, { https: false }),
    ).rejects.toThrow(/serves only this machine over plain HTTP/);
  });
});

describe('a damaged certificate authority', () => {
  it('stops the start and is left as it is', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'damaged-'));
    const first = await createServer({ dataDir, port: 0, https: true, logFile: false });
    await first.close();
    const folder = path.join(dataDir, 'tls');
    const caFile = path.join(folder, 'ca.crt');
    const keyFile = path.join(folder, 'ca.key');
    const key = readFileSync(keyFile, 'utf8');

    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nnot base64 at all\n');
    const start = () => createServer({ dataDir, port: 0, https: true, logFile: false });
    await expect(start()).rejects.toThrow(
      `The certificate authority in ${folder} is damaged: ca.crt holds no certificate`,
    );
    expect(readFileSync(caFile, 'utf8')).toMatch(/not base64 at all/);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);

    // A certificate from another authority with this key: the pair does not fit.
    writeFileSync(caFile, readFileSync(OTHER_CA_FILE));
    await expect(start()).rejects.toThrow(/ca\.key does not belong to ca\.crt/);
    rmSync(keyFile);
    await expect(start()).rejects.toThrow(/ca\.key is missing/);
    // The owner chooses a new one by moving the folder away.
    rmSync(folder, { recursive: true });
    const fresh = await start();
    await fresh.close();
    expect(new X509Certificate(readFileSync(caFile)).ca).toBe(true);
  });
});

const OTHER_CA_FILE = path.join(__dirname, '..', 'fixtures', 'tls', 'other-ca.crt');

async function startWith(
  tlsCertificate: NonNullable<Parameters<typeof createServer>[0]['tlsCertificate']>,
  options: { https?: boolean } = { https: true },
) {
  const dataDir = mkdtempSync(path.join(scratch, 'start-'));
  const server = await createServer({
    dataDir,
    port: 0,
    https: options.https,
    tlsCertificate,
    logFile: false,
  });
  await server.close();
  throw new Error('the server started');
}
