import { X509Certificate } from 'node:crypto';
/**
 * The Electron shell with a stand-in for the `electron` module: the window,
 * the tray and the IPC bridge in this process, the real server in a forked
 * process (server-process.ts under tsx), as in the app.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildPreload } from '../../main/build.js';
import { parseCliOptions } from '../../server/cli.js';
import { defaultDataDir } from '../../server/data-dir.js';
import type { DesktopStatus } from '../../server/hosting/index.js';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { ApiClient } from '../helpers/server.js';
import { adminPage, type CallResult, type PageSender } from './admin-page.js';
import * as standIn from './electron-stand-in.js';

vi.mock('electron', async () => {
  const { electron } = await import('./electron-stand-in.js');
  return { ...electron, default: electron };
});

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN_PAGE = path.join(REPO, 'renderer', 'dist', 'index.html');
/** The admin page's URL as its frame reports it (the router's route in the hash). */
const ADMIN_FRAME_URL = `${pathToFileURL(ADMIN_PAGE).href}#/users`;
const { electron, state, windows, trays, notifications, forked } = standIn;

type Shell = typeof import('../../main/desktop.js');
let shell: Shell;
let desktop: ReturnType<Shell['runDesktop']>;
let dataDir: string;
let preloadFile: string;
/** Holds 9991 (if nobody else does) so that the fallback is always exercised. */
let blocker: net.Server | null = null;

const status = (): DesktopStatus => desktop.supervisor()!.status();
const running = () => vi.waitFor(() => expect(status().state).toBe('running'), { timeout: 30_000 });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-'));
  preloadFile = await buildPreload(
    path.join(dataDir, '..', `${path.basename(dataDir)}-preload.cjs`),
  );
  process.env.HEARTH_DATA_DIR = dataDir;
  state.appPath = REPO;
  blocker = await new Promise<net.Server | null>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(9991, '127.0.0.1', () => resolve(server));
  });
  shell = await import('../../main/desktop.js');
  desktop = shell.runDesktop({
    supervisor: { initialDelayMs: 50, stopTimeoutMs: 10_000, stableAfterMs: 60_000 },
  });
  // Nothing starts before Electron is ready.
  expect(desktop.supervisor()).toBeNull();
  expect(windows).toHaveLength(0);
  electron.app.becomeReady();
  await desktop.ready;
}, 60_000);

afterAll(async () => {
  await desktop?.supervisor()?.stop();
  for (const child of forked) child.child.kill('SIGKILL');
  blocker?.close();
  delete process.env.HEARTH_DATA_DIR;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(preloadFile, { force: true });
});

/** The admin page in a window, cached by sender and frame URL: each has its own preload run. */
const pages = new Map<string, ReturnType<typeof adminPage>>();

/** One call from a page over the stand-in IPC; resolves with the main process's answer. */
function ipcCall(
  type: 'query' | 'mutation',
  procedure: string,
  input?: unknown,
  sender: PageSender = desktop.window()!.webContents,
  frameUrl = ADMIN_FRAME_URL,
): Promise<CallResult> {
  const key = `${sender.id} ${frameUrl}`;
  let page = pages.get(key);
  if (!page) {
    page = adminPage(preloadFile, electron.ipcMain, sender, frameUrl);
    pages.set(key, page);
  }
  return page(type, procedure, input);
}

