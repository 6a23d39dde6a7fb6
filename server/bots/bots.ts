import { accessChannelByName } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  activeAccountNamed,
  activeBotsOwnedBy,
  botConfig,
  setDefaultAllPublicStreams,
  setDefaultEventsRegisterStream,
  setDefaultSendingStream,
  updateBotService,
  upsertBotConfig,
} from '../db/queries/bots.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { MAX_BOT_CONFIG_SIZE } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { BotType, requireRole } from '../shared/roles.js';
import { leavePrivateChannelsHiddenFromOwner } from '../subscriptions/index.js';
import {
  accessBotById,
  apiEmail,
  botServiceRecords,
  changeBotOwner,
  changeFullName,
  changeRole,
  checkFullName,
  checkRoleChange,
  createBot,
  deactivateAccount,
  dropEventQueues,
  emitBotUpdate,
  formatBot,
  type NewBotInput,
  replaceApiKey,
} from '../users/index.js';

/** Zulip's require_member_or_admin: neither guests nor bots administer bots through these. */
function requireBotAdministrator(actor: UserRow): void {
  requireRole(actor, 'member');
  requireRole(actor, 'human');
}

/** GET /bots (Zulip's get_bots_backend): the caller's own active bots, oldest first, with keys. */
export function listOwnBots(ctx: AppContext, actor: UserRow) {
  requireBotAdministrator(actor);
  return {
    bots: activeBotsOwnedBy(ctx.db, actor.id).map((bot) => {
      const record = formatBot(ctx, bot);
      return {
        username: bot.delivery_email,
        full_name: record.full_name,
        api_key: record.api_key,
        avatar_url: record.avatar_url,
        default_sending_stream: record.default_sending_stream,
        default_events_register_stream: record.default_events_register_stream,
        default_all_public_streams: record.default_all_public_streams,
      };
    }),
  };
}

export interface BotChanges {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  /** A channel name; "" clears it. */
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  servicePayloadUrl?: string;
  serviceInterface: number;
  configData?: Record<string, string>;
}

/** Zulip's outgoing-webhook formats: 1 its own, 2 Slack's. */
const SERVICE_INTERFACES = [1, 2];

function checkPayloadUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('service_payload_url is not a URL');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.hostname === '') {
    throw badRequest('service_payload_url is not a URL');
  }
  return url;
}

/** Zulip's check_bot_name_available: no two active accounts share a new bot name. */
function checkBotName(ctx: AppContext, bot: UserRow, raw: string): string {
  const name = checkFullName(raw);
  if (name !== bot.full_name && activeAccountNamed(ctx.db, name)) {
    throw badRequest('Name is already in use.');
  }
  return name;
}

function checkNewOwner(ctx: AppContext, ownerId: number): UserRow {
  const owner = userById(ctx.db, ownerId);
  if (!owner) throw badRequest('Failed to change owner, no such user');
  if (!owner.is_active) throw badRequest('Failed to change owner, user is deactivated');
  if (owner.is_bot) throw badRequest("Failed to change owner, bots can't own other bots");
  return owner;
}

/** A default channel by name ("" for none), one the caller may read (access_stream_by_name). */
function defaultChannel(ctx: AppContext, actor: UserRow, name: string | undefined) {
  if (name === undefined) return undefined;
  return name === '' ? null : accessChannelByName(ctx, actor, name).id;
}

/**
 * POST /bots: the users area creates the account; the default channels come
 * by name, each one the creator may read (Zulip's add_bot_backend).
 */
export function addBot(
  ctx: AppContext,
  owner: UserRow,
  input: Omit<NewBotInput, 'defaultChannels'> & {
    defaultSendingStream?: string;
    defaultEventsRegisterStream?: string;
  },
) {
  const { defaultSendingStream, defaultEventsRegisterStream, ...rest } = input;
  return createBot(ctx, owner, {
    ...rest,
    defaultChannels: () => ({
      sendingStreamId: defaultChannel(ctx, owner, defaultSendingStream) ?? null,
      registerStreamId: defaultChannel(ctx, owner, defaultEventsRegisterStream) ?? null,
    }),
  });
}

/** The embedded bot's configuration after `changes`, within Zulip's size limit. */
function checkConfig(ctx: AppContext, bot: UserRow, changes: Record<string, string>): void {
  const merged = new Map(botConfig(ctx.db, bot.id).map((c) => [c.key, c.value]));
  for (const [key, value] of Object.entries(changes)) merged.set(key, value);
  let size = 0;
  for (const [key, value] of merged) size += [...key].length + [...value].length;
  if (size > MAX_BOT_CONFIG_SIZE) {
    throw badRequest(
      `Maximum storage size exceeded! Current size is ${size}, limit is ${MAX_BOT_CONFIG_SIZE}.`,
    );
  }
}

/**
 * PATCH /bots/{bot_id} (Zulip's patch_bot_backend): the bot's owner or an
 * administrator changes its name, owner, default channels and service;
 * roles follow the rules of PATCH /users/{id}. Everything is checked before
 * anything is written, then written in one transaction.
 */
