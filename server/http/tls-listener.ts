/**
 * HTTPS and plain HTTP on the one port the server listens on. Each new
 * connection's first byte tells them apart: 0x16 opens a TLS handshake
 * (a ClientHello record), anything else is an HTTP request line. TLS
 * connections are wrapped (the current certificate, see tls/server-tls.ts)
 * and then handed, like plain ones, to the HTTP server's own connection
 * handling, so every request reaches the same Fastify app through the same
 * Host check, connection caps, timeouts and request log.
 *
 * Why one port rather than a second listener: clients keep the one URL they
 * know (`http://lan-address:9991` becomes `https://lan-address:9991`), a
 * plain request to a LAN address can be answered with a redirect to the
 * same place over HTTPS, and this machine's own clients (the desktop
 * window, local bots) keep plain HTTP on loopback on the same port.
 *
 * Where plain HTTP is not served (every LAN connection; loopback too under
 * `--https`) a request is redirected to https://<its Host><path>, except
 * under /tls/: the certificate authority and its setup page must reach
 * devices that do not trust it yet, and the fingerprint compared in person
 * is what vouches for them. With an external URL given (a reverse proxy in
 * front) plain requests are served: the proxy may reach the server over
 * plain HTTP from another machine.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import tls from 'node:tls';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../core/context.js';
import type { ServerTls } from '../tls/index.js';
import { parseHostHeader } from './allowed-hosts.js';
import { drainRefusedBody } from './refused-body.js';

/** The first byte of a TLS handshake record. */
const TLS_HANDSHAKE = 0x16;
/** HSTS lifetime: a year, the usual. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** Paths served over plain HTTP everywhere (the authority for devices that do not trust it yet). */
export const TLS_FILES_PREFIX = '/tls/';

export interface TlsListenerOptions {
  tls: ServerTls;
  /** Loopback connections may speak plain HTTP (LAN mode); false under --https. */
  plainOnLoopback: boolean;
  /** How long a connection may take to send its first byte and finish the handshake. */
  handshakeTimeoutMs: number;
}

export interface TlsListener {
  /** Whether a plain-HTTP request arrived where HTTPS is expected. */
  expectsTls(request: IncomingMessage): boolean;
  /** Closes connections still sniffing or handshaking (they have sent no request). */
  destroyPending(): void;
}

const isLoopbackAddress = (address: string | undefined) =>
  address !== undefined &&
  (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));

/** Takes over `server`'s connections: sniffs each, wraps TLS ones, then serves them as HTTP. */
export function listenForTls(server: Server, options: TlsListenerOptions): TlsListener {
  const listeners = server.listeners('connection');
  if (listeners.length !== 1) {
    throw new Error('listenForTls must run before anything else watches connections');
  }
  const serveHttp = listeners[0] as (socket: Socket) => void;
  server.removeListener('connection', serveHttp);
  const pending = new Set<Socket>();
  const plainWhereTlsExpected = new WeakSet<object>();

  const serve = (socket: Socket) => serveHttp.call(server, socket);

  const startTls = async (socket: Socket) => {
    const secureContext = await options.tls.secureContext();
    if (socket.destroyed) return;
    const secure = new tls.TLSSocket(socket, {
      isServer: true,
      secureContext,
      ALPNProtocols: ['http/1.1'],
    });
    secure.once('secure', () => {
      pending.delete(socket);
      serve(secure);
    });
    // A client that does not trust the certificate ends the handshake with an alert.
    secure.once('error', () => secure.destroy());
  };

  server.on('connection', (socket: Socket) => {
    pending.add(socket);
    const timer = setTimeout(() => {
      if (pending.has(socket)) socket.destroy();
    }, options.handshakeTimeoutMs);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      pending.delete(socket);
    });
    socket.once('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) {
        startTls(socket).catch(() => socket.destroy());
        return;
      }
      pending.delete(socket);
      clearTimeout(timer);
      if (!(options.plainOnLoopback && isLoopbackAddress(socket.localAddress))) {
        plainWhereTlsExpected.add(socket);
      }
      serve(socket);
      socket.resume();
    });
  });

  return {
    expectsTls: (request) => plainWhereTlsExpected.has(request.socket),
    destroyPending() {
      for (const socket of pending) socket.destroy();
      pending.clear();
    },
  };
}

const isEncrypted = (request: FastifyRequest) => isEncryptedRequest(request.raw);

const isEncryptedRequest = (request: IncomingMessage) =>
  (request.socket as Partial<tls.TLSSocket>).encrypted === true;

/** Whether Set-Cookie should say Secure: over TLS, or behind an https external URL (a proxy). */
export function secureCookies(request: FastifyRequest, config: ServerConfig): boolean {
  return isEncrypted(request) || (config.givenExternalUrl?.startsWith('https:') ?? false);
}

/**
 * Where a plain request goes over HTTPS: the same authority (the Host
 * header, or an absolute-form target's) and path; an HTTP/1.0 request
 * without a Host goes to the URL clients are told to use.
 */
function httpsTarget(
  url: string,
  host: string | undefined,
  config: ServerConfig,
): { authority: string; path: string } {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(.*)$/i.exec(url);
  const authority = absolute?.[1] ?? host ?? new URL(config.externalUrl).host;
  const rest = absolute ? absolute[2]! : url;
  return { authority, path: rest.startsWith('/') ? rest : `/${rest}` };
}

/** A browser applies HSTS to a host name, never to an IP literal; loopback names are left alone. */
function hstsApplies(host: string | undefined): boolean {
  const parsed = host === undefined ? null : parseHostHeader(host);
  if (!parsed) return false;
  const name = parsed.name;
  return !(name === 'localhost' || name.endsWith('.localhost') || /^[\d.]+$|^\[/.test(name));
}

/**
 * The request hooks HTTPS needs: plain requests where TLS is expected are
 * redirected (see the module comment), and HTTPS answers carry HSTS.
 * Registered after the Host check, so a redirect only ever names a host
 * this server answers to.
 */
export function addHttpsHooks(
  app: FastifyInstance,
  listener: TlsListener,
  config: ServerConfig,
): void {
  app.addHook('onRequest', async (request, reply) => {
    if (isEncrypted(request)) {
      if (hstsApplies(request.headers.host)) {
        reply.header('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}`);
      }
      return;
    }
    if (!listener.expectsTls(request.raw) || config.givenExternalUrl) return;
    const target = httpsTarget(request.raw.url ?? '/', request.headers.host, config);
    if (target.path.startsWith(TLS_FILES_PREFIX)) return;
    await drainRefusedBody(request.raw);
    // 307 keeps the method and body, and no browser caches it: turning HTTPS
    // off again (another certificate set-up) leaves no stale redirect behind.
    return reply
      .code(307)
      .header('Location', `https://${target.authority}${target.path}`)
      .header('Cache-Control', 'no-store')
      .type('application/json; charset=utf-8')
      .send({ result: 'error', msg: 'Use HTTPS', code: 'BAD_REQUEST' });
  });
}

/**
 * What the hooks above do to a request, for a path that bypasses them
 * (lean-events.ts): the Strict-Transport-Security value to send (null:
 * none), or 'hooks' when the request must go through them (a plain request
 * where HTTPS is expected, which may be redirected).
 */
export function strictTransportFor(
  request: IncomingMessage,
  listener: TlsListener,
  config: ServerConfig,
): string | null | 'hooks' {
  if (isEncryptedRequest(request)) {
    return hstsApplies(request.headers.host) ? `max-age=${HSTS_MAX_AGE_SECONDS}` : null;
  }
  return listener.expectsTls(request) && !config.givenExternalUrl ? 'hooks' : null;
}
