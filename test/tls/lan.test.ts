/**
 * LAN mode on a LAN address. Tests may only talk to loopback or to
 * addresses of their own, so this one makes a network namespace (needs
 * root or unprivileged user namespaces, and iproute2) with a veth pair
 * holding 10.200.0.1/24, and runs lan-scenario.ts there; skipped, saying
 * why, where no namespace can be made.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../cli/process.js';

const SETUP = [
  'ip link set lo up',
  'ip link add hearth0 type veth peer name hearth1',
  'ip addr add 10.200.0.1/24 dev hearth0',
  'ip link set hearth0 up',
  'ip link set hearth1 up',
].join(' && ');

function namespaceProblem(): string | null {
  const probe = spawnSync('unshare', ['--net', '--map-root-user', 'sh', '-c', SETUP], {
    encoding: 'utf8',
  });
  if (probe.error) return `unshare: ${probe.error.message}`;
  return probe.status === 0 ? null : `unshare: ${probe.stderr.trim()}`;
}

const problem = namespaceProblem();
if (problem) console.warn(`The LAN test needs a network namespace; skipped (${problem})`);

describe.skipIf(problem !== null)('LAN mode on a LAN address (in a network namespace)', () => {
  it('serves HTTPS there, redirects plain HTTP there, keeps plain HTTP on loopback', () => {
    const run = spawnSync(
      'unshare',
      [
        '--net',
        '--map-root-user',
        'sh',
        '-c',
        `${SETUP} && exec "$0" --import tsx "$1"`,
        process.execPath,
        path.join(REPO, 'test', 'tls', 'lan-scenario.ts'),
      ],
      { cwd: REPO, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!);
    const port = out.port;
    const lanUrl = `https://10.200.0.1:${port}`;
    // What clients are told: the LAN address over https; this machine keeps plain HTTP.
    expect(out.url).toBe(lanUrl);
    expect(out.localUrl).toBe(`http://127.0.0.1:${port}`);
    expect(out.realmUrl).toBe(lanUrl);
    // A client trusting only the authority: register, send, long-poll.
    expect(out.flow.event).toBe(out.flow.sent);
    // Without it, TLS refuses.
    expect(out.withoutCa).toMatch(/^UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    // The certificate names the LAN address and the host name; loopback is not served over TLS.
    expect(out.names).toMatchObject({ lan: '10.200.0.1', loopback: null });
    expect(out.names.hostname).not.toBeNull();
    // HSTS for a host name, never for an address.
    expect(out.hstsForAddress).toBeNull();
    expect(out.byName).toEqual({ status: 200, hsts: 'max-age=31536000' });
    // Plain HTTP on the LAN address: redirected, except the authority for devices.
    expect(out.plainLan).toEqual({
      status: 307,
      location: `${lanUrl}/api/v1/server_settings?x=1`,
    });
    expect(out.plainLanCa).toEqual({ status: 200, same: true });
    expect(out.plainLoopback).toEqual({ status: 200, realmUrl: lanUrl });
    // Cookies are Secure over TLS, not on this machine's plain loopback.
    expect(out.cookies.tls).toMatch(/; Secure(;|$)/);
    expect(out.cookies.loopback).not.toMatch(/Secure/);
    // The admin's Network page: https URLs, the fingerprint, the setup page over plain HTTP.
    expect(out.overview).toEqual({
      urls: [lanUrl],
      fingerprint: out.caFingerprint,
      setupUrl: `http://10.200.0.1:${port}/tls/`,
      clearTextWarning: false,
    });
    // A new address is named by the next certificate.
    expect(out.newAddress).toEqual({
      firstStatus: 200,
      named: '10.200.0.2',
      stillNamesLan: '10.200.0.1',
    });
  });
});
