import type { AppContext, ServerConfig } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import {
  externalUrlFor,
  isLoopbackHost,
  isWildcardHost,
  normalizeExternalUrl,
  urlHost,
} from '../shared/network.js';
import { requireRole } from '../shared/roles.js';
import {
  authorityProblem,
  loadOwnCertificate,
  type OwnCertificateFiles,
  setAsideAuthority,
  TlsSetupError,
  tlsOf,
} from '../tls/index.js';
import { lanInterfaces, type NetworkInterface } from './interfaces.js';
import { type DesktopSettings, readDesktopSettings, writeDesktopSettings } from './settings.js';
import type { DesktopHost } from './status.js';

export interface NetworkOverview {
  /** Saved: serve the LAN (takes effect when the desktop's server (re)starts). */
  lan: boolean;
  /** Saved: the one interface address to serve in LAN mode, null for all. */
  interfaceAddress: string | null;
  /** Saved: the URL clients are told to use, null when derived from the address. */
  externalUrl: string | null;
  /** Saved: the team's own certificate files (PEM), null for the installation's authority. */
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  /** Why the data directory's certificate authority cannot be used, if it cannot (the owner chooses). */
  authorityProblem: string | null;
  /** The running server's address and port. */
  host: string;
  port: number;
  /** The URLs clients should use, the main one (realm_url) first. */
  urls: string[];
  interfaces: NetworkInterface[];
  /** An SVG QR code of the main URL, for phones. */
  qrSvg: string;
  /** The server is reachable from other machines over plain HTTP: keys and passwords cross in clear. */
  clearTextWarning: boolean;
  /** How the server speaks TLS, null when it does not. */
  tls: TlsOverview | null;
  /**
   * The desktop app runs this server and restarts it on the saved settings;
   * false for a server started otherwise (`npm start`), whose command line
   * decides where it listens whatever is saved here.
   */
  followsSettings: boolean;
}

export interface TlsOverview {
  /** The SHA-256 fingerprint to compare in person (the authority's, else the own certificate's). */
  fingerprint: string;
  /** True: the installation's authority, which devices install; false: the team's own certificate. */
  ownAuthority: boolean;
  /** The certificate the server presents: its subject, names and end of validity. */
  certificate: { subject: string; names: string; validTo: string };
  /** The page devices open to install the authority (plain HTTP), and its QR code; null without one. */
  setupUrl: string | null;
  setupQrSvg: string | null;
}

/**
 * The running server's client URLs: the given external URL alone, else the
 * URL it announces (realm_url) followed, when it listens on every interface,
 * by each of the machine's other reachable addresses.
 */
function clientUrls(ctx: AppContext, interfaces: NetworkInterface[]): string[] {
  const { config } = ctx;
  if (config.givenExternalUrl || !isWildcardHost(config.host)) return [config.externalUrl];
  const scheme = config.https === 'off' ? 'http' : 'https';
  const others = interfaces
    .filter((i) => config.host !== '0.0.0.0' || i.family === 'IPv4')
    .map((i) => `${scheme}://${urlHost(i.address)}:${config.port}`);
  return [...new Set([config.externalUrl, ...others])];
}

/** The QR encoder loads at the first code asked for, not at start-up. */
export async function qrCodeSvg(url: string): Promise<string> {
  const { renderSVG } = await import('uqr');
  return renderSVG(url, { ecc: 'M', border: 1 });
}

/**
 * Where devices fetch the installation's authority: its setup page at the
 * LAN address, over plain HTTP (they do not trust the server yet).
 */
export const deviceSetupUrl = (config: ServerConfig) =>
  `${externalUrlFor(config.host, config.port)}/tls/`;

async function tlsOverview(ctx: AppContext): Promise<TlsOverview | null> {
  const tls = tlsOf(ctx);
  if (!tls) return null;
  const cert = tls.certificate;
  const setupUrl = tls.authority ? deviceSetupUrl(ctx.config) : null;
  return {
    fingerprint: tls.fingerprint,
    ownAuthority: tls.authority !== null,
    certificate: {
      subject: cert.subject.replace(/\n/g, ', '),
      names: cert.subjectAltName ?? '',
      validTo: new Date(cert.validTo).toISOString(),
    },
    setupUrl,
    setupQrSvg: setupUrl ? await qrCodeSvg(setupUrl) : null,
  };
}

export async function networkOverview(
  ctx: AppContext,
  actor: UserRow,
  desktop: DesktopHost | undefined,
): Promise<NetworkOverview> {
  requireRole(actor, 'owner');
  const saved = readDesktopSettings(ctx.config.dataDir);
  const interfaces = lanInterfaces();
  const urls = clientUrls(ctx, interfaces);
  const main = urls[0] ?? ctx.config.externalUrl;
  return {
    lan: saved.lan,
    interfaceAddress: saved.interfaceAddress ?? null,
    externalUrl: saved.externalUrl ?? null,
    ...savedCertificateFiles(saved),
    authorityProblem: authorityProblem(ctx.config.dataDir, ctx.now()),
    host: ctx.config.host,
    port: ctx.config.port,
    urls,
    interfaces,
    qrSvg: await qrCodeSvg(main),
    clearTextWarning: !isLoopbackHost(ctx.config.host) && !main.startsWith('https:'),
    tls: await tlsOverview(ctx),
    followsSettings: desktop !== undefined,
  };
}

