/**
 * A stand-in for the `electron` module (its binary is not installed here):
 * enough of app, BrowserWindow, ipcMain, Tray, Menu, clipboard, Notification
 * and utilityProcess for the shell to run as it would in the app. The server
 * process is real: utilityProcess.fork runs it with Node (and tsx), speaking
 * over Node's IPC with structured clone, as Electron's message port does.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: listeners of the stand-in take anything
type Listener = (...args: any[]) => unknown;

export const state = {
  appPath: '',
  singleInstanceLock: true,
  quitRequests: 0,
  /** Set when a quit went through (no before-quit listener prevented it). */
  quit: false,
};

class App extends EventEmitter {
  private resolveReady: () => void = () => {};
  private readonly readyPromise = new Promise<void>((resolve) => {
    this.resolveReady = resolve;
  });
  whenReady() {
    return this.readyPromise;
  }
  /** What Electron does once it has initialized. */
  becomeReady() {
    this.resolveReady();
  }
  getPath(name: string): string {
    throw new Error(`app.getPath(${name}): Hearth uses the CLI's data directory`);
  }
  getAppPath() {
    return state.appPath;
  }
  requestSingleInstanceLock() {
    return state.singleInstanceLock;
  }
  quit() {
    state.quitRequests++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) state.quit = true;
  }
}

let nextContentsId = 1;
export class WebContents extends EventEmitter {
  readonly id = nextContentsId++;
  openHandler: Listener | null = null;
  destroyed = false;
  downloads: string[] = [];
  setWindowOpenHandler(handler: Listener) {
    this.openHandler = handler;
  }
  downloadURL(url: string) {
    this.downloads.push(url);
  }
  /**
   * What Electron does when the page itself navigates (a link, a form,
   * `location.href = …`): asks will-navigate; true when nobody prevented it.
   */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    if (!prevented) this.onNavigated(url);
    return !prevented;
  }
  /** Set by the window: the page it shows is now `url`. */
  onNavigated: (url: string) => void = () => {};
  isDestroyed() {
    return this.destroyed;
  }
}

export const windows: BrowserWindow[] = [];
export class BrowserWindow extends EventEmitter {
  readonly webContents = new WebContents();
  loadedFile: string | null = null;
  /** The page last loaded by URL (loadURL), null after a loadFile. */
  loadedUrl: string | null = null;
  destroyed = false;
  focused = 0;
  constructor(readonly options: Record<string, unknown>) {
    super();
    windows.push(this);
    this.webContents.onNavigated = (url) => {
      this.loadedUrl = url;
      this.loadedFile = null;
    };
  }
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed);
  }
  async loadFile(file: string) {
    this.loadedFile = file;
    this.loadedUrl = null;
  }
  async loadURL(url: string) {
    this.loadedUrl = url;
    this.loadedFile = null;
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  show() {}
  focus() {
    this.focused++;
  }
  /** The user closes the window (Electron emits close, then closed). */
  close() {
    this.emit('close', { preventDefault: () => {} });
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
    this.webContents.emit('destroyed');
  }
}

export const trays: Tray[] = [];
export class Tray extends EventEmitter {
  tooltip = '';
  menu: MenuTemplateItem[] = [];
  destroyed = false;
  constructor(readonly image: unknown) {
    super();
    trays.push(this);
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: MenuTemplateItem[]) {
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
  /** The menu item with this id. */
  item(id: string): MenuTemplateItem {
    const found = this.menu.find((i) => i.id === id);
    if (!found) throw new Error(`no tray menu item ${id}`);
    return found;
  }
}

export interface MenuTemplateItem {
  id?: string;
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
}

export const notifications: Array<{ title: string; body: string; shown: boolean }> = [];
class Notification {
  readonly record: { title: string; body: string; shown: boolean };
  constructor(options: { title: string; body: string }) {
    this.record = { ...options, shown: false };
    notifications.push(this.record);
  }
  static isSupported() {
    return true;
  }
  show() {
    this.record.shown = true;
  }
}

/** Electron's UtilityProcess, over a Node child process. */
export class UtilityProcess extends EventEmitter {
  readonly child: ChildProcess;
  constructor(entry: string, args: string[], options: { execArgv?: string[] } = {}) {
    super();
    this.child = fork(entry, args, {
      execArgv: [
        ...(options.execArgv ?? []),
        ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []),
      ],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('exit', (code) => this.emit('exit', code ?? 1));
  }
  get pid() {
    return this.child.pid;
  }
  postMessage(message: unknown) {
    if (this.child.connected) this.child.send(message as never);
  }
  kill() {
    return this.child.kill('SIGTERM');
  }
}

export const forked: UtilityProcess[] = [];

export const ipcMain = new EventEmitter();

const image = {
  resize: () => image,
  setTemplateImage: vi.fn(),
};

export const electron = {
  app: new App(),
  BrowserWindow,
  ipcMain,
  Tray,
  Notification,
  Menu: { buildFromTemplate: (template: MenuTemplateItem[]) => template },
  nativeImage: { createFromDataURL: vi.fn(() => image), createFromPath: vi.fn(() => image) },
  clipboard: { writeText: vi.fn() },
  dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(async () => ({ response: 0 })) },
  shell: { openExternal: vi.fn(), openPath: vi.fn(async (_folder: string) => '') },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { send: vi.fn(), on: vi.fn() },
  utilityProcess: {
    fork: vi.fn((entry: string, args: string[], options?: { execArgv?: string[] }) => {
      const child = new UtilityProcess(entry, args, options);
      forked.push(child);
      return child;
    }),
  },
};
