/**
 * The admin page's side of the desktop window's tRPC, as in the app: the
 * real preload bundle run as Electron's sandbox runs it, its port handed to
 * the renderer's real IPC link, and the stand-in ipcMain between them
 * carrying the sender and the frame's URL the main process checks.
 */

import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { createTRPCUntypedClient, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import { ipcLink } from '../../renderer/src/api/ipc-link.js';
import type { IpcPort } from '../../server/trpc/ipc-wire.js';
import type { AppRouter } from '../../server/trpc/router.js';

export interface PageSender {
  id: number;
  isDestroyed(): boolean;
}

export type CallResult = {
  data?: unknown;
  error?: { message: string; data: Record<string, unknown> };
};

export function adminPage(
  preloadFile: string,
  ipcMain: EventEmitter,
  sender: PageSender,
  frameUrl: string,
) {
  const listeners: ((event: unknown, message: unknown) => void)[] = [];
  let port: IpcPort | undefined;
  const electron = {
    contextBridge: { exposeInMainWorld: (_key: string, api: IpcPort) => (port = api) },
    ipcRenderer: {
      send: (channel: string, message: unknown) => {
        const event = {
          sender,
          senderFrame: { routingId: 1, url: frameUrl },
          reply: (replyChannel: string, response: unknown) => {
            if (replyChannel !== channel) throw new Error(`answered on ${replyChannel}`);
            for (const listener of listeners) listener({}, response);
          },
        };
        ipcMain.emit(channel, event, message);
      },
      on: (_channel: string, listener: (event: unknown, message: unknown) => void) => {
        listeners.push(listener);
      },
    },
  };
  const module = { exports: {} };
  vm.runInNewContext(readFileSync(preloadFile, 'utf8'), {
    require: () => electron,
    module,
    exports: module.exports,
    location: { protocol: 'file:' },
  });
  if (!port) throw new Error('the preload exposed no port');
  const client = createTRPCUntypedClient<AppRouter>({
    links: [ipcLink<AppRouter>({ port, transformer: superjson })],
  });

  return async (type: 'query' | 'mutation', path: string, input?: unknown): Promise<CallResult> => {
    try {
      return { data: await client[type](path, input) };
    } catch (err) {
      if (!(err instanceof TRPCClientError)) throw err;
      return { error: { message: err.message, data: err.data as Record<string, unknown> } };
    }
  };
}
