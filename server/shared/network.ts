import os from 'node:os';

/** Listening on every interface ("0.0.0.0", "::", or the empty host). */
export const isWildcardHost = (host: string) =>
  host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';

export const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');

/**
 * The machine's address as other devices on the LAN reach it: the first
 * non-internal IPv4 address in the order the OS lists its interfaces
 * (link-local 169.254/16 skipped: no other device routes to it), then the
 * first global IPv6 address, then the host name. Deterministic for a given
 * network set-up, so the URL in the zuliprc only changes when that does.
 */
export function lanAddress(
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): string {
  const all = Object.values(interfaces).flatMap((list) => list ?? []);
  const v4 = all.find(
    (i) => i.family === 'IPv4' && !i.internal && !i.address.startsWith('169.254.'),
  );
  if (v4) return v4.address;
  const v6 = all.find(
    (i) => i.family === 'IPv6' && !i.internal && i.scopeid === 0 && !/^fe80:/i.test(i.address),
  );
  if (v6) return `[${v6.address}]`;
  return os.hostname();
}

/** An IP literal or name as it goes into a URL's host part. */
export const urlHost = (host: string) =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

/**
 * Where the server speaks TLS: nowhere; on every address but loopback (LAN
 * mode: this machine's own clients keep plain HTTP); or on every address
 * (`--https`).
 */
export type HttpsScope = 'off' | 'lan' | 'all';

/** LAN mode turns HTTPS on by itself; `--https` extends it to loopback. */
export const httpsScopeFor = (host: string, httpsEverywhere: boolean): HttpsScope =>
  httpsEverywhere ? 'all' : isLoopbackHost(host) ? 'off' : 'lan';

/**
 * The base URL clients use (realm_url, the zuliprc's `site`): the one given,
 * else the LAN address when listening on every interface, else the address
 * listened on; https when the server speaks TLS there.
 */
export function externalUrlFor(
  host: string,
  port: number,
  given?: string,
  https: HttpsScope = 'off',
): string {
  if (given) return given;
  const scheme = https === 'off' ? 'http' : 'https';
  return `${scheme}://${urlHost(isWildcardHost(host) ? lanAddress() : host)}:${port}`;
}

/**
 * How this machine itself reaches the server: loopback when it listens
 * there, over plain HTTP unless `--https`; else the one address listened
 * on, over https in LAN mode.
 */
export function localUrlFor(host: string, port: number, https: HttpsScope = 'off'): string {
  const loopback = isWildcardHost(host) || isLoopbackHost(host);
  const scheme = https === 'all' || (https === 'lan' && !loopback) ? 'https' : 'http';
  if (host === '::' || host === '[::]') return `${scheme}://[::1]:${port}`;
  if (isWildcardHost(host)) return `${scheme}://127.0.0.1:${port}`;
  return `${scheme}://${urlHost(host)}:${port}`;
}

/**
 * Checks an --external-url: an absolute http(s) URL without credentials,
 * query or fragment; returned without a trailing slash (Zulip's realm_url has none).
 */
export function normalizeExternalUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`invalid external URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`invalid external URL (http or https only): ${text}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`invalid external URL (no credentials, query or fragment): ${text}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
