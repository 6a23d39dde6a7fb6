import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  allBots,
  insertBotConfig,
  insertBotService,
  setDefaultAllPublicStreams,
  setDefaultEventsRegisterStream,
  setDefaultSendingStream,
} from '../db/queries/bots.js';
import { insertUser, type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { generateApiKey } from '../shared/credentials.js';
import { loadRealm } from '../shared/realm.js';
import { BotType, isAdmin, Role, requireRole } from '../shared/roles.js';
import { botAudience, emitBotAdd, formatBot } from './bot-records.js';
import { avatarUrl } from './format.js';
import { joinSystemGroups } from './group-memberships.js';
import { checkFullName, emitPersonAdd } from './users.js';

/** Embedded bots this server can run (Zulip ships these names). */
export const embeddedBotNames = ['converter', 'xkcd', 'helloworld', 'followup'];

export interface NewBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl?: string;
  interfaceType?: number;
  serviceName?: string;
  configData?: Record<string, string>;
  /**
   * The bot's default channels, resolved once everything else is checked
   * (by the bots area, which knows the channels' access rules).
   */
  defaultChannels?: () => { sendingStreamId: number | null; registerStreamId: number | null };
  defaultAllPublicStreams?: boolean;
}

const SHORT_NAME = /^[a-zA-Z0-9_.+-]+$/;

export function createBot(ctx: AppContext, owner: UserRow, input: NewBotInput) {
  // Zulip's require_member_or_admin: neither guests nor bots create bots.
  requireRole(owner, 'member');
  requireRole(owner, 'human');
  const realm = loadRealm(ctx);
  const fullName = checkFullName(input.fullName);
  const shortName = input.shortName.trim();
  if (!shortName || !SHORT_NAME.test(shortName)) throw badRequest('Bad name or username');
  if (![1, 2, 3, 4].includes(input.botType)) throw badRequest('Invalid bot type');
  if (input.botType === BotType.outgoingWebhook && !input.payloadUrl) {
    throw badRequest('Missing payload_url for outgoing webhook bot');
  }
  if (input.botType === BotType.embedded) {
    if (!input.serviceName || !embeddedBotNames.includes(input.serviceName)) {
      throw badRequest('Invalid embedded bot name.');
    }
  }
  const email = `${shortName.endsWith('-bot') ? shortName : `${shortName}-bot`}@${realm.row.email_domain}`;
  const apiKey = generateApiKey();
  return ctx.transaction((tx) => {
    if (userByEmailKey(ctx.db, email.toLowerCase())) throw badRequest('Username already in use');
    const defaults = input.defaultChannels?.();
    const id = insertUser(ctx.db, {
      delivery_email: email,
      full_name: fullName,
      role: Role.member,
      is_bot: true,
      bot_type: input.botType,
      bot_owner_id: owner.id,
      api_key: apiKey,
      password_hash: null,
      date_joined_ms: ctx.now(),
      // New accounts start from the organization's defaults (PATCH /realm/user_settings_defaults).
      settings: loadRealm(ctx).row.user_settings_defaults,
    });
    if (defaults) {
      setDefaultSendingStream(ctx.db, id, defaults.sendingStreamId);
      setDefaultEventsRegisterStream(ctx.db, id, defaults.registerStreamId);
    }
    if (input.defaultAllPublicStreams) setDefaultAllPublicStreams(ctx.db, id, true);
    if (input.botType === BotType.outgoingWebhook || input.botType === BotType.embedded) {
      insertBotService(ctx.db, id, {
        name: input.serviceName ?? shortName,
        base_url: input.payloadUrl ?? '',
        interface: input.interfaceType ?? 1,
        token: generateApiKey(),
      });
      for (const [key, value] of Object.entries(input.configData ?? {})) {
        insertBotConfig(ctx.db, id, key, value);
      }
    }
    emitPersonAdd(ctx, tx, id);
    joinSystemGroups(ctx, tx, id, Role.member);
    const bot = userById(ctx.db, id)!;
    emitBotAdd(ctx, tx, id, botAudience(ctx, bot));
    const record = formatBot(ctx, bot);
    return {
      user_id: id,
      api_key: apiKey,
      avatar_url: avatarUrl(bot),
      default_sending_stream: record.default_sending_stream,
      default_events_register_stream: record.default_events_register_stream,
      default_all_public_streams: record.default_all_public_streams,
    };
  });
}

/** realm_bots in POST /register: administrators see every bot, others their own. */
export function visibleBots(ctx: AppContext, viewer: UserRow) {
  return allBots(ctx.db)
    .filter((bot) => isAdmin(viewer) || bot.bot_owner_id === viewer.id)
    .map((bot) => formatBot(ctx, bot));
}