describe('on ready', () => {
  it('opens the window at once, without waiting for the server', () => {
    expect(windows).toHaveLength(1);
    const win = windows[0]!;
    expect(desktop.window()).toBe(win);
    expect(win.options.webPreferences).toEqual({
      preload: path.join(REPO, 'dist', 'main', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    // The admin page first: it needs no server, and it holds the first-run wizard.
    expect(win.loadedFile).toBe(ADMIN_PAGE);
    expect(desktop.view()).toBe('admin');
    expect(win.webContents.openHandler?.({ url: 'https://zulip.com/' })).toEqual({
      action: 'deny',
    });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://zulip.com/');
    // The server is a separate process, forked from the built entry's source here.
    expect(electron.utilityProcess.fork).toHaveBeenCalledTimes(1);
    expect(electron.utilityProcess.fork.mock.calls[0]![0]).toBe(
      path.join(REPO, 'main', 'server-process.ts'),
    );
    // With the V8 flags `npm start` gives the server (server/node-flags.ts).
    expect(electron.utilityProcess.fork.mock.calls[0]![2]).toMatchObject({
      execArgv: SERVER_NODE_FLAGS,
    });
  });

  it('uses the CLI’s data directory, not Electron’s userData', () => {
    expect(desktop.dataDir).toBe(dataDir);
    delete process.env.HEARTH_DATA_DIR;
    try {
      expect(shell.desktopDataDir()).toBe(defaultDataDir());
      expect(parseCliOptions([], {}).dataDir).toBe(defaultDataDir());
    } finally {
      process.env.HEARTH_DATA_DIR = dataDir;
    }
  });

  it('answers desktop.status while the server starts, then reports it ready', async () => {
    const early = await ipcCall('query', 'desktop.status');
    expect(['starting', 'running']).toContain((early.data as DesktopStatus).state);
    await running();
    const now = status();
    expect(now).toEqual({
      state: 'running',
      url: `http://127.0.0.1:${now.port}`,
      tlsFingerprint: null,
      port: expect.any(Number),
      preferredPort: 9991,
      portFallback: true,
      host: '127.0.0.1',
      dataDir,
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      restarts: 0,
      lastError: null,
    });
    expect(now.port).not.toBe(9991);
    expect((await ipcCall('query', 'desktop.status')).data).toEqual(now);
  });

  it('leaves a fresh data directory to the first-run wizard: no generated password', async () => {
    const zuliprc = path.join(dataDir, 'zuliprc');
    expect(existsSync(path.join(dataDir, 'hearth.sqlite'))).toBe(true);
    expect(existsSync(zuliprc)).toBe(false);
    expect((await ipcCall('query', 'setup.status')).data).toEqual({ needsSetup: true });
    const early = await ipcCall('query', 'organization.info');
    expect(early.error).toMatchObject({ data: { code: 'PRECONDITION_FAILED' } });
    const log = readFileSync(path.join(dataDir, 'logs', 'hearth.log'), 'utf8');
    expect(log).toContain('the first-run wizard sets it up');
    expect(log).not.toMatch(/password|Created a new organization/i);

    const done = await ipcCall('mutation', 'setup.complete', {
      realmName: 'Hearth',
      ownerName: 'Desk Owner',
      email: 'owner@hearth.local',
      password: 'a chosen passphrase',
    });
    expect(done.data).toEqual({ ownerEmail: 'owner@hearth.local', zuliprcPath: zuliprc });
    expect((await ipcCall('query', 'setup.status')).data).toEqual({ needsSetup: false });
    const again = await ipcCall('mutation', 'setup.complete', {
      realmName: 'Other',
      ownerName: 'Intruder',
      email: 'x@hearth.local',
      password: 'another passphrase',
    });
    expect(again.error).toMatchObject({ message: 'The organization has already been set up' });
    // The wizard is done: the window turns to the chat, served by the server.
    const win = windows[0]!;
    await vi.waitFor(() => expect(win.loadedUrl).toBe(`${status().url}/`));
    expect(desktop.view()).toBe('chat');
    // The chosen password logs in.
    const login = await fetch(`${status().url}/api/v1/fetch_api_key`, {
      method: 'POST',
      body: new URLSearchParams({
        username: 'owner@hearth.local',
        password: 'a chosen passphrase',
      }),
    });
    expect(await login.json()).toMatchObject({ result: 'success', email: 'owner@hearth.local' });
  });

  it('serves the API from the data directory once set up', async () => {
    const { url } = status();
    const res = await fetch(`${url}/api/v1/server_settings`);
    expect(await res.json()).toMatchObject({ result: 'success', realm_name: 'Hearth' });
    const rc = readFileSync(path.join(dataDir, 'zuliprc'), 'utf8');
    expect(rc).toContain(`site=${url}`);
    const key = /key=(\S+)/.exec(rc)![1]!;
    const me = await new ApiClient(url!, { email: 'owner@hearth.local', apiKey: key }).get(
      '/users/me',
    );
    expect(me.body.is_owner).toBe(true);
    expect(readFileSync(path.join(dataDir, 'logs', 'hearth.log'), 'utf8')).toContain(
      'GET /api/v1/users/me 200',
    );
  });
});

describe('the window’s tRPC calls', () => {
  it('run the app router in the server process, acting as the owner', async () => {
    const info = await ipcCall('query', 'organization.info');
    expect(info.data).toMatchObject({
      name: 'Hearth',
      ownerEmail: 'owner@hearth.local',
      zuliprcPath: path.join(dataDir, 'zuliprc'),
      url: status().url,
    });
    const created = await ipcCall('mutation', 'users.create', {
      email: 'desk@hearth.local',
      fullName: 'Desk Top',
    });
    expect(created.data).toEqual({ user_id: expect.any(Number) });
    const net = await ipcCall('query', 'network.get');
    expect(net.data).toMatchObject({
      lan: false,
      host: '127.0.0.1',
      urls: [status().url],
      // The desktop runs it: it restarts on what the Network page saves.
      followsSettings: true,
    });
    const logs = await ipcCall('query', 'logs.recent', { lines: 50 });
    expect((logs.data as { lines: string[] }).lines.join('\n')).toContain('Hearth listening on');
  });

  it("pass the domain's errors with their Zulip code, and input errors", async () => {
    const dup = await ipcCall('mutation', 'users.create', {
      email: 'desk@hearth.local',
      fullName: 'Again',
    });
    expect(dup.error).toMatchObject({
      message: "Email 'desk@hearth.local' already in use",
      data: { code: 'BAD_REQUEST', zulip: { code: 'BAD_REQUEST' } },
    });
    const bad = await ipcCall('mutation', 'network.set', { lan: 'yes' });
    expect(bad.error).toMatchObject({ data: { code: 'BAD_REQUEST', httpStatus: 400 } });
    const missing = await ipcCall('query', 'no.such.procedure');
    expect(missing.error).toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('open the data and backup folders through Electron’s shell', async () => {
    electron.shell.openPath.mockClear();
    expect((await ipcCall('mutation', 'desktop.openFolder', { folder: 'data' })).data).toEqual({});
    expect(electron.shell.openPath).toHaveBeenLastCalledWith(dataDir);
    expect(await ipcCall('mutation', 'desktop.openFolder', { folder: 'backups' })).toEqual({
      data: {},
    });
    // Made on the way, so the owner sees where backups will go.
    expect(electron.shell.openPath).toHaveBeenLastCalledWith(path.join(dataDir, 'backups'));
    expect(existsSync(path.join(dataDir, 'backups'))).toBe(true);
    electron.shell.openPath.mockResolvedValueOnce('No application knows how to open it');
    const failed = await ipcCall('mutation', 'desktop.openFolder', { folder: 'data' });
    expect(failed.error).toMatchObject({
      message: `Could not open ${dataDir}: No application knows how to open it`,
      data: { code: 'BAD_REQUEST' },
    });
    const bad = await ipcCall('mutation', 'desktop.openFolder', { folder: '/etc' });
    expect(bad.error).toMatchObject({ data: { code: 'BAD_REQUEST', httpStatus: 400 } });
    expect(electron.shell.openPath).toHaveBeenCalledTimes(3);
  });

  it('are ignored from anything but Hearth’s windows', async () => {
    const stranger = new standIn.WebContents();
    const answer = await Promise.race([
      ipcCall('query', 'desktop.status', undefined, stranger),
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 300)),
    ]);
    expect(answer).toBe('no answer');
  });

  it('are ignored from any page but the admin file, the chat above all', async () => {
    const win = desktop.window()!.webContents;
    for (const frameUrl of [
      `${status().url}/`,
      `${status().url}/admin/`,
      'file:///tmp/evil.html',
      `${pathToFileURL(path.join(REPO, 'renderer', 'dist', 'chat', 'chat.html')).href}`,
      '',
    ]) {
      const answer = await Promise.race([
        ipcCall('query', 'desktop.status', undefined, win, frameUrl),
        new Promise((resolve) => setTimeout(() => resolve('no answer'), 200)),
      ]);
      expect(answer, frameUrl).toBe('no answer');
    }
  });
});

describe('the window’s navigations', () => {
  const win = () => desktop.window() as unknown as standIn.BrowserWindow;

  it('go between the chat and the admin page, both ways', () => {
    const { url } = status();
    expect(win().loadedUrl).toBe(`${url}/`);
    // The chat's "Administration" link: the app's own admin page, not /admin/ over http.
    expect(win().webContents.navigate(`${url}/admin/users`)).toBe(false);
    expect(win().loadedFile).toBe(ADMIN_PAGE);
    expect(desktop.view()).toBe('admin');
    // The admin page's "Chat" link.
    expect(win().webContents.navigate(`${url}/#narrow/channel/1`)).toBe(true);
    expect(win().loadedUrl).toBe(`${url}/#narrow/channel/1`);
    expect(desktop.view()).toBe('chat');
    expect(win().webContents.navigate(`${url}/admin/`)).toBe(false);
    expect(desktop.view()).toBe('admin');
  });

  it('hand other sites to the browser, download the server’s files, refuse the rest', () => {
    const { url } = status();
    electron.shell.openExternal.mockClear();
    const contents = win().webContents;
    expect(contents.navigate('https://example.org/page')).toBe(false);
    expect(contents.openHandler?.({ url: 'mailto:someone@example.org' })).toEqual({
      action: 'deny',
    });
    expect(electron.shell.openExternal.mock.calls).toEqual([
      ['https://example.org/page'],
      ['mailto:someone@example.org'],
    ]);
    const upload = `${url}/user_uploads/2/ab/file/report.pdf`;
    expect(contents.openHandler?.({ url: upload })).toEqual({ action: 'deny' });
    expect(contents.navigate(`${url}/user_uploads/download/2/ab/x/y.txt`)).toBe(false);
    expect(contents.downloads).toEqual([upload, `${url}/user_uploads/download/2/ab/x/y.txt`]);
    for (const refused of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings']) {
      expect(contents.navigate(refused), refused).toBe(false);
    }
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(2);
    expect(win().loadedFile).toBe(ADMIN_PAGE);
    expect(desktop.view()).toBe('admin');
  });

  it('Open chat in the tray shows the window on the chat', async () => {
    trays[0]!.item('open-chat').click!();
    await vi.waitFor(() => expect(win().loadedUrl).toBe(`${status().url}/`));
    expect(desktop.view()).toBe('chat');
    expect(windows).toHaveLength(1);
  });
});

describe('the tray', () => {
  it('shows the state and URL, the port fallback, and Open chat', () => {
    const tray = trays[0]!;
    const { url, port } = status();
    expect(tray.tooltip).toBe(`Hearth: Running at ${url}`);
    expect(tray.item('status').label).toBe(`Hearth: Running at ${url}`);
    expect(tray.menu.map((i) => i.label)).toContain(`Port 9991 was taken; using ${port}`);
    expect(tray.item('open-chat').enabled).toBe(true);
    expect(tray.item('copy-url').enabled).toBe(true);
  });

  it('Copy URL puts the URL clients use on the clipboard', () => {
    trays[0]!.item('copy-url').click!();
    expect(electron.clipboard.writeText).toHaveBeenLastCalledWith(status().url);
  });
});

describe('closing the window', () => {
  it('keeps the server running and says so once (remembered across runs)', async () => {
    desktop.window()!.close();
    expect(desktop.window()).toBeNull();
    electron.app.emit('window-all-closed');
    expect(state.quit).toBe(false);
    expect(state.quitRequests).toBe(0);
    expect(status().state).toBe('running');
    expect((await fetch(`${status().url}/api/v1/server_settings`)).status).toBe(200);
    expect(notifications).toEqual([
      {
        title: 'Hearth is still running',
        body: expect.stringContaining('quit from the Hearth icon'),
        shown: true,
      },
    ]);
    expect(JSON.parse(readFileSync(path.join(dataDir, 'desktop-ui.json'), 'utf8'))).toEqual({
      closeNoticeShown: true,
    });
  });

  it('Open admin in the tray brings a window back; closing it again says nothing', async () => {
    trays[0]!.item('open-admin').click!();
    expect(windows).toHaveLength(2);
    expect(desktop.window()).toBe(windows[1]);
    // It stays on the admin page, although the chat could be shown.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(windows[1]!.loadedFile).toBe(ADMIN_PAGE);
    desktop.window()!.close();
    expect(notifications).toHaveLength(1);
  });

  it('a second launch shows the window (opening one if none is open)', () => {
    electron.app.emit('second-instance', {}, ['hearth']);
    expect(windows).toHaveLength(3);
    const win = desktop.window() as unknown as standIn.BrowserWindow;
    electron.app.emit('second-instance', {}, ['hearth']);
    expect(windows).toHaveLength(3);
    expect(win.focused).toBe(1);
  });

  it('a window opened with the organization set up turns to the chat', async () => {
    const win = desktop.window() as unknown as standIn.BrowserWindow;
    await vi.waitFor(() => expect(win.loadedUrl).toBe(`${status().url}/`));
  });
});

describe('a crashed server', () => {
  it('is restarted with the same port, and the state shows it meanwhile', async () => {
    const before = status();
    const seen: Array<{ status: DesktopStatus; tooltip: string }> = [];
    desktop.supervisor()!.on('status', (s) => seen.push({ status: s, tooltip: trays[0]!.tooltip }));
    forked.at(-1)!.child.kill('SIGKILL');
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0));
    expect(seen[0]).toEqual({
      status: expect.objectContaining({
        state: 'restarting',
        restarts: 1,
        lastError: 'The server process exited (code 1)',
      }),
      tooltip: 'Hearth: Restarting…',
    });
    await running();
    const after = status();
    expect(after).toMatchObject({
      restarts: 1,
      port: before.port,
      url: before.url,
      lastError: null,
    });
    expect(after.startedAt).not.toBe(before.startedAt);
    expect(forked).toHaveLength(2);
    expect((await fetch(`${after.url}/api/v1/server_settings`)).status).toBe(200);
    expect((await ipcCall('query', 'desktop.status')).data).toEqual(after);
  });
});

describe('network.set from the window', () => {
  it('saves the settings and restarts the server on them', async () => {
    const result = await ipcCall('mutation', 'network.set', {
      lan: true,
      externalUrl: 'https://chat.example.test/',
    });
    expect(result.data).toEqual({ restartRequired: false });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'desktop-settings.json'), 'utf8'))).toEqual({
      lan: true,
      externalUrl: 'https://chat.example.test',
    });
    await vi.waitFor(() => expect(forked).toHaveLength(3), { timeout: 30_000 });
    await running();
    expect(status()).toMatchObject({
      host: '0.0.0.0',
      url: 'https://chat.example.test',
      restarts: 1,
    });
    // LAN mode speaks TLS: the window shows the fingerprint devices compare.
    const ca = new X509Certificate(readFileSync(path.join(dataDir, 'tls', 'ca.crt')));
    expect(status().tlsFingerprint).toBe(ca.fingerprint256);
    expect(trays[0]!.item('tls-fingerprint').label).toBe(
      `Certificate SHA-256: ${ca.fingerprint256}`,
    );
    // A link to the server at its client URL is shown at the local one.
    const win = desktop.window() as unknown as standIn.BrowserWindow;
    expect(win.webContents.navigate('https://chat.example.test/#narrow/dm/1')).toBe(false);
    expect(win.loadedUrl).toBe(`http://127.0.0.1:${status().port}/#narrow/dm/1`);
    const net = (await ipcCall('query', 'network.get')).data;
    expect(net).toMatchObject({
      lan: true,
      host: '0.0.0.0',
      urls: ['https://chat.example.test'],
      clearTextWarning: false,
    });

    expect((await ipcCall('mutation', 'network.set', { lan: false })).data).toEqual({
      restartRequired: false,
    });
    await vi.waitFor(() => expect(forked).toHaveLength(4), { timeout: 30_000 });
    await running();
    expect(status()).toMatchObject({ host: '127.0.0.1', url: `http://127.0.0.1:${status().port}` });
  });
});

describe('quitting from the tray', () => {
  it('stops the server cleanly (database closed) before the app exits', async () => {
    const { url } = status();
    const child = forked.at(-1)!;
    trays[0]!.item('quit').click!();
    expect(state.quit).toBe(false);
    await vi.waitFor(() => expect(state.quit).toBe(true), { timeout: 20_000 });
    expect(child.child.exitCode).toBe(0);
    expect(status().state).toBe('stopped');
    expect(trays[0]!.destroyed).toBe(true);
    await expect(fetch(`${url}/api/v1/server_settings`)).rejects.toThrow();
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(existsSync(path.join(dataDir, 'hearth.sqlite-wal'))).toBe(false);
    expect(readFileSync(path.join(dataDir, 'logs', 'hearth.log'), 'utf8')).toContain(
      'Stopping the server',
    );
    // The window's calls now get an error, desktop.status still answers.
    expect(
      (await ipcCall('query', 'desktop.status', undefined, windows[2]!.webContents)).data,
    ).toMatchObject({ state: 'stopped' });
  });
});
