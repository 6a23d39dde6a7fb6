/**
 * The window's tRPC channel (trpc-electron's wire format, so the renderer
 * keeps its ipcLink) relayed to the server process, where the real router
 * runs next to the database. Only Hearth's own windows are answered.
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
  isHearthWindow: (webContentsId: number) => boolean,
): () => void {
  const listener = (event: IpcMainEvent, message: RendererMessage) => {
    // No procedure is a subscription, so there is nothing to stop.
    if (message?.method !== 'request' || !isHearthWindow(event.sender.id)) return;
    void call(message.operation).then((response) => {
      if (!event.sender.isDestroyed()) event.reply(TRPC_CHANNEL, response);
    });
  };
  ipcMain.on(TRPC_CHANNEL, listener);
  return () => ipcMain.off(TRPC_CHANNEL, listener);
}
