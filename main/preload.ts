/**
 * Runs in the window before each page (sandboxed, context-isolated): exposes
 * one port on the tRPC channel as `window.hearthIpc`, and only to the admin
 * page (a file of the app); the chat, loaded over http in the same window,
 * gets nothing (the main process checks the sender too). The page sees two
 * functions, never ipcRenderer or an IPC event.
 * Bundled to dist/main/preload.cjs (`npm run build:preload`), since sandboxed
 * preloads cannot load ES modules or node_modules.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, IPC_PORT_GLOBAL, type IpcPort } from '../server/trpc/ipc-wire.js';

const port: IpcPort = {
  send: (message) => ipcRenderer.send(IPC_CHANNEL, message),
  onMessage: (listener) => {
    ipcRenderer.on(IPC_CHANNEL, (_event, message) => listener(message));
  },
};

if (location.protocol === 'file:') contextBridge.exposeInMainWorld(IPC_PORT_GLOBAL, port);
