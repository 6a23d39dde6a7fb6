/**
 * The Markdown the compose box writes for people, groups, channels, emoji,
 * quotes and uploads, in Zulip's dialect (what the server's renderer parses).
 */

/** Names that `@**…**` would read as a wildcard mention instead of the person. */
const WILDCARD_NAMES = new Set(['all', 'everyone', 'stream', 'channel', 'topic']);

/**
 * `@**Name**`, or `@**Name|id**` when the name alone is ambiguous (another
 * user has it, or it is a wildcard's name); `silent` gives `@_**…**`, which
 * links without notifying.
 */
export function userMention(
  fullName: string,
  userId: number,
  { silent = false, ambiguous = false }: { silent?: boolean; ambiguous?: boolean } = {},
): string {
  const needsId = ambiguous || WILDCARD_NAMES.has(fullName.toLowerCase());
  return `@${silent ? '_' : ''}**${needsId ? `${fullName}|${userId}` : fullName}**`;
}

export const wildcardMention = (name: string) => `@**${name}**`;
export const groupMention = (name: string, silent = false) => `@${silent ? '_' : ''}*${name}*`;

/** `#**channel**` or `#**channel>topic**` (Zulip's stream and topic links). */
export function channelLink(channel: string, topic?: string): string {
  return topic === undefined ? `#**${channel}**` : `#**${channel}>${topic}**`;
}

export const emojiSyntax = (name: string) => `:${name}:`;

/**
 * A fence that no line of `content` can close early: one backtick longer
 * than the longest backtick run that opens a line inside it (at least three).
 */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) {
    longest = Math.max(longest, match[1]?.length ?? 0);
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Zulip's quote and reply: a silent mention of the sender linking to the
 * message, then its Markdown in a quote block, then an empty line to reply on.
 */
export function quoteBlock(
  sender: { fullName: string; userId: number },
  link: string,
  rawContent: string,
): string {
  const fence = fenceFor(rawContent);
  const mention = `@_**${sender.fullName}|${sender.userId}**`;
  return `${mention} [said](${link}):\n${fence}quote\n${rawContent}\n${fence}\n`;
}

/**
 * What stands in the text while a file uploads (Zulip's wording). Two uploads
 * of one name share it: whichever ends first takes the first, same link.
 */
export const uploadPlaceholder = (fileName: string) => `[Uploading ${escapeLinkText(fileName)}…]()`;

/** Zulip links an upload as `[name](/user_uploads/…)`. */
export const uploadLink = (fileName: string, url: string) =>
  `[${escapeLinkText(fileName)}](${url})`;

/** Brackets in a file name would end the link text early. */
function escapeLinkText(text: string): string {
  return text.replace(/[[\]\\]/g, (c) => `\\${c}`);
}
