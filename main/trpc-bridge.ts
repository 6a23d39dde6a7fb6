/**
 * The window's tRPC channel (server/trpc/ipc-wire.ts) relayed to the server
 * process, where the real router runs next to the database. Only the admin page in Hearth's own windows is
 * answered: the same window also shows the chat over http, a page rendering
 * other people's messages, which must never reach the owner's procedures.
 */
import type { IpcMain, IpcMainEvent } from 'electron';
import {
  IPC_CHANNEL,
  type IpcOperation,
  type IpcRequest,
  type IpcResponse,
} from '../server/trpc/ipc-wire.js';

export function bridgeTrpc(
  ipcMain: IpcMain,
  call: (operation: IpcOperation) => Promise<IpcResponse>,
  isAdminPage: (event: IpcMainEvent) => boolean,
): () => void {
  const listener = (event: IpcMainEvent, message: IpcRequest | undefined) => {
    if (message?.method !== 'request' || !isAdminPage(event)) return;
    void call(message.operation).then((response) => {
      if (!event.sender.isDestroyed()) event.reply(IPC_CHANNEL, response);
    });
  };
  ipcMain.on(IPC_CHANNEL, listener);
  return () => ipcMain.off(IPC_CHANNEL, listener);
}
