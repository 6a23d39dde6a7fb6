/**
 * The Electron shell: a window, a tray icon, and the server in its own
 * process (see server-supervisor.ts). The window opens at once on the admin
 * page (a file: it never waits on the server, and it holds the first-run
 * wizard), then shows the chat (the server's `/`) once the server runs and
 * the organization exists. Closing it leaves the server serving; quitting
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
import superjson, { type SuperJSONResult } from 'superjson';
import { defaultDataDir } from '../server/data-dir.js';
import type { DesktopStatus } from '../server/hosting/index.js';
import { SERVER_NODE_FLAGS } from '../server/node-flags.js';
import type { DataDirHolder } from './server-messages.js';
import { type ServerChild, ServerSupervisor, type SupervisorOptions } from './server-supervisor.js';
import { createTray } from './tray.js';
import { bridgeTrpc } from './trpc-bridge.js';
import { readUiState, writeUiState } from './ui-state.js';
import { type Destination, destinationOf, isAdminPage } from './window-navigation.js';

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
  /** What the window shows (or is loading): the admin page or the chat. */
  view(): WindowView | null;
}

export type WindowView = 'admin' | 'chat';

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
      view: () => null,
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

  /** What the window shows; `wantsChat` until it has shown the chat or the user chose the admin. */
  let view: WindowView = 'admin';
  let wantsChat = false;
  /** The server URL the chat was loaded from (reloaded when the server moves). */
  let chatLoadedFrom: string | null = null;
  let nextQueryId = 1;
  /**
   * The server that already served the data directory when ours was refused
   * (the CLI, say), while the window shows its chat instead of ours.
   */
  let otherServer: { localUrl: string; url: string } | null = null;

  const places = () => ({
    adminPagePath: adminPagePath(),
    localUrl: supervisor?.localUrl() ?? otherServer?.localUrl ?? null,
    clientUrl: supervisor?.status().url ?? otherServer?.url ?? null,
  });

  const showAdmin = (win: BrowserWindow) => {
    view = 'admin';
    wantsChat = false;
    chatLoadedFrom = null;
    void win.loadFile(adminPagePath());
  };

  const showChat = (win: BrowserWindow, url?: string) => {
    const local = places().localUrl;
    if (!local) return;
    view = 'chat';
    wantsChat = false;
    chatLoadedFrom = local;
    void win.loadURL(url ?? `${local}/`);
  };

  /** Whether the organization exists (else the admin page's wizard is where to be). */
  const organizationExists = async (): Promise<boolean> => {
    if (!supervisor) return false;
    const response = await supervisor.call({
      id: `main-${nextQueryId++}`,
      type: 'query',
      path: 'setup.status',
    });
    if (!('result' in response)) return false;
    const data = superjson.deserialize(response.result.data as SuperJSONResult) as {
      needsSetup: boolean;
    };
    return !data.needsSetup;
  };

  /** Shows the chat in the window once the server runs and the organization exists. */
  const chatWhenReady = async () => {
    const win = window;
    if (!win || win.isDestroyed() || supervisor?.status().state !== 'running') return;
    if (!(await organizationExists())) return;
    if (window === win && !win.isDestroyed() && wantsChat) showChat(win);
  };

  /** Follows a link or navigation from either page: loads, downloads, hands off or refuses. */
  const follow = (win: BrowserWindow, destination: Destination) => {
    switch (destination.kind) {
      case 'chat':
        showChat(win, destination.url);
        break;
      case 'admin':
        showAdmin(win);
        break;
      case 'download':
        win.webContents.downloadURL(destination.url);
        break;
      case 'external':
        void shell.openExternal(destination.url);
        break;
      case 'blocked':
        break;
    }
  };

  const openWindow = (initial: WindowView): BrowserWindow => {
    const win = new BrowserWindow({
      width: 1120,
      height: 780,
      minWidth: 360,
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
    // No page opens windows of its own: each link goes where destinationOf says.
    win.webContents.setWindowOpenHandler(({ url }) => {
      follow(win, destinationOf(url, places()));
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event, url: string) => {
      const destination = destinationOf(url, places());
      // The chat's own page, at the address it already has: let it load.
      if (destination.kind === 'chat' && destination.url === url) {
        view = 'chat';
        return;
      }
      event.preventDefault();
      follow(win, destination);
    });
    win.on('close', () => {
      if (!quitting) showCloseNotice();
    });
    win.on('closed', () => {
      windowContents.delete(contentsId);
      if (window === win) window = null;
    });
    window = win;
    showAdmin(win);
    wantsChat = initial === 'chat';
    if (wantsChat) void chatWhenReady();
    return win;
  };

  const showWindow = (wanted?: WindowView) => {
    if (quitting) return;
    if (!window || window.isDestroyed()) {
      openWindow(wanted ?? 'chat');
      return;
    }
    if (wanted === 'admin' && view !== 'admin') showAdmin(window);
    if (wanted === 'chat' && view !== 'chat') {
      wantsChat = true;
      void chatWhenReady();
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  /** Shows the chat of the server that holds the data directory, in our window. */
  const showOtherServer = (other: { localUrl: string; url: string }) => {
    otherServer = other;
    const win = window && !window.isDestroyed() ? window : openWindow('admin');
    view = 'chat';
    wantsChat = false;
    chatLoadedFrom = other.localUrl;
    void win.loadURL(`${other.localUrl}/`);
    win.show();
    win.focus();
  };

  /**
   * Another server serves the data directory (one organization, one server):
   * offer to use it in this window, or quit. Its chat works as ours would;
   * the admin page needs this app's own server and stays unavailable.
   */
  const onDataDirInUse = async (holder: DataDirHolder | null) => {
    if (quitting) return;
    const where = holder?.url
      ? `at ${holder.url} (process ${holder.pid})`
      : holder
        ? `(process ${holder.pid}, still starting)`
        : '';
    const open = holder?.localUrl ? { localUrl: holder.localUrl, url: holder.url ?? '' } : null;
    const options = {
      type: 'question' as const,
      title: 'Hearth is already running',
      message: 'Another Hearth server is already serving this organization',
      detail:
        `A Hearth server ${where} already uses ${dataDir}, so this app cannot start its own. ` +
        (open
          ? 'Open its chat in this window, or quit.'
          : 'Try again once it has started, or quit.'),
      buttons: [open ? 'Open its chat' : 'Try again', 'Quit'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    };
    const { response } =
      window && !window.isDestroyed()
        ? await dialog.showMessageBox(window, options)
        : await dialog.showMessageBox(options);
    if (quitting) return;
    if (response !== 0) app.quit();
    else if (open) showOtherServer(open);
    else void supervisor?.restart();
  };

  const onStatus = (status: DesktopStatus) => {
    tray?.update(status);
    if (status.state !== 'running' || !window || window.isDestroyed()) return;
    otherServer = null;
    if (wantsChat) void chatWhenReady();
    // The server moved (new network settings, another port): follow it.
    else if (view === 'chat' && chatLoadedFrom !== supervisor?.localUrl()) showChat(window);
  };

  const start = () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    supervisor = new ServerSupervisor({
      entry: serverEntryPath(),
      fork: (entry, args) =>
        utilityProcess.fork(entry, args, {
          serviceName: 'Hearth server',
          stdio: 'inherit',
          execArgv: [...SERVER_NODE_FLAGS],
        }) as unknown as ServerChild,
      dataDir,
      preferredPort: DESKTOP_PORT,
      log,
      openPath: (folder) => shell.openPath(folder),
      ...options.supervisor,
    });
    const running = supervisor;
    running.on('status', onStatus);
    running.on('in-use', (holder) => void onDataDirInUse(holder));
    bridgeTrpc(
      ipcMain,
      async (operation) => {
        const response = await running.call(operation);
        // The wizard is done: the organization exists, so the chat is where to be.
        if (operation.path === 'setup.complete' && 'result' in response) {
          setTimeout(() => {
            if (window && !window.isDestroyed() && view === 'admin') {
              wantsChat = true;
              void chatWhenReady();
            }
          }, 0);
        }
        return response;
      },
      (event) =>
        windowContents.has(event.sender.id) && isAdminPage(event.senderFrame?.url, adminPagePath()),
    );
    tray = createTray(running.status(), {
      copyUrl: () => {
        const { url } = running.status();
        if (url) clipboard.writeText(url);
      },
      showWindow: () => showWindow(),
      openAdmin: () => showWindow('admin'),
      openChat: () => showWindow('chat'),
      restartServer: () => void running.restart(),
      quit: () => app.quit(),
    });
    running.start();
    openWindow('chat');
  };

  app.on('second-instance', () => showWindow());
  // The server keeps serving with no window open; the tray's Quit ends it.
  app.on('window-all-closed', () => {});
  app.on('activate', () => showWindow());

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
    view: () => (window ? view : null),
  };
}
