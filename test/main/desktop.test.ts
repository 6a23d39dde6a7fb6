/**
 * The Electron shell with a stand-in for the `electron` module (the binary is
 * not needed): the real server, bootstrap, router and trpc-electron's IPC
 * handler run as they would in the app.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: listeners of the stand-in take anything
type Listener = (...args: any[]) => unknown;

const electron = vi.hoisted(() => {
  class Emitter {
    readonly listeners = new Map<string, Listener[]>();
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, listener: Listener) {
      const wrapped: Listener = (...args) => {
        this.off(event, wrapped);
        return listener(...args);
      };
      return this.on(event, wrapped);
    }
    off(event: string, listener: Listener) {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== listener),
      );
      return this;
    }
    emit(event: string, ...args: unknown[]) {
      for (const listener of this.listeners.get(event) ?? []) listener(...args);
    }
  }

  const state = {
    userData: '',
    appPath: '',
    quitRequests: 0,
    /** Set when a quit went through (no before-quit listener prevented it). */
    quit: false,
  };

  let resolveReady: () => void = () => {};
  const readyPromise = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });

  class App extends Emitter {
    whenReady() {
      return readyPromise;
    }
    getPath(name: string) {
      if (name !== 'userData') throw new Error(`unexpected app.getPath(${name})`);
      return state.userData;
    }
    getAppPath() {
      return state.appPath;
    }
    requestSingleInstanceLock() {
      return true;
    }
    quit() {
      state.quitRequests++;
      let prevented = false;
      this.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) state.quit = true;
    }
  }

  let nextId = 1;
  class WebContents extends Emitter {
    readonly id = nextId++;
    openHandler: Listener | null = null;
    setWindowOpenHandler(handler: Listener) {
      this.openHandler = handler;
    }
  }

  const windows: BrowserWindow[] = [];
  class BrowserWindow extends Emitter {
    readonly webContents = new WebContents();
    loadedFile: string | null = null;
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    static getAllWindows() {
      return windows.filter((w) => !w.destroyed);
    }
    async loadFile(file: string) {
      this.loadedFile = file;
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    close() {
      this.destroyed = true;
      this.emit('closed');
      this.webContents.emit('destroyed');
    }
  }

  const ipcMain = new Emitter();
  const module = {
    app: new App(),
    BrowserWindow,
    ipcMain,
    dialog: { showErrorBox: vi.fn() },
    shell: { openExternal: vi.fn() },
    contextBridge: { exposeInMainWorld: vi.fn() },
    ipcRenderer: { send: vi.fn(), on: vi.fn() },
    Tray: class {},
    Menu: { buildFromTemplate: vi.fn() },
    nativeImage: { createFromPath: vi.fn() },
  };
  return { module, state, windows, ipcMain, resolveReady };
});

