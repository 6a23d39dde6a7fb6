/**
 * Runs in the admin window before the page (sandboxed, context-isolated):
 * exposes only trpc-electron's message channel as `window.electronTRPC`.
 * Bundled to dist/main/preload.cjs (`npm run build:preload`), since sandboxed
 * preloads cannot load ES modules or node_modules.
 */
import { exposeElectronTRPC } from 'trpc-electron/main';

exposeElectronTRPC();
