/**
 * How this server is hosted: where it listens (the desktop's LAN settings),
 * the URLs clients use, its status under the desktop app, and its log.
 */
export { type FolderName, openFolder } from './folders.js';
export { lanInterfaces, type NetworkInterface } from './interfaces.js';
export { desktopListenChoice, type ListenChoice } from './listen.js';
export { DEFAULT_LOG_LINES, MAX_LOG_LINES, recentLogs } from './logs.js';
export {
  deviceSetupUrl,
  type NetworkOverview,
  type NetworkSettingsInput,
  networkOverview,
  qrCodeSvg,
  replaceCertificateAuthority,
  type TlsOverview,
  updateNetworkSettings,
} from './network.js';
export {
  DESKTOP_SETTINGS_FILE,
  type DesktopSettings,
  readDesktopSettings,
  writeDesktopSettings,
} from './settings.js';
export {
  type DesktopHost,
  type DesktopStatus,
  type ServerState,
  serverStatus,
  standaloneStatus,
} from './status.js';
