import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';

/**
 * The address a request came from, for per-address budgets (rate limits,
 * failed authentications) and nothing else. Behind a reverse proxy every
 * client would share the proxy's address; so when the operator names the
 * proxies (`--trusted-proxy`), `X-Forwarded-For` is read: the right-most
 * address in the chain that is not a trusted proxy. Without trusted proxies
 * the header is ignored (anyone could write it).
 */
export type ClientAddressOf = (request: FastifyRequest) => string;

/**
 * Checks the trusted proxies (IP addresses, CIDR ranges, or `loopback`,
 * `linklocal`, `uniquelocal`) and returns how to find a request's client;
 * throws on an entry that is none of those.
 */
export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddressOf {
  const addressOf = rawClientAddressResolver(trustedProxies);
  return (request) => addressOf(request.raw);
}

/** The same on Node's request (for paths that bypass Fastify: lean-events.ts). */
export function rawClientAddressResolver(
  trustedProxies: readonly string[],
): (request: IncomingMessage) => string {
  // Fastify's request.ip, without trustProxy: the socket's peer.
  if (trustedProxies.length === 0) return (request) => request.socket.remoteAddress ?? '';
  const trust = proxyAddr.compile([...trustedProxies]);
  return (request) => proxyAddr(request, trust);
}

/** Splits `--trusted-proxy` / HEARTH_TRUSTED_PROXIES (commas) and checks each entry. */
export function parseTrustedProxies(text: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      throw new Error(
        `invalid trusted proxy: ${entry} (give IP addresses, CIDR ranges, or loopback, linklocal, uniquelocal)`,
      );
    }
  }
  return entries;
}