export interface NetworkSettingsInput {
  lan: boolean;
  /** null or '' clears it (every interface). */
  interfaceAddress?: string | null;
  /** null or '' clears it (derived from the address). */
  externalUrl?: string | null;
  /**
   * The team's own certificate: a PEM certificate with its key file, or a
   * PKCS#12 file (.p12, .pfx) with its passphrase; null or '' uses the
   * installation's authority.
   */
  tlsCertFile?: string | null;
  tlsKeyFile?: string | null;
  tlsPassphrase?: string | null;
}

function savedCertificateFiles(saved: DesktopSettings) {
  const own = saved.tlsCertificate;
  if (!own) return { tlsCertFile: null, tlsKeyFile: null };
  return 'pfxFile' in own
    ? { tlsCertFile: own.pfxFile, tlsKeyFile: null }
    : { tlsCertFile: own.certFile, tlsKeyFile: own.keyFile };
}

const isPkcs12 = (file: string) => /\.(p12|pfx)$/i.test(file);

/** The certificate files given, checked as a start would check them (a bad one is refused now). */
function ownCertificateInput(
  ctx: AppContext,
  input: NetworkSettingsInput,
): OwnCertificateFiles | null {
  const certFile = input.tlsCertFile?.trim();
  const keyFile = input.tlsKeyFile?.trim();
  if (!certFile) {
    if (keyFile) throw badRequest('Give the certificate file too', { var_name: 'tlsCertFile' });
    return null;
  }
  let files: OwnCertificateFiles;
  if (isPkcs12(certFile)) {
    files = {
      pfxFile: certFile,
      ...(input.tlsPassphrase ? { passphrase: input.tlsPassphrase } : {}),
    };
  } else {
    if (!keyFile) throw badRequest('Give the key file too', { var_name: 'tlsKeyFile' });
    files = { certFile, keyFile };
  }
  try {
    loadOwnCertificate(files, ctx.now());
  } catch (err) {
    if (!(err instanceof TlsSetupError)) throw err;
    const aboutKey = keyFile !== undefined && err.message.includes(`TLS key ${keyFile}`);
    throw badRequest(err.message, { var_name: aboutKey ? 'tlsKeyFile' : 'tlsCertFile' });
  }
  return files;
}

/**
 * The owner's choice for a damaged certificate authority: set it aside and
 * make a new one (every device must then trust the new one). Under the
 * desktop app the server restarts on it at once.
 */
export function replaceCertificateAuthority(
  ctx: AppContext,
  actor: UserRow,
  desktop: DesktopHost | undefined,
): { keptAt: string; restartRequired: boolean } {
  requireRole(actor, 'owner');
  if (authorityProblem(ctx.config.dataDir, ctx.now()) === null) {
    throw badRequest(
      'The certificate authority is not damaged: devices that trust it keep working',
    );
  }
  const keptAt = setAsideAuthority(ctx.config.dataDir, ctx.now());
  ctx.log.warn(
    `The damaged certificate authority was moved to ${keptAt}; a new one is made at the next start`,
  );
  if (!desktop) return { keptAt, restartRequired: true };
  desktop.restartServer();
  return { keptAt, restartRequired: false };
}

/**
 * Saves the desktop's serving settings. Under the desktop app the server
 * restarts on them at once; a server started otherwise (the CLI, whose flags
 * decide) answers that a restart is needed.
 */
export function updateNetworkSettings(
  ctx: AppContext,
  actor: UserRow,
  input: NetworkSettingsInput,
  desktop: DesktopHost | undefined,
): { restartRequired: boolean } {
  requireRole(actor, 'owner');
  const settings: DesktopSettings = { lan: input.lan };
  if (input.interfaceAddress) {
    if (!lanInterfaces().some((i) => i.address === input.interfaceAddress)) {
      throw badRequest(`This computer has no network address ${input.interfaceAddress}`, {
        var_name: 'interfaceAddress',
      });
    }
    settings.interfaceAddress = input.interfaceAddress;
  }
  if (input.externalUrl) {
    try {
      settings.externalUrl = normalizeExternalUrl(input.externalUrl);
    } catch (err) {
      throw badRequest((err as Error).message, { var_name: 'externalUrl' });
    }
  }
  const own = ownCertificateInput(ctx, input);
  if (own) settings.tlsCertificate = own;
  const before = readDesktopSettings(ctx.config.dataDir);
  writeDesktopSettings(ctx.config.dataDir, settings);
  ctx.log.info(
    `Network settings saved: ${settings.lan ? `LAN (${settings.interfaceAddress ?? 'every interface'})` : 'this computer only'}${settings.externalUrl ? `, clients use ${settings.externalUrl}` : ''}${settings.tlsCertificate ? ', with the team’s own certificate' : ''}`,
  );
  if (!desktop) return { restartRequired: true };
  if (JSON.stringify(before) !== JSON.stringify(settings)) desktop.restartServer();
  return { restartRequired: false };
}
