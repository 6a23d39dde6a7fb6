import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { deleteMute, insertMute, isMuted, mutesOf } from '../db/queries/muted-users.js';
import type { UserRow } from '../db/queries/users.js';
import { markMessagesFromSenderRead } from '../flags/index.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { accessReadableUser } from '../users/index.js';

/** Every change sends the user's whole new list to all of their queues, and no one else's. */
function emitMutes(ctx: AppContext, tx: Tx, userId: number): void {
  tx.emit({
    type: 'muted_users',
    users: [userId],
    payload: {
      type: 'muted_users',
      muted_users: mutesOf(ctx.db, userId),
    } satisfies EventBody<'muted_users'>,
  });
}

/**
 * POST /users/me/muted_users/{muted_user_id}. Bots and deactivated users
 * may be muted, as in Zulip. Muting marks the muted user's unread messages
 * read (later ones arrive read: messages/send.ts).
 */
export function muteUser(
  ctx: AppContext,
  user: UserRow,
  mutedUserId: number,
): Record<string, never> {
  if (mutedUserId === user.id) throw badRequest('Cannot mute self');
  const muted = accessReadableUser(ctx, user, mutedUserId, {
    allowBots: true,
    allowDeactivated: true,
  });
  if (isMuted(ctx.db, user.id, muted.id)) throw badRequest('User already muted');
  return ctx.transaction((tx) => {
    insertMute(ctx.db, user.id, muted.id, Math.floor(ctx.now() / 1000));
    markMessagesFromSenderRead(ctx, tx, user.id, muted.id);
    emitMutes(ctx, tx, user.id);
    return {};
  });
}

/** DELETE /users/me/muted_users/{muted_user_id}: messages already read stay read. */
export function unmuteUser(
  ctx: AppContext,
  user: UserRow,
  mutedUserId: number,
): Record<string, never> {
  const muted = accessReadableUser(ctx, user, mutedUserId, {
    allowBots: true,
    allowDeactivated: true,
  });
  if (!isMuted(ctx.db, user.id, muted.id)) throw badRequest('User is not muted');
  return ctx.transaction((tx) => {
    deleteMute(ctx.db, user.id, muted.id);
    emitMutes(ctx, tx, user.id);
    return {};
  });
}
