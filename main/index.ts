/**
 * The Electron main process's entry (package.json "main": dist/main/index.js).
 * See desktop.ts; the server itself runs in server-process.ts.
 */
import { runDesktop } from './desktop.js';

export const desktop = runDesktop();
