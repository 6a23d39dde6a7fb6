/**
 * The window's tRPC channel (trpc-electron's wire format, so the renderer
 * keeps its ipcLink) relayed to the server process, where the real router
 * runs next to the database. Only the admin page in Hearth's own windows is
 * answered: the same window also shows the chat over http, a page rendering
 * other people's messages, which must never reach the owner's procedures.
 */
import type { IpcMain, IpcMainEvent } from 'electron';
import type { IpcOperation, IpcResponse } from '../server/trpc/ipc-operation.js';

/** trpc-electron's channel name (ELECTRON_TRPC_CHANNEL). */
export const TRPC_CHANNEL = 'trpc-electron';

type RendererMessage =
  | { method: 'request'; operation: IpcOperation }
  | { method: 'subscription.stop'; id: number };

export function bridgeTrpc(
  ipcMain: IpcMain,
  call: (operation: IpcOperation) => Promise<IpcResponse>,
  isAdminPage: (event: IpcMainEvent) => boolean,
): () => void {
  const listener = (event: IpcMainEvent, message: RendererMessage) => {
    // No procedure is a subscription, so there is nothing to stop.
    if (message?.method !== 'request' || !isAdminPage(event)) return;
    void call(message.operation).then((response) => {
      if (!event.sender.isDestroyed()) event.reply(TRPC_CHANNEL, response);
    });
  };
  ipcMain.on(TRPC_CHANNEL, listener);
  return () => ipcMain.off(TRPC_CHANNEL, listener);
}