export function updateBot(ctx: AppContext, actor: UserRow, botId: number, changes: BotChanges) {
  requireBotAdministrator(actor);
  const bot = accessBotById(ctx, actor, botId);
  const fullName =
    changes.fullName !== undefined ? checkBotName(ctx, bot, changes.fullName) : undefined;
  if (changes.role !== undefined) checkRoleChange(ctx, actor, bot, changes.role);
  const owner =
    changes.botOwnerId !== undefined ? checkNewOwner(ctx, changes.botOwnerId) : undefined;
  const sendingStream = defaultChannel(ctx, actor, changes.defaultSendingStream);
  const registerStream = defaultChannel(ctx, actor, changes.defaultEventsRegisterStream);
  if (changes.servicePayloadUrl !== undefined) {
    checkPayloadUrl(changes.servicePayloadUrl);
    if (!SERVICE_INTERFACES.includes(changes.serviceInterface)) {
      throw badRequest('Invalid interface type');
    }
    if (bot.bot_type !== BotType.outgoingWebhook) {
      throw badRequest('Only outgoing webhook bots have a payload URL');
    }
  }
  if (changes.configData !== undefined) {
    if (bot.bot_type !== BotType.embedded) {
      throw badRequest('Only embedded bots have configuration data');
    }
    checkConfig(ctx, bot, changes.configData);
  }

  ctx.transaction((tx) => {
    let row = bot;
    if (fullName !== undefined) changeFullName(ctx, tx, row, fullName);
    if (changes.role !== undefined) changeRole(ctx, tx, row, changes.role);
    if (owner && owner.id !== row.bot_owner_id) {
      row = changeBotOwner(ctx, tx, row, owner);
      leavePrivateChannelsHiddenFromOwner(ctx, tx, row, owner);
    }
    if (sendingStream !== undefined && sendingStream !== row.default_sending_stream_id) {
      setDefaultSendingStream(ctx.db, row.id, sendingStream);
      const name = formatBot(ctx, userById(ctx.db, row.id)!).default_sending_stream;
      emitBotUpdate(ctx, tx, row, { default_sending_stream: name });
    }
    if (registerStream !== undefined && registerStream !== row.default_events_register_stream_id) {
      setDefaultEventsRegisterStream(ctx.db, row.id, registerStream);
      const name = formatBot(ctx, userById(ctx.db, row.id)!).default_events_register_stream;
      emitBotUpdate(ctx, tx, row, { default_events_register_stream: name });
    }
    const allPublic = changes.defaultAllPublicStreams;
    if (allPublic !== undefined && allPublic !== (row.default_all_public_streams === 1)) {
      setDefaultAllPublicStreams(ctx.db, row.id, allPublic);
      emitBotUpdate(ctx, tx, row, { default_all_public_streams: allPublic });
    }
    if (changes.servicePayloadUrl !== undefined) {
      updateBotService(ctx.db, row.id, changes.servicePayloadUrl, changes.serviceInterface);
      emitBotUpdate(ctx, tx, row, { services: botServiceRecords(ctx, row) });
    }
    if (changes.configData !== undefined) {
      for (const [key, value] of Object.entries(changes.configData)) {
        upsertBotConfig(ctx.db, row.id, key, value);
      }
      emitBotUpdate(ctx, tx, row, { services: botServiceRecords(ctx, row) });
    }
  });

  const after = userById(ctx.db, bot.id)!;
  const record = formatBot(ctx, after);
  const botOwner = after.bot_owner_id !== null ? userById(ctx.db, after.bot_owner_id) : undefined;
  return {
    full_name: after.full_name,
    avatar_url: record.avatar_url,
    service_interface: changes.serviceInterface,
    service_payload_url: changes.servicePayloadUrl ?? null,
    config_data: changes.configData ?? null,
    default_sending_stream: record.default_sending_stream,
    default_events_register_stream: record.default_events_register_stream,
    default_all_public_streams: record.default_all_public_streams,
    // Zulip leaves bot_owner out for a bot without one.
    ...(botOwner ? { bot_owner: apiEmail(botOwner, loadRealm(ctx).row.email_domain) } : {}),
  };
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
export function regenerateBotApiKey(ctx: AppContext, actor: UserRow, botId: number) {
  requireBotAdministrator(actor);
  const bot = accessBotById(ctx, actor, botId);
  return { api_key: ctx.transaction((tx) => replaceApiKey(ctx, tx, bot)) };
}

/**
 * DELETE /bots/{bot_id} (Zulip's deactivate_bot_backend): the bot's owner or
 * an administrator; a bot already deactivated stays so, without events.
 */
export function deactivateBot(ctx: AppContext, actor: UserRow, botId: number) {
  const bot = accessBotById(ctx, actor, botId);
  if (!bot.is_active) return {};
  const gone = ctx.transaction((tx) => deactivateAccount(ctx, tx, bot));
  dropEventQueues(ctx, gone);
  return {};
}
