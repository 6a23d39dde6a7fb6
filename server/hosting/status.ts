import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { requireRole } from '../shared/roles.js';
import { tlsOf } from '../tls/index.js';

/** The server's life as the desktop app supervises it. */
export type ServerState = 'starting' | 'running' | 'restarting' | 'stopped';

export interface DesktopStatus {
  state: ServerState;
  /** The URL clients use (null until the server first listens). */
  url: string | null;
  /**
   * The SHA-256 fingerprint devices compare before trusting the server (its
   * certificate authority's, or the team's own certificate's); null when the
   * server speaks no TLS.
   */
  tlsFingerprint: string | null;
  port: number | null;
  /** The port Hearth asks for (Zulip clients remember the URL). */
  preferredPort: number;
  /** True when the preferred port was taken and another one is used. */
  portFallback: boolean;
  host: string | null;
  dataDir: string;
  /** When the running server started (ISO 8601), null when none runs. */
  startedAt: string | null;
  /** How many times the server was restarted after it crashed. */
  restarts: number;
  /** Why the server last failed, if it did. */
  lastError: string | null;
}

/**
 * What the desktop shell offers the procedures run for its window: its view
 * of the server, and restarting it (the network settings take effect).
 */
export interface DesktopHost {
  status(): DesktopStatus;
  /** Restarts the server once the current call has been answered. */
  restartServer(): void;
  /** Shows a folder in the system's file manager: an empty string when it opened, else why not. */
  openFolder(folder: string): Promise<string>;
}

/** A server not supervised by the desktop app (the CLI): running, as configured. */
export function standaloneStatus(ctx: AppContext): DesktopStatus {
  const { config } = ctx;
  return {
    state: 'running',
    url: config.externalUrl,
    tlsFingerprint: tlsOf(ctx)?.fingerprint ?? null,
    port: config.port,
    preferredPort: config.port,
    portFallback: false,
    host: config.host,
    dataDir: config.dataDir,
    startedAt: new Date(config.startedAtMs).toISOString(),
    restarts: 0,
    lastError: null,
  };
}

/**
 * desktop.status: the desktop's view when it supervises this server, else the
 * server's own. `actor` is null before the first-run wizard: with no users,
 * only the desktop window or the admin token can be asking, both as the owner.
 */
export function serverStatus(
  ctx: AppContext,
  actor: Pick<UserRow, 'role' | 'is_bot'> | null,
  desktop: DesktopHost | undefined,
): DesktopStatus {
  if (actor) requireRole(actor, 'owner');
  return desktop ? desktop.status() : standaloneStatus(ctx);
}
