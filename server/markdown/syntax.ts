/**
 * Zulip Markdown written by the server itself (the Notification Bot's
 * notices, integrations' messages): silent mentions, topic and message
 * links, topic and message URLs, and other tools' text made safe to show
 * (plain text, links, code spans, quote blocks).
 */
import type { AppContext } from '../core/context.js';
import { realmUrl } from '../shared/realm.js';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/topics.js';
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

/**
 * The web-app URL of a direct message (Zulip's pm_message_url): every
 * participant's id, ascending, tagged `-group` from three people on.
 */
export function directMessageUrl(
  ctx: AppContext,
  participantIds: readonly number[],
  messageId: number,
): string {
  const ids = [...participantIds].sort((a, b) => a - b);
  const slug = `${ids.join(',')}${ids.length >= 3 ? '-group' : ''}`;
  return `${realmUrl(ctx)}/#narrow/dm/${slug}/near/${messageId}`;
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

/** Characters that break `#**channel>topic@id**` (Zulip's current topic_link_util). */
const BREAKS_MESSAGE_LINK = /[`>*&[\]]|\$\$/g;
const MESSAGE_LINK_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

/**
 * Zulip's get_message_link_syntax: `#**channel>topic@id**`, or, when a name
 * would break that, a Markdown link (relative, names HTML-escaped, the empty
 * topic shown by its fallback name) to the message.
 */
export function messageLinkSyntax(
  stream: { id: number; name: string },
  topic: string,
  messageId: number,
): string {
  const breaks = (s: string) => new RegExp(BREAKS_MESSAGE_LINK.source).test(s);
  if (!breaks(stream.name) && !breaks(topic)) return `#**${stream.name}>${topic}@${messageId}**`;
  const escaped = (s: string) =>
    s.replace(BREAKS_MESSAGE_LINK, (c) => MESSAGE_LINK_ESCAPES[c] ?? c);
  const shownTopic = topic === '' ? EMPTY_TOPIC_FALLBACK_NAME : topic;
  const path = topicNarrowPath(stream.id, stream.name, topic).replace(/^\//, '');
  return `[#${escaped(stream.name)} > ${escaped(shownTopic)} @ 💬](${path}/near/${messageId})`;
}

/** Characters that start markup inside a line: code, emphasis, mentions, links (patterns.ts escapes them). */
const INLINE_MARKUP = /[\\`*_[\]]/g;

/**
 * Text from elsewhere (a tool's branch names, titles, people) shown as is
 * on one line: nothing in it becomes emphasis, a link or a mention.
 */
export function plainText(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(INLINE_MARKUP, '\\$&');
}

/**
 * An http(s) URL as a Markdown link target (parentheses and spaces encoded),
 * or null for anything else: a tool's payload decides these, and only web
 * links are worth following from a message.
 */
export function linkTarget(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.href.replace(/[()<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `[text](url)`, or the text alone when the URL is not a web link. */
export function markdownLink(text: string, url: string | null | undefined): string {
  const target = linkTarget(url);
  return target ? `[${plainText(text)}](${target})` : plainText(text);
}

/** A code span holding `text` verbatim, fenced by more backticks than it contains. */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat;
  return `${fence}${padded}${fence}`;
}

/**
 * Mentions written as `@**name**` or `@*group*` made silent: a tool's text
 * (a comment, a commit message) may name people without paging them, and
 * never reaches a whole channel.
 */
export function silenceMentions(text: string): string {
  return text.replace(/@(?=\*)/g, '@_');
}

/** Zulip's quote block around Markdown from elsewhere, mentions silenced, its own fences kept inside. */
export function quoteBlock(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}quote\n${silenceMentions(text.trim())}\n${fence}`;
}

/** Zulip's get_unused_fence: a backtick fence longer than any fence line in `text`. */
export function unusedFence(text: string): string {
  let length = 3;
  for (const match of text.matchAll(/^ {0,3}(`{3,})/gm)) {
    length = Math.max(length, match[1]!.length + 1);
  }
  return '`'.repeat(length);
}

/**
 * The organization's welcome text as the Welcome Bot sends it (Zulip's
 * get_custom_welcome_message_string): quoted, introduced as a note from
 * the administrators.
 */
export function welcomeNoteSyntax(text: string): string {
  const fence = unusedFence(text);
  return `A note from @_*role:administrators*:\n${fence}quote\n${text}\n${fence}`;
}
