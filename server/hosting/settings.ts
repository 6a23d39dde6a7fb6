import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { OwnCertificateFiles } from '../tls/index.js';

/** The desktop app's serving settings, in the data directory beside the database. */
export const DESKTOP_SETTINGS_FILE = 'desktop-settings.json';

export interface DesktopSettings {
  /** Serve the LAN (every interface, or `interfaceAddress`) rather than this machine only. */
  lan: boolean;
  /** The one interface address to listen on in LAN mode; absent: all of them. */
  interfaceAddress?: string;
  /** The URL clients use when it is not http://HOST:PORT (a proxy, a name). */
  externalUrl?: string;
  /** The team's own certificate for the LAN, instead of the installation's authority. */
  tlsCertificate?: OwnCertificateFiles;
}

export const defaultDesktopSettings: DesktopSettings = { lan: false };

const storedCertificate = z.union([
  z.object({ certFile: z.string().min(1), keyFile: z.string().min(1) }),
  z.object({ pfxFile: z.string().min(1), passphrase: z.string().optional() }),
]);

const stored = z.object({
  lan: z.boolean().catch(false),
  interfaceAddress: z.string().min(1).optional().catch(undefined),
  externalUrl: z.string().min(1).optional().catch(undefined),
  tlsCertificate: storedCertificate.optional().catch(undefined),
});

export const desktopSettingsPath = (dataDir: string) => path.join(dataDir, DESKTOP_SETTINGS_FILE);

/**
 * The saved settings; a missing or damaged file means the defaults (serving
 * this machine only), so a bad edit can never expose the server.
 */
export function readDesktopSettings(dataDir: string): DesktopSettings {
  const file = desktopSettingsPath(dataDir);
  if (!existsSync(file)) return { ...defaultDesktopSettings };
  try {
    const parsed = stored.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return { ...defaultDesktopSettings };
    const { lan, interfaceAddress, externalUrl, tlsCertificate } = parsed.data;
    return {
      lan,
      ...(interfaceAddress ? { interfaceAddress } : {}),
      ...(externalUrl ? { externalUrl } : {}),
      ...(tlsCertificate ? { tlsCertificate } : {}),
    };
  } catch {
    return { ...defaultDesktopSettings };
  }
}

/** Replaces the file atomically (a crash mid-write leaves the old settings). */
export function writeDesktopSettings(dataDir: string, settings: DesktopSettings): void {
  const file = desktopSettingsPath(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
