import type { AppContext, Tx } from '../core/context.js';
import { insertUser, type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { generateApiKey } from '../shared/credentials.js';
import { BotType, Role, syncSystemGroups } from '../shared/roles.js';
import { notificationBotEmail } from './system-bots.js';
import { emitPersonAdd } from './users.js';

export const NOTIFICATION_BOT_NAME = 'Notification Bot';

/**
 * The organization's Notification Bot (Zulip's system bot that announces
 * moves and resolved topics), created on first use. There is one per
 * organization, found by its address.
 */
export function notificationBot(ctx: AppContext, tx: Tx): UserRow {
  const email = notificationBotEmail(ctx);
  const existing = userByEmailKey(ctx.db, email.toLowerCase());
  if (existing) return existing;
  const id = insertUser(ctx.db, {
    delivery_email: email,
    full_name: NOTIFICATION_BOT_NAME,
    role: Role.member,
    is_bot: true,
    bot_type: BotType.generic,
    bot_owner_id: null,
    api_key: generateApiKey(),
    password_hash: null,
    date_joined_ms: ctx.now(),
  });
  syncSystemGroups(ctx.db, id, Role.member);
  emitPersonAdd(ctx, tx, id);
  return userById(ctx.db, id)!;
}
