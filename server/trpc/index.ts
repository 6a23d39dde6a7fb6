/**
 * What the desktop shell (main/) may use of the tRPC door: the router it runs
 * as the owner for the admin window, and the IPC relay of its calls. The
 * procedures themselves stay private to this folder.
 */
export { ownerContext } from './context.js';
export type { IpcOperation, IpcResponse } from './ipc-operation.js';
export { runIpcOperation } from './ipc-operation.js';
export { createAppRouter } from './router.js';
