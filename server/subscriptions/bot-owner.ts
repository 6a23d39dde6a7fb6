import type { AppContext, Tx } from '../core/context.js';
import { streamById, subscribedStreamIds } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { removeSubscriptions } from './subscriptions.js';

/**
 * Zulip's remove_bot_from_inaccessible_private_streams, after a bot changes
 * hands: it leaves the private channels its new owner is not subscribed to,
 * so the owner does not read them through the bot's API key.
 */
export function leavePrivateChannelsHiddenFromOwner(
  ctx: AppContext,
  tx: Tx,
  bot: UserRow,
  owner: UserRow,
): void {
  const ownerChannels = new Set(subscribedStreamIds(ctx.db, owner.id));
  const hidden = subscribedStreamIds(ctx.db, bot.id)
    .filter((id) => !ownerChannels.has(id))
    .map((id) => streamById(ctx.db, id)!)
    .filter((stream) => stream.invite_only);
  if (hidden.length > 0) removeSubscriptions(ctx, tx, hidden, [bot]);
}
