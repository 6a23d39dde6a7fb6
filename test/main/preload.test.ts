/**
 * The preload as Electron's sandbox runs it: one CommonJS file whose only
 * import is `require('electron')`, exposing trpc-electron's channel.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildPreload } from '../../main/build.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-preload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the preload bundle', () => {
  it('needs nothing but electron and exposes window.electronTRPC to the admin file only', async () => {
    const file = await buildPreload(path.join(dir, 'preload.cjs'));
    const exposed = new Map<
      string,
      { sendMessage(m: unknown): void; onMessage(cb: unknown): void }
    >();
    const electron = {
      contextBridge: { exposeInMainWorld: vi.fn((key, api) => exposed.set(key, api)) },
      ipcRenderer: { send: vi.fn(), on: vi.fn() },
    };
    const required: string[] = [];
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    };
    const module = { exports: {} };
    vm.runInNewContext(readFileSync(file, 'utf8'), {
      require: sandboxRequire,
      module,
      exports: module.exports,
      location: { protocol: 'file:' },
    });

    expect(required).toEqual(['electron']);
    const api = exposed.get('electronTRPC');
    expect(api).toBeDefined();
    api!.sendMessage({ method: 'request' });
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith('trpc-electron', { method: 'request' });

    // The chat, loaded over http in the same window, gets no channel at all.
    electron.contextBridge.exposeInMainWorld.mockClear();
    const again = { exports: {} };
    vm.runInNewContext(readFileSync(file, 'utf8'), {
      require: sandboxRequire,
      module: again,
      exports: again.exports,
      location: { protocol: 'http:' },
    });
    expect(electron.contextBridge.exposeInMainWorld).not.toHaveBeenCalled();
  });
});
