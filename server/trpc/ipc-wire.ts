/**
 * The desktop window's tRPC wire: what the admin page's link
 * (renderer/src/api/ipc-link.ts) sends through the preload's port
 * (main/preload.ts) and what comes back. Inputs, data and errors travel
 * serialized by the router's transformer (superjson), so the IPC channel
 * carries only structured-clone-safe values. No imports: the sandboxed
 * preload bundles this file and may load nothing but `electron`.
 */

/** The one IPC channel between the admin page and the main process. */
export const IPC_CHANNEL = 'hearth-trpc';

/** The window's global the preload exposes the port under. */
export const IPC_PORT_GLOBAL = 'hearthIpc';

/** One procedure call. */
export interface IpcOperation {
  /** The page's calls count up; the main process's own are named `main-N`. */
  id: number | string;
  type: 'query' | 'mutation' | 'subscription';
  path: string;
  /** The serialized input; absent when the procedure takes none. */
  input?: unknown;
}

/** The answer to one call, matched to it by id: data or a serialized error shape. */
export type IpcResponse =
  | { id: number | string; result: { type: 'data'; data: unknown } }
  | { id: number | string; error: unknown };

/** What the page sends on the channel. No procedure is a subscription. */
export interface IpcRequest {
  method: 'request';
  operation: IpcOperation;
}

/** What the preload exposes to the admin page, and nothing more. */
export interface IpcPort {
  send(message: IpcRequest): void;
  onMessage(listener: (message: IpcResponse) => void): void;
}
