import type { AppContext, Tx } from '../core/context.js';
import { badRequest, insufficientPermission } from '../core/errors.js';
import { activeAdminIds, botConfig, botServices, setBotOwner } from '../db/queries/bots.js';
import { streamById } from '../db/queries/streams.js';
import { activeUserIds, type UserRow, userById } from '../db/queries/users.js';
import { payloadOnce } from '../events/hub.js';
import { realmUserUpdate } from '../shared/realm-user-update.js';
import { BotType, isAdmin } from '../shared/roles.js';
import type { Bot, EventBody } from '../shared/zulip-api/index.js';
import { avatarUrl } from './format.js';

/* A bot as its administrators see it (realm_bots, realm_bot events), and who they are. */

export const noSuchBot = () => badRequest('No such bot');

const streamName = (ctx: AppContext, id: number | null) =>
  id === null ? null : (streamById(ctx.db, id)?.name ?? null);

/** The `services` of a bot's record: an outgoing webhook's URL, an embedded bot's configuration. */
export function botServiceRecords(ctx: AppContext, bot: UserRow) {
  const services = botServices(ctx.db, bot.id);
  if (bot.bot_type === BotType.outgoingWebhook) {
    return services.map((s) => ({ base_url: s.base_url, interface: s.interface, token: s.token }));
  }
  if (bot.bot_type === BotType.embedded) {
    const config = Object.fromEntries(botConfig(ctx.db, bot.id).map((c) => [c.key, c.value]));
    return services.map((s) => ({ service_name: s.name, config_data: config }));
  }
  return [];
}

/** The realm_bots entry for a bot (owner and administrators receive these). */
export function formatBot(ctx: AppContext, bot: UserRow): Bot {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: streamName(ctx, bot.default_sending_stream_id),
    default_events_register_stream: streamName(ctx, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams === 1,
    avatar_url: avatarUrl(bot),
    owner_id: bot.bot_owner_id,
    services: botServiceRecords(ctx, bot),
    email: bot.delivery_email,
    bot_type: bot.bot_type,
    is_active: bot.is_active === 1,
  };
}

/** Zulip's bot_owner_user_ids: active administrators and the bot's owner. */
export function botAudience(ctx: AppContext, bot: UserRow): number[] {
  const audience = new Set(activeAdminIds(ctx.db));
  if (bot.bot_owner_id !== null) audience.add(bot.bot_owner_id);
  return [...audience];
}

/** realm_bot `update` with the fields that changed, to the bot's administrators. */
export function emitBotUpdate(
  ctx: AppContext,
  tx: Tx,
  bot: UserRow,
  fields: Omit<EventBody<'realm_bot', 'update'>['bot'], 'user_id'>,
): void {
  tx.emit({
    type: 'realm_bot',
    users: botAudience(ctx, bot),
    payload: {
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: bot.id, ...fields },
    } satisfies EventBody<'realm_bot', 'update'>,
  });
}

/** realm_bot `add` with the whole record (as it is when the event is delivered). */
export function emitBotAdd(ctx: AppContext, tx: Tx, botId: number, users: number[]): void {
  if (users.length === 0) return;
  tx.emit({
    type: 'realm_bot',
    users,
    payload: payloadOnce(
      () =>
        ({
          type: 'realm_bot',
          op: 'add',
          bot: formatBot(ctx, userById(ctx.db, botId)!),
        }) satisfies EventBody<'realm_bot', 'add'>,
    ),
  });
}

/**
 * Zulip's send_bot_owner_update_events, after the new owner is written: a
 * previous owner who is no administrator loses the bot (`delete`), a new
 * owner who is none gains it (`add`), the administrators (and an
 * administrator owner) learn the new owner_id, and everyone the bot's
 * bot_owner_id.
 */
export function emitBotOwnerChange(
  ctx: AppContext,
  tx: Tx,
  bot: UserRow,
  newOwner: UserRow,
  previousOwner: UserRow | null,
): void {
  const updated = new Set(botAudience(ctx, { ...bot, bot_owner_id: newOwner.id }));
  if (previousOwner && !isAdmin(previousOwner)) {
    tx.emit({
      type: 'realm_bot',
      users: [previousOwner.id],
      payload: {
        type: 'realm_bot',
        op: 'delete',
        bot: { user_id: bot.id },
      } satisfies EventBody<'realm_bot', 'delete'>,
    });
    updated.delete(previousOwner.id);
  }
  if (!isAdmin(newOwner)) {
    emitBotAdd(ctx, tx, bot.id, [newOwner.id]);
    updated.delete(newOwner.id);
  }
  tx.emit({
    type: 'realm_bot',
    users: [...updated],
    payload: {
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: bot.id, owner_id: newOwner.id },
    } satisfies EventBody<'realm_bot', 'update'>,
  });
  tx.emit({
    type: 'realm_user',
    users: activeUserIds(ctx.db),
    payload: realmUserUpdate(bot.id, { bot_owner_id: newOwner.id }),
  });
}

/** Gives `bot` to `newOwner` (a checked, active person) and tells who needs to know. */
export function changeBotOwner(ctx: AppContext, tx: Tx, bot: UserRow, newOwner: UserRow): UserRow {
  if (bot.bot_owner_id === newOwner.id) return bot;
  const previousOwner =
    bot.bot_owner_id !== null ? (userById(ctx.db, bot.bot_owner_id) ?? null) : null;
  setBotOwner(ctx.db, bot.id, newOwner.id);
  const changed = { ...bot, bot_owner_id: newOwner.id };
  emitBotOwnerChange(ctx, tx, changed, newOwner, previousOwner);
  return changed;
}

/** Zulip's can_admin_user for a bot: its owner and administrators. */
export const canAdminBot = (actor: UserRow, bot: UserRow) =>
  bot.bot_owner_id === actor.id || isAdmin(actor);

/** Zulip's access_bot_by_id: a bot (active or not) that `actor` may administer. */
export function accessBotById(ctx: AppContext, actor: UserRow, botId: number): UserRow {
  const bot = userById(ctx.db, botId);
  if (bot === undefined || !bot.is_bot) throw noSuchBot();
  if (!canAdminBot(actor, bot)) throw insufficientPermission();
  return bot;
}
