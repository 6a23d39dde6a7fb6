import type { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { Logger } from '../core/context.js';
import {
  type Authority,
  openAuthority,
  renewalDue,
  type ServerCertificate,
  serverCertificate,
} from './authority.js';
import { type CertificateNames, coversNames, serverNames, withinScope } from './names.js';
import {
  loadOwnCertificate,
  type OwnCertificate,
  type OwnCertificateFiles,
} from './own-certificate.js';

export interface ServerTlsOptions {
  dataDir: string;
  /** The address listened on (names.ts's serverNames). */
  host: string;
  /** `--https`: loopback is served over TLS too, so the certificate names it. */
  httpsOnLoopback: boolean;
  /** The team's own certificate instead of one from the installation's authority. */
  own?: OwnCertificateFiles;
  now: () => number;
  log: Logger;
  /** The machine's LAN addresses now (they change with the network). */
  lanAddresses: () => string[];
}

/** How often a new connection may make the server look at its addresses again. */
const NAMES_CHECK_INTERVAL_MS = 10_000;
/** After a failed renewal, the old certificate serves this long before the next try. */
const RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * The certificate the server presents, and keeping it current: a new
 * connection first asks for the secure context, which is issued again when
 * the certificate nears its end (authority.ts) or the machine has an
 * address it does not name. Connections already open keep theirs.
 */
export class ServerTls {
  private context: tls.SecureContext;
  private renewing: Promise<void> | null = null;
  private renewAt: number;
  private namesCheckedAt: number;
  private lastRefused = '';

  private constructor(
    private readonly options: ServerTlsOptions,
    /** The installation's authority; null when the team's own certificate is used. */
    readonly authority: Authority | null,
    private server: ServerCertificate | null,
    private readonly own: OwnCertificate | null,
  ) {
    this.context = server
      ? tls.createSecureContext({ cert: server.certPem, key: server.keyPem })
      : tls.createSecureContext(own!.contextOptions);
    this.renewAt = server ? renewalDue(server) : Number.POSITIVE_INFINITY;
    this.namesCheckedAt = options.now();
  }

  /** Loads (or makes) what the server presents; throws TlsSetupError when it cannot. */
  static async open(options: ServerTlsOptions): Promise<ServerTls> {
    const now = options.now();
    if (options.own) {
      return new ServerTls(options, null, null, loadOwnCertificate(options.own, now));
    }
    const authority = await openAuthority(options.dataDir, now, options.log);
    const names = wantedNames(options, authority);
    const { server, issued } = await serverCertificate(
      options.dataDir,
      authority,
      names.permitted,
      now,
    );
    const opened = new ServerTls(options, authority, server, null);
    opened.noteRefused(names.refused);
    if (issued) opened.noteIssued(server);
    return opened;
  }

  /** The context a new connection uses; renewed first when due. */
  async secureContext(): Promise<tls.SecureContext> {
    if (this.authority && this.renewalNeeded()) {
      this.renewing ??= this.renew().finally(() => {
        this.renewing = null;
      });
      await this.renewing;
    }
    return this.context;
  }

  /** The certificate presented now. */
  get certificate(): X509Certificate {
    return this.server?.cert ?? this.own!.cert;
  }

  /** The installation's authority certificate (PEM), when it is what devices trust. */
  get authorityPem(): string | null {
    return this.authority?.certPem ?? null;
  }

  /**
   * The SHA-256 fingerprint people compare in person: of the authority
   * devices install, else of the team's own certificate.
   */
  get fingerprint(): string {
    return (this.authority?.cert ?? this.certificate).fingerprint256;
  }

  private renewalNeeded(): boolean {
    const now = this.options.now();
    if (now >= this.renewAt) return true;
    if (now - this.namesCheckedAt < NAMES_CHECK_INTERVAL_MS) return false;
    this.namesCheckedAt = now;
    return !coversNames(this.server!.names, this.wantedNames());
  }

  /** What the certificate should name now, as far as the authority permits (the rest is logged). */
  private wantedNames(): CertificateNames {
    const { permitted, refused } = wantedNames(this.options, this.authority!);
    this.noteRefused(refused);
    return permitted;
  }

  private noteRefused(refused: string[]): void {
    const key = refused.join(', ');
    if (key && key !== this.lastRefused) {
      this.options.log.warn(
        `The server certificate cannot name ${key}: the certificate authority vouches only for this machine's names and private addresses. Clients using it will see a certificate error.`,
      );
    }
    this.lastRefused = key;
  }

  private async renew(): Promise<void> {
    const now = this.options.now();
    try {
      const { server } = await serverCertificate(
        this.options.dataDir,
        this.authority!,
        this.wantedNames(),
        now,
        { reuse: false },
      );
      this.context = tls.createSecureContext({ cert: server.certPem, key: server.keyPem });
      this.server = server;
      this.renewAt = renewalDue(server);
      this.noteIssued(server);
    } catch (err) {
      this.renewAt = now + RETRY_AFTER_MS;
      this.options.log.error('Issuing a new server certificate failed; the old one serves on', err);
    }
  }

  private noteIssued(server: ServerCertificate): void {
    const names = [...server.names.dns, ...server.names.ips].join(', ');
    this.options.log.info(
      `Issued a server certificate for ${names || 'no name'}, valid until ${new Date(server.cert.validTo).toISOString()}`,
    );
  }
}

/** The names the server is reached at, split by what the authority permits. */
function wantedNames(options: ServerTlsOptions, authority: Authority) {
  return withinScope(
    serverNames({
      host: options.host,
      httpsOnLoopback: options.httpsOnLoopback,
      lanAddresses: options.lanAddresses(),
    }),
    authority.scope,
  );
}
