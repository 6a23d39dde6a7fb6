/**
 * The preload as Electron's sandbox runs it: one CommonJS file whose only
 * import is `require('electron')`, exposing one port on the tRPC channel.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildPreload } from '../../main/build.js';
import type { IpcPort } from '../../server/trpc/ipc-wire.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-preload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the preload bundle', () => {
  it('needs nothing but electron and exposes window.hearthIpc to the admin file only', async () => {
    const file = await buildPreload(path.join(dir, 'preload.cjs'));
    const exposed = new Map<string, IpcPort>();
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
    expect([...exposed.keys()]).toEqual(['hearthIpc']);
    const port = exposed.get('hearthIpc')!;
    const request = {
      method: 'request',
      operation: { id: 1, type: 'query', path: 'a.b' },
    } as const;
    port.send(request);
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith('hearth-trpc', request);
    // Answers reach the page without the IPC event (which carries the sender).
    const listener = vi.fn();
    port.onMessage(listener);
    expect(electron.ipcRenderer.on).toHaveBeenCalledWith('hearth-trpc', expect.any(Function));
    const relay = electron.ipcRenderer.on.mock.calls[0]![1] as (e: unknown, m: unknown) => void;
    relay({ sender: 'the IPC event' }, { id: 1, result: { type: 'data', data: 2 } });
    expect(listener).toHaveBeenCalledWith({ id: 1, result: { type: 'data', data: 2 } });
    expect(listener.mock.calls[0]).toHaveLength(1);

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
