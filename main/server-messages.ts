/**
 * What the main process and the server process say to each other over the
 * utility process's message port (structured clone, so plain data only).
 */
import type { DesktopStatus } from '../server/hosting/index.js';
import type { IpcOperation, IpcResponse } from '../server/trpc/index.js';

/** How the main process starts the server process (one JSON argument). */
export interface ServerProcessConfig {
  dataDir: string;
  /** Tried in order (9991, then the port of the previous run); then any free port. */
  ports: number[];
  /** The port Hearth prefers; any other one is a fallback. */
  preferredPort: number;
}

export const CONFIG_ARG = '--hearth-config=';

export type ToServer =
  | { type: 'trpc'; id: number; operation: IpcOperation }
  /** The main process's view of the server, for desktop.status. */
  | { type: 'status'; status: DesktopStatus }
  /** Close the server and the database, then exit. */
  | { type: 'stop' }
  /** How opening a folder went: an empty error when it opened. */
  | { type: 'open-path-result'; id: number; error: string };

export interface ReadyReport {
  type: 'ready';
  url: string;
  localUrl: string;
  port: number;
  host: string;
  portFallback: boolean;
  /** The TLS certificate's fingerprint to compare in person (see DesktopStatus), null without TLS. */
  tlsFingerprint: string | null;
  /** Why the saved network settings were not followed as they are, if so. */
  warning: string | null;
}

/** The server that already serves the data directory, as it recorded itself. */
export interface DataDirHolder {
  pid: number;
  /** The URL clients use; null while it is still starting. */
  url: string | null;
  /** How this machine reaches it; null while it is still starting. */
  localUrl: string | null;
}

export type FromServer =
  | ReadyReport
  | { type: 'trpc-result'; id: number; response: IpcResponse }
  /** network.set saved new settings: restart the server on them. */
  | { type: 'restart' }
  /** Could not start (the message says why); the process exits next. */
  | { type: 'failed'; message: string }
  /** Another server (the CLI, say) serves the data directory; the process exits next. */
  | { type: 'in-use'; message: string; holder: DataDirHolder | null }
  /** Show a folder in the system's file manager (only the main process may). */
  | { type: 'open-path'; id: number; path: string };
