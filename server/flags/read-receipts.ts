import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { messageReaders } from '../db/queries/flags.js';
import type { UserRow } from '../db/queries/users.js';
import { accessMessage } from '../narrow/index.js';
import { loadRealm } from '../shared/realm.js';

/**
 * GET /messages/{id}/read_receipts: who has read a message the user can
 * see. Never the sender; only users sharing read receipts; neither users
 * who muted the requester nor users the requester muted; active users only
 * (bots included), as Zulip's read_receipts view.
 */
export function readReceipts(
  ctx: AppContext,
  user: UserRow,
  messageId: number,
): { user_ids: number[] } {
  const { message } = accessMessage(ctx, user, messageId);
  if (!loadRealm(ctx).settings.enable_read_receipts) {
    throw badRequest('Read receipts are disabled in this organization.');
  }
  return { user_ids: messageReaders(ctx.db, message, message.sender_id, user.id) };
}
