import type { AppContext, Tx } from '../core/context.js';
import { insertUser, type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { generateApiKey } from '../shared/credentials.js';
import { loadRealm, realmUrl } from '../shared/realm.js';
import { BotType, Role, syncSystemGroups } from '../shared/roles.js';
import { emitPersonAdd } from './users.js';

export const NOTIFICATION_BOT_NAME = 'Notification Bot';

/**
 * The organization's Notification Bot (Zulip's system bot that announces
 * moves and resolved topics), created on first use. There is one per
 * organization, found by its address.
 */
export function notificationBot(ctx: AppContext, tx: Tx): UserRow {
  const email = `notification-bot@${loadRealm(ctx).row.email_domain}`;
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

/** Zulip's silent_mention_syntax_for_user: names someone without notifying them. */
export const silentMention = (user: Pick<UserRow, 'id' | 'full_name'>) =>
  `@_**${user.full_name}|${user.id}**`;

/** Zulip's encode_hash_component: URL-encoding with "." in place of "%". */
const encodeHashComponent = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');

const channelSlug = (id: number, name: string) =>
  `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

/** The web-app URL of a channel topic, or of a message in it. */
export function topicUrl(
  ctx: AppContext,
  stream: { id: number; name: string },
  topic: string,
  messageId?: number,
): string {
  const near = messageId !== undefined ? `/near/${messageId}` : '';
  return `${realmUrl(ctx)}/#narrow/channel/${channelSlug(stream.id, stream.name)}/topic/${encodeHashComponent(topic)}${near}`;
}

/** Names and topics that would break `#**channel>topic**` (Zulip's topic_link_util). */
const BREAKS_LINK_SYNTAX = /(?<!\\)([`>*&]|\$\$)/;

/** Zulip's get_stream_topic_link_syntax: `#**channel>topic**`, or a plain link when that would break. */
export function topicLinkSyntax(
  ctx: AppContext,
  stream: { id: number; name: string },
  topic: string,
): string {
  if (!BREAKS_LINK_SYNTAX.test(stream.name) && !BREAKS_LINK_SYNTAX.test(topic)) {
    return `#**${stream.name}>${topic}**`;
  }
  const escapeMarkdown = (s: string) => s.replace(/([\\[\]*_`$>&])/g, '\\$1');
  return `[#${escapeMarkdown(stream.name)} > ${escapeMarkdown(topic)}](${topicUrl(ctx, stream, topic)})`;
}
