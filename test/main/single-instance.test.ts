/** A second launch of the app: it leaves everything to the running one and quits. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import * as standIn from './electron-stand-in.js';

vi.mock('electron', async () => {
  const { electron } = await import('./electron-stand-in.js');
  return { ...electron, default: electron };
});

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-second-'));
afterAll(() => {
  delete process.env.HEARTH_DATA_DIR;
  rmSync(dataDir, { recursive: true, force: true });
});

it('quits at once without a window, a tray or a server when another Hearth runs', async () => {
  process.env.HEARTH_DATA_DIR = dataDir;
  standIn.state.singleInstanceLock = false;
  const { runDesktop } = await import('../../main/desktop.js');
  const desktop = runDesktop();
  standIn.electron.app.becomeReady();
  await desktop.ready;
  expect(standIn.state).toMatchObject({ quitRequests: 1, quit: true });
  expect(standIn.windows).toHaveLength(0);
  expect(standIn.trays).toHaveLength(0);
  expect(standIn.electron.utilityProcess.fork).not.toHaveBeenCalled();
  expect(desktop.supervisor()).toBeNull();
});
