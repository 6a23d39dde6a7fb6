/**
 * Zulip Markdown written by the server itself (the Notification Bot's
 * notices): silent mentions, topic links and topic URLs.
 */
import type { AppContext } from '../core/context.js';
import { realmUrl } from '../shared/realm.js';
import { topicNarrowPath } from './hash.js';

/** Zulip's silent_mention_syntax_for_user: names someone without notifying them. */
export const silentMention = (user: { id: number; full_name: string }) =>
  `@_**${user.full_name}|${user.id}**`;

/** The web-app URL of a channel topic, or of a message in it. */
export function topicUrl(
  ctx: AppContext,
  stream: { id: number; name: string },
  topic: string,
  messageId?: number,
): string {
  const near = messageId !== undefined ? `/near/${messageId}` : '';
  return `${realmUrl(ctx)}${topicNarrowPath(stream.id, stream.name, topic)}${near}`;
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
