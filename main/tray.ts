/**
 * The tray (menu-bar) icon: the server's state, URL and certificate
 * fingerprint, and what a user does
 * while no window is open.
 */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { DesktopStatus } from '../server/hosting/index.js';
import { TRAY_ICON_COLOR, TRAY_ICON_TEMPLATE } from './tray-icon.js';

export interface TrayActions {
  copyUrl(): void;
  /** Brings the window back as it was (opening it on the chat if none is open). */
  showWindow(): void;
  openAdmin(): void;
  openChat(): void;
  restartServer(): void;
  quit(): void;
}

const STATE_LABEL: Record<DesktopStatus['state'], string> = {
  starting: 'Starting…',
  running: 'Running',
  restarting: 'Restarting…',
  stopped: 'Stopped',
};

export function statusLine(status: DesktopStatus): string {
  const state = STATE_LABEL[status.state];
  return status.state === 'running' && status.url ? `${state} at ${status.url}` : state;
}

export function trayMenuTemplate(
  status: DesktopStatus,
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const fallback = status.portFallback
    ? [{ label: `Port ${status.preferredPort} was taken; using ${status.port}`, enabled: false }]
    : [];
  // Read out when a device asks to trust the server: the same on both screens, or no trust.
  const fingerprint =
    status.state === 'running' && status.tlsFingerprint
      ? [
          {
            id: 'tls-fingerprint',
            label: `Certificate SHA-256: ${status.tlsFingerprint}`,
            enabled: false,
          },
        ]
      : [];
  const failure =
    status.state !== 'running' && status.lastError
      ? [{ label: status.lastError.slice(0, 120), enabled: false }]
      : [];
  return [
    { id: 'status', label: `Hearth: ${statusLine(status)}`, enabled: false },
    ...fallback,
    ...fingerprint,
    ...failure,
    { type: 'separator' },
    { id: 'copy-url', label: 'Copy URL', enabled: status.url !== null, click: actions.copyUrl },
    // The chat needs the server; the admin page (and the first-run wizard) does not.
    {
      id: 'open-chat',
      label: 'Open chat',
      enabled: status.state === 'running',
      click: actions.openChat,
    },
    { id: 'open-admin', label: 'Open admin', click: actions.openAdmin },
    ...(status.state === 'stopped'
      ? [{ id: 'restart', label: 'Restart server', click: actions.restartServer }]
      : []),
    { type: 'separator' },
    { id: 'quit', label: 'Quit Hearth', click: actions.quit },
  ];
}

export function createTray(status: DesktopStatus, actions: TrayActions) {
  const mac = process.platform === 'darwin';
  let icon = nativeImage.createFromDataURL(mac ? TRAY_ICON_TEMPLATE : TRAY_ICON_COLOR);
  if (mac) {
    icon = icon.resize({ width: 16, height: 16 });
    icon.setTemplateImage(true);
  }
  const tray = new Tray(icon);
  const update = (next: DesktopStatus) => {
    tray.setToolTip(`Hearth: ${statusLine(next)}`);
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(next, actions)));
  };
  update(status);
  // Windows and Linux users expect a click on the icon to bring the window back.
  if (!mac) tray.on('click', actions.showWindow);
  return { tray, update };
}
