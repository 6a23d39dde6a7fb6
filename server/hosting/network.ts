import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import {
  isLoopbackHost,
  isWildcardHost,
  normalizeExternalUrl,
  urlHost,
} from '../shared/network.js';
import { requireRole } from '../shared/roles.js';
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
  /**
   * The desktop app runs this server and restarts it on the saved settings;
   * false for a server started otherwise (`npm start`), whose command line
   * decides where it listens whatever is saved here.
   */
  followsSettings: boolean;
}

/**
 * The running server's client URLs: the given external URL alone, else the
 * URL it announces (realm_url) followed, when it listens on every interface,
 * by each of the machine's other reachable addresses.
 */
function clientUrls(ctx: AppContext, interfaces: NetworkInterface[]): string[] {
  const { config } = ctx;
  if (config.givenExternalUrl || !isWildcardHost(config.host)) return [config.externalUrl];
  const others = interfaces
    .filter((i) => config.host !== '0.0.0.0' || i.family === 'IPv4')
    .map((i) => `http://${urlHost(i.address)}:${config.port}`);
  return [...new Set([config.externalUrl, ...others])];
}

/** The QR encoder loads at the first code asked for, not at start-up. */
async function qrCodeSvg(url: string): Promise<string> {
  const { renderSVG } = await import('uqr');
  return renderSVG(url, { ecc: 'M', border: 1 });
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
    host: ctx.config.host,
    port: ctx.config.port,
    urls,
    interfaces,
    qrSvg: await qrCodeSvg(main),
    clearTextWarning: !isLoopbackHost(ctx.config.host) && !main.startsWith('https:'),
    followsSettings: desktop !== undefined,
  };
}

export interface NetworkSettingsInput {
  lan: boolean;
  /** null or '' clears it (every interface). */
  interfaceAddress?: string | null;
  /** null or '' clears it (derived from the address). */
  externalUrl?: string | null;
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
  const before = readDesktopSettings(ctx.config.dataDir);
  writeDesktopSettings(ctx.config.dataDir, settings);
  ctx.log.info(
    `Network settings saved: ${settings.lan ? `LAN (${settings.interfaceAddress ?? 'every interface'})` : 'this computer only'}${settings.externalUrl ? `, clients use ${settings.externalUrl}` : ''}`,
  );
  if (!desktop) return { restartRequired: true };
  if (JSON.stringify(before) !== JSON.stringify(settings)) desktop.restartServer();
  return { restartRequired: false };
}
