import type { AppContext, Tx } from '../core/context.js';
import { insertUser, type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { generateApiKey } from '../shared/credentials.js';
import { BotType, Role } from '../shared/roles.js';
import { botAudience, emitBotAdd } from './bot-records.js';
import { joinSystemGroups } from './group-memberships.js';
import { SYSTEM_BOTS, type SystemBotKind, systemBotEmail } from './system-bots.js';
import { emitPersonAdd } from './users.js';

/** The system bot of that kind, created (and announced) when missing. */
export function ensureSystemBot(ctx: AppContext, tx: Tx, kind: SystemBotKind): UserRow {
  const existing = userByEmailKey(ctx.db, systemBotEmail(ctx, kind).toLowerCase());
  if (existing) return existing;
  const id = insertUser(ctx.db, {
    delivery_email: systemBotEmail(ctx, kind),
    full_name: SYSTEM_BOTS[kind].name,
    role: Role.member,
    is_bot: true,
    bot_type: BotType.generic,
    bot_owner_id: null,
    api_key: generateApiKey(),
    password_hash: null,
    date_joined_ms: ctx.now(),
  });
  emitPersonAdd(ctx, tx, id);
  joinSystemGroups(ctx, tx, id, Role.member);
  // Administrators list every bot (realm_bots), this one too.
  emitBotAdd(ctx, tx, id, botAudience(ctx, userById(ctx.db, id)!));
  return userById(ctx.db, id)!;
}

/**
 * The organization's Notification Bot (Zulip's system bot that announces
 * moves and resolved topics), created on first use.
 */
export const notificationBot = (ctx: AppContext, tx: Tx): UserRow =>
  ensureSystemBot(ctx, tx, 'notification');
