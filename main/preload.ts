/**
 * Runs in the window before each page (sandboxed, context-isolated): exposes
 * only trpc-electron's message channel as `window.electronTRPC`, and only to
 * the admin page (a file of the app); the chat, loaded over http in the same
 * window, gets nothing (the main process checks the sender too).
 * Bundled to dist/main/preload.cjs (`npm run build:preload`), since sandboxed
 * preloads cannot load ES modules or node_modules.
 */
import { exposeElectronTRPC } from 'trpc-electron/main';

if (location.protocol === 'file:') exposeElectronTRPC();
