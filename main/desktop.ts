/**
 * The Electron shell: a window for the admin UI, a tray icon, and the server
 * in its own process (see server-supervisor.ts). The window opens at once and
 * never waits on the server; closing it leaves the server serving; quitting
 * stops the server cleanly. No business logic lives here.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Notification,
  shell,
  type Tray,
  utilityProcess,
} from 'electron';
import { defaultDataDir } from '../server/data-dir.js';
import type { DesktopStatus } from '../server/hosting/index.js';
import { type ServerChild, ServerSupervisor, type SupervisorOptions } from './server-supervisor.js';
import { createTray } from './tray.js';
import { bridgeTrpc } from './trpc-bridge.js';
import { readUiState, writeUiState } from './ui-state.js';

/** Zulip clients remember the URL, so the desktop server keeps one port when it can. */
export const DESKTOP_PORT = 9991;

/** Paths inside the app (the repository in development, app.asar once packaged). */
export const preloadPath = () => path.join(app.getAppPath(), 'dist', 'main', 'preload.cjs');
export const adminPagePath = () => path.join(app.getAppPath(), 'renderer', 'dist', 'index.html');

/** The server process's entry, beside this file (.js once built, .ts under tsx). */
export const serverEntryPath = () => {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), `server-process${path.extname(here)}`);
};

/**
 * The CLI's data directory (HEARTH_DATA_DIR, else the OS's per-user default),
 * so the app and `npm start` share one organization.
 */
export const desktopDataDir = () =>
  process.env.HEARTH_DATA_DIR ? path.resolve(process.env.HEARTH_DATA_DIR) : defaultDataDir();

export interface DesktopOptions {
  /** Tuning for tests (backoff, timeouts); entry, fork and paths have defaults. */
  supervisor?: Partial<SupervisorOptions>;
}

export interface Desktop {
  /** Settles once Electron is ready, the window is open and the server is starting. */
  ready: Promise<void>;
  dataDir: string;
  supervisor(): ServerSupervisor | null;
  window(): BrowserWindow | null;
  tray(): Tray | null;
}

const log = (message: string) => console.log(`[hearth] ${message}`);

export function runDesktop(options: DesktopOptions = {}): Desktop {
  const dataDir = desktopDataDir();
  let supervisor: ServerSupervisor | null = null;
  let window: BrowserWindow | null = null;
  let tray: ReturnType<typeof createTray> | null = null;
  const windowContents = new Set<number>();
  /** True once nothing is left to stop (or nothing was ever started). */
  let stopped = false;
  let quitting = false;

  if (!app.requestSingleInstanceLock()) {
    // Another Hearth owns the data directory; it shows its window (see 'second-instance').
    stopped = true;
    app.quit();
    return {
      ready: Promise.resolve(),
      dataDir,
      supervisor: () => null,
      window: () => null,
      tray: () => null,
    };
  }

  const showCloseNotice = () => {
    if (readUiState(dataDir).closeNoticeShown) return;
    writeUiState(dataDir, { closeNoticeShown: true });
    const where = process.platform === 'darwin' ? 'menu bar' : 'tray';
    const body = `Hearth keeps serving your organization. Open the admin or quit from the Hearth icon in the ${where}.`;
    if (Notification.isSupported()) {
      new Notification({ title: 'Hearth is still running', body }).show();
    } else {
      void dialog.showMessageBox({
        type: 'info',
        message: 'Hearth is still running',
        detail: body,
      });
    }
  };

  const openWindow = (): BrowserWindow => {
    const win = new BrowserWindow({
      width: 1120,
      height: 780,
      minWidth: 720,
      minHeight: 480,
      title: 'Hearth',
      backgroundColor: '#f6f5f2',
      webPreferences: {
        preload: preloadPath(),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
      },
    });
    const contentsId = win.webContents.id;
    windowContents.add(contentsId);
    // The window only ever shows the admin UI; links open in the user's browser.
    win.webContents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event) => event.preventDefault());
    win.on('close', () => {
      if (!quitting) showCloseNotice();
    });
    win.on('closed', () => {
      windowContents.delete(contentsId);
      if (window === win) window = null;
    });
    window = win;
    void win.loadFile(adminPagePath());
    return win;
  };

  const showWindow = () => {
    if (quitting) return;
    if (!window || window.isDestroyed()) {
      openWindow();
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const onStatus = (status: DesktopStatus) => tray?.update(status);

  const start = () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    supervisor = new ServerSupervisor({
      entry: serverEntryPath(),
      fork: (entry, args) =>
        utilityProcess.fork(entry, args, {
          serviceName: 'Hearth server',
          stdio: 'inherit',
        }) as unknown as ServerChild,
      dataDir,
      preferredPort: DESKTOP_PORT,
      log,
      openPath: (folder) => shell.openPath(folder),
      ...options.supervisor,
    });
    const running = supervisor;
    running.on('status', onStatus);
    bridgeTrpc(
      ipcMain,
      (operation) => running.call(operation),
      (id) => windowContents.has(id),
    );
    tray = createTray(running.status(), {
      copyUrl: () => {
        const { url } = running.status();
        if (url) clipboard.writeText(url);
      },
      openAdmin: showWindow,
      openChat: () => {
        const { url } = running.status();
        if (url) void shell.openExternal(`${url}/`);
      },
      restartServer: () => void running.restart(),
      quit: () => app.quit(),
    });
    running.start();
    openWindow();
  };

  app.on('second-instance', showWindow);
  // The server keeps serving with no window open; the tray's Quit ends it.
  app.on('window-all-closed', () => {});
  app.on('activate', showWindow);

  const ready = app.whenReady().then(start);
  ready.catch((err: unknown) => {
    console.error('Hearth could not start', err);
    dialog.showErrorBox('Hearth could not start', err instanceof Error ? err.message : String(err));
    stopped = true;
    app.quit();
  });

  // Quit waits for the server: long-polls are answered and the database is closed.
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    void ready
      .catch(() => {})
      .then(() => supervisor?.stop())
      .catch((err: unknown) => console.error('stopping the server failed', err))
      .finally(() => {
        stopped = true;
        tray?.tray.destroy();
        app.quit();
      });
  });

  return {
    ready,
    dataDir,
    supervisor: () => supervisor,
    window: () => window,
    tray: () => tray?.tray ?? null,
  };
}
