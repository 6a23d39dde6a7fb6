/**
 * The desktop app started while another server (the CLI, say) serves its
 * data directory: its own server is refused, and it offers the running one
 * (its chat in the window) or quitting, instead of serving the same database
 * a second time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ensureOrganization } from '../../server/bootstrap.js';
import { createServer, type RunningServer } from '../../server/index.js';
import * as standIn from './electron-stand-in.js';

vi.mock('electron', async () => {
  const { electron } = await import('./electron-stand-in.js');
  return { ...electron, default: electron };
});

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { electron, state, windows, trays, forked } = standIn;

let dataDir: string;
/** The server that got there first, in this test's process. */
let running: RunningServer;
let desktop: ReturnType<typeof import('../../main/desktop.js')['runDesktop']>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-in-use-'));
  running = await createServer({ dataDir, port: 0, scheduledDelivery: false, logFile: false });
  await ensureOrganization(running, { demo: false });
  process.env.HEARTH_DATA_DIR = dataDir;
  state.appPath = REPO;
  electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
  const shell = await import('../../main/desktop.js');
  desktop = shell.runDesktop({ supervisor: { initialDelayMs: 50 } });
  electron.app.becomeReady();
  await desktop.ready;
}, 60_000);

afterAll(async () => {
  await desktop?.supervisor()?.stop();
  for (const child of forked) child.child.kill('SIGKILL');
  await running?.close();
  delete process.env.HEARTH_DATA_DIR;
  rmSync(dataDir, { recursive: true, force: true });
});

const message = () =>
  `Another Hearth server (${running.url}, process ${process.pid}) is already serving ${dataDir}. ` +
  'Use that one, stop it first, or give another data directory (--data-dir).';

it('offers the running server, and opens its chat in the window', async () => {
  const win = windows[0]!;
  await vi.waitFor(() => expect(win.loadedUrl).toBe(`${running.localUrl}/`), { timeout: 30_000 });
  expect(desktop.view()).toBe('chat');
  expect(electron.dialog.showMessageBox).toHaveBeenCalledTimes(1);
  const [parent, options] = electron.dialog.showMessageBox.mock.calls[0] as unknown as [
    unknown,
    Record<string, unknown>,
  ];
  expect(parent).toBe(win);
  expect(options).toMatchObject({
    message: 'Another Hearth server is already serving this organization',
    buttons: ['Open its chat', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  });
  expect(options.detail).toContain(`at ${running.url} (process ${process.pid})`);
  expect(options.detail).toContain(dataDir);

  // Its own server stopped without a crash loop, and says why.
  const status = desktop.supervisor()!.status();
  expect(status).toMatchObject({ state: 'stopped', restarts: 0, url: null, lastError: message() });
  expect(trays[0]!.item('status').label).toBe('Hearth: Stopped');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(forked).toHaveLength(1);
  expect(forked[0]!.child.exitCode).not.toBeNull();

  // The running server was left alone; the window's links stay in its chat.
  expect((await fetch(`${running.url}/api/v1/server_settings`)).status).toBe(200);
  expect(win.webContents.navigate(`${running.localUrl}/#narrow/channel/1`)).toBe(true);
  expect(desktop.view()).toBe('chat');
  expect(win.webContents.navigate('https://example.org/')).toBe(false);
}, 40_000);

it('quits when the user says so', async () => {
  electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 });
  // The tray's restart meets the same lock, and asks again.
  trays[0]!.item('restart').click!();
  await vi.waitFor(() => expect(state.quit).toBe(true), { timeout: 30_000 });
  expect(electron.dialog.showMessageBox).toHaveBeenCalledTimes(2);
  expect(forked).toHaveLength(2);
  expect((await fetch(`${running.url}/api/v1/server_settings`)).status).toBe(200);
}, 40_000);
