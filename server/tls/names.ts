/**
 * Which names a certificate may carry. The installation's authority is
 * name-constrained (RFC 5280 NameConstraints) to this machine's host names,
 * `localhost`, and private, link-local and loopback address ranges: a device
 * that trusts it trusts nothing on the Internet, so a stolen authority key
 * could not impersonate any public site. The server certificate then names
 * the host names and every address the server is reached at, as far as the
 * authority permits.
 */
import { BlockList, isIP } from 'node:net';
import os from 'node:os';
import { isLoopbackHost, isWildcardHost } from '../shared/network.js';

/** DNS names and IP addresses (or CIDR ranges, for constraints). */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}

/**
 * Address ranges the authority may vouch for: RFC 1918 private networks,
 * shared address space (RFC 6598: carrier-grade NAT, also used by overlay
 * VPNs), link-local, loopback, IPv6 unique-local (RFC 4193), link-local and
 * loopback.
 */
export const PRIVATE_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '127.0.0.0/8',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
];

/** Names a certificate may carry for "this machine" on loopback. */
export const LOOPBACK_NAMES: CertificateNames = { dns: ['localhost'], ips: ['127.0.0.1', '::1'] };

const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const unique = (values: string[]) => [...new Set(values)];

/**
 * The names this machine answers to on the LAN: its host name as the OS
 * gives it, the first label alone, and that label under `.local` (mDNS).
 * A host name that is no valid DNS name (Windows allows some) gives none.
 */
export function machineHostNames(hostname = os.hostname()): string[] {
  const full = hostname.toLowerCase().replace(/\.$/, '');
  if (!DNS_NAME.test(full)) return [];
  const short = full.split('.')[0]!;
  return unique([full, short, `${short}.local`]);
}

/** What a new authority is constrained to (see the module comment). */
export function authorityScope(hostname?: string): CertificateNames {
  return { dns: unique([...machineHostNames(hostname), 'localhost']), ips: PRIVATE_RANGES };
}

/**
 * The names the server certificate should carry. LAN mode: this machine's
 * host names and the addresses listened on (every LAN address when listening
 * on all interfaces: IPv4 ones for 0.0.0.0, both families for ::). With
 * `--https` the loopback names too, since clients on this machine then use
 * TLS as well.
 */
export function serverNames(options: {
  host: string;
  httpsOnLoopback: boolean;
  /** The machine's LAN addresses (see hosting's lanInterfaces). */
  lanAddresses: string[];
  hostname?: string;
}): CertificateNames {
  const { host } = options;
  const bare = host.replace(/^\[|\]$/g, '');
  let ips: string[];
  if (isWildcardHost(host)) {
    ips = options.lanAddresses.filter((address) => bare !== '0.0.0.0' || isIP(address) === 4);
  } else if (isIP(bare)) {
    ips = isLoopbackHost(host) ? [] : [bare];
  } else {
    ips = [];
  }
  const dns = machineHostNames(options.hostname);
  if (options.httpsOnLoopback) {
    dns.push(...LOOPBACK_NAMES.dns);
    ips.push(...LOOPBACK_NAMES.ips);
    if (isLoopbackHost(host) && isIP(bare) && !ips.includes(bare)) ips.push(bare);
  }
  return { dns: unique(dns), ips: unique(ips) };
}

function rangesOf(scope: CertificateNames): BlockList {
  const list = new BlockList();
  for (const range of scope.ips) {
    const [address, prefix] = range.split('/');
    const family = isIP(address!) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(prefix), family);
  }
  return list;
}

/** RFC 5280 §4.2.1.10: a DNS constraint covers the name and every name below it. */
const dnsWithin = (name: string, base: string) =>
  name === base || (base.startsWith('.') ? name.endsWith(base) : name.endsWith(`.${base}`));

/** Splits `names` into those the authority's scope permits and those it does not. */
export function withinScope(
  names: CertificateNames,
  scope: CertificateNames | null,
): { permitted: CertificateNames; refused: string[] } {
  if (scope === null) return { permitted: names, refused: [] };
  const ranges = rangesOf(scope);
  const permitted: CertificateNames = { dns: [], ips: [] };
  const refused: string[] = [];
  for (const name of names.dns) {
    if (scope.dns.some((base) => dnsWithin(name, base.toLowerCase()))) permitted.dns.push(name);
    else refused.push(name);
  }
  for (const ip of names.ips) {
    if (ranges.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4')) permitted.ips.push(ip);
    else refused.push(ip);
  }
  return { permitted, refused };
}

/** Whether every name of `wanted` is among `have` (IPs compared in canonical form). */
export function coversNames(have: CertificateNames, wanted: CertificateNames): boolean {
  const ips = new Set(have.ips.map(canonicalIp));
  const dns = new Set(have.dns.map((d) => d.toLowerCase()));
  return wanted.dns.every((d) => dns.has(d)) && wanted.ips.every((ip) => ips.has(canonicalIp(ip)));
}

/** An IP address in one spelling (IPv6 zeros compressed, lower case). */
function canonicalIp(ip: string): string {
  try {
    return new URL(`http://${isIP(ip) === 6 ? `[${ip}]` : ip}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return ip;
  }
}
