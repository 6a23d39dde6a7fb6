import type { AppContext, Tx } from '../core/context.js';
import { revokeEmailInvitationsFor } from '../db/queries/invitations.js';
import type { StreamRow } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { defaultChannels } from '../default-channels/index.js';
import { addSubscriptions } from '../subscriptions/index.js';
import { createUser, type NewUserInput } from '../users/index.js';
import { sendWelcome } from './welcome.js';

export interface AccountSetUp {
  /** The channels an invitation named (Zulip's prereg_user.streams). */
  channels?: readonly StreamRow[];
  /** Whether the default channels are added to them (true without an invitation). */
  includeDefaultChannels?: boolean;
  /** The invitation's own welcome text, in place of the organization's. */
  welcomeMessageCustomText?: string | null;
  /** More that belongs to the account's creation (the invitation's bookkeeping). */
  alsoInTransaction?: (tx: Tx, user: UserRow) => void;
}

/**
 * A new person's account as Zulip's do_create_user makes it: the account,
 * its subscriptions (the default channels, or an invitation's channels),
 * and the Welcome Bot's message, in one transaction. POST /users and
 * signing up with an invitation both come here, so every rule of account
 * creation (users/createUser) applies to both.
 */
export async function createAccount(
  ctx: AppContext,
  actor: UserRow | null,
  input: NewUserInput,
  setUp: AccountSetUp = {},
): Promise<{ user_id: number; api_key: string }> {
  return createUser(ctx, actor, input, (tx, user) => {
    const channels = new Map<number, StreamRow>();
    for (const c of setUp.channels ?? []) channels.set(c.id, c);
    if (setUp.includeDefaultChannels ?? true) {
      for (const c of defaultChannels(ctx)) channels.set(c.id, c);
    }
    const list = [...channels.values()].sort((a, b) => a.id - b.id);
    if (list.length > 0) addSubscriptions(ctx, tx, list, [user]);
    setUp.alsoInTransaction?.(tx, user);
    // Any other open e-mail invitation for this address is spent (Zulip revokes them).
    revokeEmailInvitationsFor(ctx.db, user.delivery_email);
    sendWelcome(ctx, tx, user, list, setUp.welcomeMessageCustomText);
  });
}
