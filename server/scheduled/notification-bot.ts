import type { AppContext, Tx } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { sendInternalDirectMessage } from '../messages/index.js';
import { notificationBot } from '../users/index.js';

/** A direct message from Notification Bot to `user`, unread for them. */
export function sendNotificationBotDm(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  markdown: string,
): number {
  return sendInternalDirectMessage(ctx, tx, notificationBot(ctx, tx), user, markdown);
}
