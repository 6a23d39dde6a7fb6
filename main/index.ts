/**
 * The Electron main process: a thin shell around the headless server. It
 * starts the server on the user's data directory, runs the same first-start
 * bootstrap as the CLI, opens the admin window (tRPC over IPC, acting as the
 * organization owner) and closes the server cleanly on quit. No business logic
 * lives here: everything goes through server/.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { app, BrowserWindow, dialog, shell } from 'electron';
import type * as TrpcElectronMain from 'trpc-electron/main';
import { ensureOrganization } from '../server/bootstrap.js';
import { consoleLogger, createServer, type RunningServer } from '../server/index.js';
import { ownerContext } from '../server/trpc/context.js';
import { createAppRouter } from '../server/trpc/router.js';

// trpc-electron's ES build imports renderer-only names (contextBridge, ipcRenderer)
// from 'electron', which an ES-module main process cannot link (electron-trpc#180);
// its CommonJS build only reads them when used.
const { createIPCHandler } = createRequire(import.meta.url)(
  'trpc-electron/main',
) as typeof TrpcElectronMain;

/** Zulip clients remember the URL, so the desktop server keeps one port when it can. */
export const DESKTOP_PORT = 9991;

export async function startServer(dataDir: string): Promise<RunningServer> {
  const options = { dataDir, host: '127.0.0.1', log: consoleLogger };
  try {
    return await createServer({ ...options, port: DESKTOP_PORT });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    consoleLogger.warn(`port ${DESKTOP_PORT} is taken; using a free port instead`);
    return createServer({ ...options, port: 0 });
  }
}

/** Paths inside the app (the repository in development, app.asar once packaged). */
export const preloadPath = () => path.join(app.getAppPath(), 'dist', 'main', 'preload.cjs');
export const adminPagePath = () => path.join(app.getAppPath(), 'renderer', 'dist', 'index.html');

export interface Desktop {
  /** Settles once the server runs and the window is open (rejects if startup failed). */
  ready: Promise<void>;
  server(): RunningServer | null;
  window(): BrowserWindow | null;
}

export function runDesktop(): Desktop {
  let server: RunningServer | null = null;
  let window: BrowserWindow | null = null;
  let ipc: ReturnType<typeof createIPCHandler> | null = null;
  /** True once nothing is left to close (or nothing was ever started). */
  let stopped = false;
  let quitting = false;
  const router = createAppRouter();

  const openWindow = (running: RunningServer): BrowserWindow => {
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
    // The window only ever shows the admin UI; links open in the user's browser.
    win.webContents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event) => event.preventDefault());
    if (ipc) ipc.attachWindow(win);
    else {
      ipc = createIPCHandler({
        router,
        windows: [win],
        createContext: async () => ownerContext(running.ctx, running.zuliprcPath),
      });
    }
    win.on('closed', () => {
      if (window === win) window = null;
    });
    window = win;
    void win.loadFile(adminPagePath());
    return win;
  };

  const start = async () => {
    const running = await startServer(app.getPath('userData'));
    server = running;
    const boot = await ensureOrganization(running, { demo: false });
    if (boot.created) {
      consoleLogger.info(`Created a new organization; owner ${boot.ownerEmail}`);
    }
    if (boot.zuliprcPath) consoleLogger.info(`Owner credentials: ${boot.zuliprcPath}`);
    consoleLogger.info(`Hearth listening on ${running.url}`);
    openWindow(running);
  };

  const shutdown = async () => {
    const running = server;
    server = null;
    stopped = true;
    await running?.close();
  };

  if (!app.requestSingleInstanceLock()) {
    // Another Hearth owns the data directory; it gets focus (see 'second-instance').
    stopped = true;
    app.quit();
    return { ready: Promise.resolve(), server: () => null, window: () => null };
  }

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  // On macOS the app (and the chat server) keeps running without windows.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (server && BrowserWindow.getAllWindows().length === 0) openWindow(server);
  });

  const ready = app.whenReady().then(start);
  ready.catch((err: unknown) => {
    consoleLogger.error('Hearth could not start', err);
    dialog.showErrorBox('Hearth could not start', err instanceof Error ? err.message : String(err));
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
      .then(shutdown)
      .catch((err: unknown) => consoleLogger.error('closing the server failed', err))
      .finally(() => app.quit());
  });

  return { ready, server: () => server, window: () => window };
}

export const desktop = runDesktop();
