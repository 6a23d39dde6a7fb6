import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { primaryOwner } from '../realm/index.js';

/** What every procedure receives: the server's context and who is acting. */
export interface TrpcContext {
  app: AppContext;
  /** The organization owner for the admin door, or the user whose API key authenticated. */
  actor: UserRow;
  /** Where first start wrote the owner's zuliprc (it may not exist). */
  zuliprcPath: string | null;
}

/** The desktop window and the admin token act as the organization owner. */
export function ownerContext(app: AppContext, zuliprcPath: string | null): TrpcContext {
  return { app, actor: primaryOwner(app), zuliprcPath };
}
