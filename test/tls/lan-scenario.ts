/**
 * Run by lan.test.ts inside a network namespace of its own (so the LAN
 * address 10.200.0.1 belongs to the test, not to a real network): starts
 * the server in LAN mode and prints what clients see, as JSON.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { networkOverview } from '../../server/hosting/index.js';
import { startTestServer } from '../helpers/server.js';
import { failureOf, registerSendAndPoll, request } from './tls-client.js';

const LAN = '10.200.0.1';
const SECOND = '10.200.0.2';

let offset = 0;
const t = await startTestServer({ host: '0.0.0.0', now: () => Date.now() + offset });
const port = t.server.port;
const ca = readFileSync(path.join(t.dataDir, 'tls', 'ca.crt'), 'utf8');
const lanUrl = `https://${LAN}:${port}`;
const hostname = os.hostname().toLowerCase();
const out: Record<string, unknown> = { url: t.server.url, localUrl: t.server.localUrl, port };

const flow = await registerSendAndPoll(lanUrl, { ca }, t.accounts.owner, t.accounts.member);
out.flow = { sent: flow.messageId, event: flow.event.message.id };
out.withoutCa = await failureOf(`${lanUrl}/api/v1/server_settings`);

const settings = await request(`${lanUrl}/api/v1/server_settings`, { ca });
const cert = new X509Certificate(settings.peer!.raw);
out.realmUrl = settings.body.realm_url;
out.names = {
  lan: cert.checkIP(LAN) ?? null,
  hostname: cert.checkHost(hostname) ?? null,
  loopback: cert.checkIP('127.0.0.1') ?? null,
};
out.hstsForAddress = settings.headers['strict-transport-security'] ?? null;
const byName = await request(`${lanUrl}/api/v1/server_settings`, {
  ca,
  servername: hostname,
  headers: { host: `${hostname}:${port}` },
});
out.byName = { status: byName.status, hsts: byName.headers['strict-transport-security'] ?? null };

const plainLan = await request(`http://${LAN}:${port}/api/v1/server_settings?x=1`);
out.plainLan = { status: plainLan.status, location: plainLan.headers.location ?? null };
const plainLanCa = await request(`http://${LAN}:${port}/tls/ca.crt`);
out.plainLanCa = { status: plainLanCa.status, same: plainLanCa.text === ca };
const plainLoopback = await request(`http://127.0.0.1:${port}/api/v1/server_settings`);
out.plainLoopback = { status: plainLoopback.status, realmUrl: plainLoopback.body?.realm_url };

const logIn = { username: t.accounts.member.email, password: t.accounts.member.password! };
const cookieOverTls = await request(`${lanUrl}/chat/session`, {
  ca,
  method: 'POST',
  params: logIn,
});
const cookieOverLoopback = await request(`http://127.0.0.1:${port}/chat/session`, {
  method: 'POST',
  params: logIn,
});
out.cookies = {
  tls: cookieOverTls.headers['set-cookie']?.[0] ?? null,
  loopback: cookieOverLoopback.headers['set-cookie']?.[0] ?? null,
};

const { userById } = await import('../../server/db/queries/users.js');
const overview = await networkOverview(
  t.server.ctx,
  userById(t.server.ctx.db, t.accounts.owner.id)!,
  undefined,
);
out.overview = {
  urls: overview.urls,
  fingerprint: overview.tls?.fingerprint ?? null,
  setupUrl: overview.tls?.setupUrl ?? null,
  clearTextWarning: overview.clearTextWarning,
};
out.caFingerprint = new X509Certificate(ca).fingerprint256;

// A new address (another network, a lease): the next connection after the
// server looks again at its addresses gets a certificate that names it.
execFileSync('ip', ['addr', 'add', `${SECOND}/24`, 'dev', 'hearth0']);
offset = 11_000;
// The Host check reads the machine's addresses again at most every 2 s (allowed-hosts.ts).
await new Promise((resolve) => setTimeout(resolve, 2_100));
const second = await request(`https://${SECOND}:${port}/api/v1/server_settings`, {
  ca,
  rejectUnauthorized: false,
});
const third = await request(`https://${SECOND}:${port}/api/v1/server_settings`, { ca });
out.newAddress = {
  firstStatus: second.status,
  named: new X509Certificate(third.peer!.raw).checkIP(SECOND) ?? null,
  stillNamesLan: new X509Certificate(third.peer!.raw).checkIP(LAN) ?? null,
};

await t.close();
console.log(JSON.stringify(out));
