import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import type { DesktopHost } from '../hosting/index.js';
import { primaryOwner } from '../realm/index.js';

/** What every procedure receives: the server's context and who is acting. */
export interface TrpcContext {
  app: AppContext;
  /** The organization owner for the admin door, or the user whose API key authenticated. */
  actor: UserRow;
  /** Where first start wrote the owner's zuliprc (it may not exist). */
  zuliprcPath: string | null;
  /** The desktop app supervising this server, when the call came from its window. */
  desktop?: DesktopHost;
}

/** The desktop window and the admin token act as the organization owner. */
export function ownerContext(
  app: AppContext,
  zuliprcPath: string | null,
  desktop?: DesktopHost,
): TrpcContext {
  return { app, actor: primaryOwner(app), zuliprcPath, ...(desktop ? { desktop } : {}) };
}