// main/index.ts imports `electron` as an ES module (vi.mock) and loads trpc-electron's
// CommonJS build, which calls require('electron'): both get the stand-in, and the
// real package (which would fetch the Electron binary) is never loaded.
vi.mock('electron', () => ({ ...electron.module, default: electron.module }));
function standInForRequire(): void {
  const requireFromMain = createRequire(new URL('../../main/index.ts', import.meta.url));
  const resolved = requireFromMain.resolve('electron');
  requireFromMain.cache[resolved] = {
    id: resolved,
    filename: resolved,
    loaded: true,
    exports: electron.module,
  } as NodeJS.Module;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHANNEL = 'trpc-electron';

type Shell = typeof import('../../main/index.js');
let shell: Shell;
let userData: string;

beforeAll(async () => {
  userData = mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-'));
  electron.state.userData = userData;
  electron.state.appPath = REPO;
  standInForRequire();
  shell = await import('../../main/index.js');
  // Nothing starts before Electron is ready.
  expect(shell.desktop.server()).toBeNull();
  electron.resolveReady();
  await shell.desktop.ready;
});

afterAll(async () => {
  await shell?.desktop.server()?.close();
  rmSync(userData, { recursive: true, force: true });
});

/** One request from the renderer over the stand-in IPC; resolves with the main process's reply. */
function ipcCall(type: 'query' | 'mutation', procedure: string, input?: unknown) {
  const [listener] = electron.ipcMain.listeners.get(CHANNEL) ?? [];
  if (!listener) throw new Error('no IPC handler on the trpc-electron channel');
  const id = Math.floor(Math.random() * 1e9);
  return new Promise<{
    data?: unknown;
    error?: { message: string; data: Record<string, unknown> };
  }>((resolve) => {
    const event = {
      sender: { id: electron.windows[0]!.webContents.id, isDestroyed: () => false },
      senderFrame: { routingId: 1 },
      reply: (
        channel: string,
        response: { id: number; result?: { data: never }; error?: never },
      ) => {
        expect(channel).toBe(CHANNEL);
        expect(response.id).toBe(id);
        if (response.error) resolve({ error: superjson.deserialize(response.error) });
        else resolve({ data: superjson.deserialize(response.result!.data) });
      },
    };
    listener(event, {
      method: 'request',
      operation: {
        id,
        type,
        path: procedure,
        input: input === undefined ? undefined : superjson.serialize(input),
        context: {},
      },
    });
  });
}

describe('on ready', () => {
  it('starts the server on the userData directory and answers the API', async () => {
    const server = shell.desktop.server()!;
    expect(server.dataDir).toBe(userData);
    expect(existsSync(path.join(userData, 'hearth.sqlite'))).toBe(true);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/v1/server_settings`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: 'success', realm_name: 'Hearth' });
  });

  it('ran the first-start bootstrap: the zuliprc it wrote works', async () => {
    const server = shell.desktop.server()!;
    const rc = Object.fromEntries(
      readFileSync(path.join(userData, 'zuliprc'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => line.split('=', 2) as [string, string]),
    );
    expect(rc.site).toBe(server.url);
    const me = await new ApiClient(server.url, { email: rc.email!, apiKey: rc.key! }).get(
      '/users/me',
    );
    expect(me.status).toBe(200);
    expect(me.body.is_owner).toBe(true);
  });

  it('prefers port 9991 and falls back to a free port when it is taken', async () => {
    // Whoever holds 9991 now (this shell, normally), a second server must move aside.
    const other = mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-2-'));
    const second = await shell.startServer(other);
    try {
      expect(second.port).not.toBe(shell.DESKTOP_PORT);
      // Listening (an empty data directory: no organization yet, so any endpoint will do).
      expect((await fetch(`${second.url}/api/v1/no_such_endpoint`)).status).toBe(404);
    } finally {
      await second.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('opens one sandboxed window with the preload, showing the built admin UI', () => {
    expect(electron.windows).toHaveLength(1);
    const win = electron.windows[0]!;
    expect(shell.desktop.window()).toBe(win);
    expect(win.options.webPreferences).toEqual({
      preload: path.join(REPO, 'dist', 'main', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(win.loadedFile).toBe(path.join(REPO, 'renderer', 'dist', 'index.html'));
    // Links leave for the browser instead of opening windows.
    expect(win.webContents.openHandler?.({ url: 'https://zulip.com/' })).toEqual({
      action: 'deny',
    });
    expect(electron.module.shell.openExternal).toHaveBeenCalledWith('https://zulip.com/');
  });
});

describe('the IPC handler', () => {
  it('is attached to the window', () => {
    expect(electron.ipcMain.listeners.get(CHANNEL)).toHaveLength(1);
    const contents = electron.windows[0]!.webContents;
    expect(contents.listeners.get('destroyed')).toHaveLength(1);
    expect(contents.listeners.get('did-start-navigation')).toHaveLength(1);
  });

  it('serves the app router acting as the organization owner', async () => {
    const info = await ipcCall('query', 'organization.info');
    expect(info.data).toMatchObject({
      name: 'Hearth',
      ownerEmail: 'owner@hearth.local',
      zuliprcPath: path.join(userData, 'zuliprc'),
      url: shell.desktop.server()!.url,
    });

    const created = await ipcCall('mutation', 'users.create', {
      email: 'desk@hearth.local',
      fullName: 'Desk Top',
      password: 'a desktop password',
    });
    expect(created.data).toEqual({ user_id: expect.any(Number) });
    const server = shell.desktop.server()!;
    const rc = readFileSync(path.join(userData, 'zuliprc'), 'utf8');
    const key = /key=(\S+)/.exec(rc)![1]!;
    const users = await new ApiClient(server.url, { email: 'owner@hearth.local', apiKey: key }).get(
      '/users',
    );
    expect(users.body.members.map((u: { full_name: string }) => u.full_name)).toContain('Desk Top');
  });

  it("passes the domain's errors with their Zulip code", async () => {
    const dup = await ipcCall('mutation', 'users.create', {
      email: 'desk@hearth.local',
      fullName: 'Again',
    });
    expect(dup.error).toMatchObject({
      message: "Email 'desk@hearth.local' already in use",
      data: { code: 'BAD_REQUEST', zulip: { code: 'BAD_REQUEST' } },
    });
  });
});

describe('quitting', () => {
  it('closes the server before the app exits', async () => {
    const server = shell.desktop.server()!;
    const url = `${server.url}/api/v1/server_settings`;
    expect((await fetch(url)).status).toBe(200);

    // Closing the last window quits (except on macOS), and quitting waits for the server.
    electron.windows[0]!.close();
    expect(shell.desktop.window()).toBeNull();
    electron.module.app.emit('window-all-closed');
    expect(electron.state.quit).toBe(process.platform === 'darwin');
    if (process.platform === 'darwin') electron.module.app.quit();

    await vi.waitFor(() => expect(electron.state.quit).toBe(true));
    expect(electron.state.quitRequests).toBe(2);
    expect(shell.desktop.server()).toBeNull();
    await expect(fetch(url)).rejects.toThrow();
  });
});
