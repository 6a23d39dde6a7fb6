import type { OwnCertificateFiles } from '../tls/index.js';
import { lanInterfaces, type NetworkInterface } from './interfaces.js';
import type { DesktopSettings } from './settings.js';

export interface ListenChoice {
  host: string;
  externalUrl?: string;
  /** The team's own certificate for the LAN (LAN mode only). */
  tlsCertificate?: OwnCertificateFiles;
  /** Why the saved settings could not be followed as they are, if so. */
  warning?: string;
}

/**
 * Where the desktop's server listens: this machine only, every interface, or
 * the chosen interface. A chosen address the machine no longer has (another
 * network, a new DHCP lease) falls back to this machine only: listening would
 * fail, and widening to every interface is not what the user chose.
 */
export function desktopListenChoice(
  settings: DesktopSettings,
  interfaces: NetworkInterface[] = lanInterfaces(),
): ListenChoice {
  const externalUrl = settings.externalUrl ? { externalUrl: settings.externalUrl } : {};
  if (!settings.lan) return { host: '127.0.0.1', ...externalUrl };
  const own = settings.tlsCertificate ? { tlsCertificate: settings.tlsCertificate } : {};
  const chosen = settings.interfaceAddress;
  if (!chosen) return { host: '0.0.0.0', ...externalUrl, ...own };
  if (interfaces.some((i) => i.address === chosen)) return { host: chosen, ...externalUrl, ...own };
  return {
    host: '127.0.0.1',
    ...externalUrl,
    warning: `The network address ${chosen} is gone; serving this machine only until another is chosen`,
  };
}
