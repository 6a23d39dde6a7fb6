import { TRPCError } from '@trpc/server';
import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import type { DesktopHost } from '../hosting/index.js';
import { organizationExists, primaryOwner } from '../realm/index.js';

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

/**
 * The desktop window and the admin token act as the organization owner. The
 * owner is looked up when a procedure first asks for it: before the first-run
 * wizard has created the organization there is none, and only `setup.*` runs.
 */
export function ownerContext(
  app: AppContext,
  zuliprcPath: string | null,
  desktop?: DesktopHost,
): TrpcContext {
  let owner: UserRow | undefined;
  return {
    app,
    zuliprcPath,
    ...(desktop ? { desktop } : {}),
    get actor() {
      if (!owner && !organizationExists(app)) {
        throw new TRPCError({
          code: 'PRECONDITION_FAILED',
          message: 'The organization has not been set up yet',
        });
      }
      owner ??= primaryOwner(app);
      return owner;
    },
  };
}
