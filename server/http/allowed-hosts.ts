/**
 * Which `Host` a request may name. A page on any web site can make the
 * owner's browser send requests to 127.0.0.1 under the site's own name (DNS
 * rebinding: the name first resolves to the site, then to 127.0.0.1), and
 * read the answers as its own; only the Host header tells such requests
 * apart. So the server answers only the names and addresses it is reached
 * by: the loopback names, the address it listens on (in LAN mode, every
 * address of the machine and its host name), and the external URL's host.
 * Others get Zulip's answer to a host outside ALLOWED_HOSTS (Django's
 * DisallowedHost, a 400 Bad Request), in the JSON envelope: BAD_REQUEST.
 *
 * A port, when given, must be the one listened on or the external URL's.
 * An absolute-form request target (`GET http://name/path`) names its host
 * in the target, which then counts instead of the header (RFC 9112 §3.2.2).
 * An HTTP/1.0 request may carry no Host at all: browsers always send one,
 * so it cannot come from a rebound page.
 */
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { AppContext, ServerConfig } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { isWildcardHost, urlHost } from '../shared/network.js';

/** The loopback names any server here answers to. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Host values kept parsed (AllowedHosts.parsed); past this the memo starts afresh. */
const MAX_PARSED_VALUES = 256;
/** How long the machine's addresses are trusted before a miss looks again. */
const INTERFACES_TTL_MS = 2_000;

/** A host as it is compared: lower case, IP literals normalized, no trailing dot. */
function canonicalName(name: string): string | null {
  const trimmed = name.endsWith('.') && !name.startsWith('[') ? name.slice(0, -1) : name;
  if (trimmed === '' || /[\s/?#@\\]/.test(trimmed)) return null;
  try {
    return new URL(`http://${trimmed}/`).hostname;
  } catch {
    return null;
  }
}

/** `name`, `name:port`, `[v6]`, `[v6]:port`; null when malformed. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  const name = canonicalName(match[1]!);
  if (name === null) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && port > 65535) return null;
  return { name, port };
}

const defaultPort = (url: URL) =>
  url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

export class AllowedHosts {
  private interfaceNames: Set<string> = new Set();
  private interfacesReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly config: ServerConfig,
    private readonly now: () => number = Date.now,
    private readonly interfaces: () => NodeJS.Dict<
      os.NetworkInterfaceInfo[]
    > = os.networkInterfaces,
  ) {}

  /** Whether a Host value (or an absolute-form target's authority) names this server. */
  allows(value: string): boolean {
    const host = this.parsed(value);
    if (!host) return false;
    const fixed = this.fixed();
    if (host.port !== null && !fixed.ports.has(host.port)) return false;
    if (fixed.names.has(host.name)) return true;
    if (!isWildcardHost(this.config.host)) return false;
    if (this.interfaceNames.has(host.name)) return true;
    // A new address (another network, a new lease): look again, at most every INTERFACES_TTL_MS.
    if (this.now() - this.interfacesReadAt < INTERFACES_TTL_MS) return false;
    this.readInterfaces();
    return this.interfaceNames.has(host.name);
  }

  /**
   * Host values seen, parsed: every request names one, clients repeat the
   * same few, and parsing one (a URL) was a tenth of a long-poll's cost.
   */
  private readonly parsedValues = new Map<string, { name: string; port: number | null } | null>();

  private parsed(value: string): { name: string; port: number | null } | null {
    let host = this.parsedValues.get(value);
    if (host === undefined) {
      host = parseHostHeader(value);
      if (this.parsedValues.size >= MAX_PARSED_VALUES) this.parsedValues.clear();
      this.parsedValues.set(value, host);
    }
    return host;
  }

  /** The names and ports from the configuration, made again when it changes. */
  private fixedFor: {
    port: number;
    host: string;
    external: string | undefined;
    names: Set<string>;
    ports: Set<number>;
  } | null = null;

  private fixed(): { names: Set<string>; ports: Set<number> } {
    const { port, host, givenExternalUrl } = this.config;
    const known = this.fixedFor;
    if (known && known.port === port && known.host === host && known.external === givenExternalUrl)
      return known;
    this.fixedFor = {
      port,
      host,
      external: givenExternalUrl,
      names: this.fixedNames(),
      ports: this.ports(),
    };
    return this.fixedFor;
  }

  private external(): URL | null {
    const given = this.config.givenExternalUrl;
    return given ? new URL(given) : null;
  }

  private ports(): Set<number> {
    const external = this.external();
    return new Set([this.config.port, ...(external ? [defaultPort(external)] : [])]);
  }

  private fixedNames(): Set<string> {
    const names = [...LOOPBACK_NAMES, this.config.host, this.external()?.hostname ?? ''];
    const set = new Set<string>();
    for (const name of names) {
      const canonical = name && !isWildcardHost(name) ? canonicalName(urlHost(name)) : null;
      if (canonical) set.add(canonical);
    }
    return set;
  }

  /** Every address of the machine, and its host name (mDNS's `name.local` too). */
  private readInterfaces(): void {
    this.interfacesReadAt = this.now();
    const names = new Set<string>();
    for (const info of Object.values(this.interfaces()).flat()) {
      if (!info) continue;
      const canonical = canonicalName(urlHost(info.address));
      if (canonical) names.add(canonical);
    }
    const hostname = os.hostname().toLowerCase();
    for (const name of [hostname, `${hostname.split('.')[0]}.local`]) {
      const canonical = canonicalName(name);
      if (canonical) names.add(canonical);
    }
    this.interfaceNames = names;
  }
}

/** The authority of an absolute-form target (`http://host:port/path`), else null. */
function targetAuthority(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  return match ? match[1]! : null;
}

const shown = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

/** Why the request's host is refused, or null when it names this server. */
export function hostRefusal(raw: IncomingMessage, allowed: AllowedHosts): string | null {
  const authority = targetAuthority(raw.url ?? '');
  if (authority !== null) {
    return allowed.allows(authority)
      ? null
      : `Invalid host in the request target: ${shown(authority)}`;
  }
  let host: string | null = null;
  let count = 0;
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    if (raw.rawHeaders[i]!.toLowerCase() === 'host') {
      count++;
      host = raw.rawHeaders[i + 1]!;
    }
  }
  if (count > 1) return 'Invalid Host header: more than one';
  if (host === null) return raw.httpVersion === '1.0' ? null : 'Missing Host header';
  return allowed.allows(host) ? null : `Invalid Host header: ${shown(host)}`;
}

/**
 * Refuses, before anything else runs, requests for a host this server is not
 * reached by. Returns the names allowed, for paths that bypass the hooks
 * (lean-events.ts).
 */
export function checkHosts(app: FastifyInstance, ctx: AppContext): AllowedHosts {
  const allowed = new AllowedHosts(ctx.config);
  // Callback style: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    const refusal = hostRefusal(request.raw, allowed);
    done(refusal ? badRequest(refusal) : undefined);
  });
  return allowed;
}
