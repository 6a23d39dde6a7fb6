import { escapeAttr, escapeTextStrict } from './escape.js';
import { channelNarrowPath, topicNarrowPath } from './hash.js';
import { type InlinePattern, regexPattern } from './inline.js';
import type { MarkdownUser, RenderContext } from './types.js';

/**
 * Mentions and channel links. What they resolve to depends on the
 * organisation, so each handler asks the lookups and, when nothing matches,
 * declines: the text then falls through to emphasis, as on Zulip, where an
 * unknown `@**name**` renders as bold text.
 */

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);

function findUser(spec: string, ctx: RenderContext): MarkdownUser | undefined {
  const bar = spec.lastIndexOf('|');
  if (bar !== -1) {
    const idText = spec.slice(bar + 1);
    if (!/^\d+$/.test(idText)) return undefined;
    const user = ctx.lookups.userById(Number(idText));
    const name = spec.slice(0, bar).trim();
    if (!user) return undefined;
    if (name && name.toLowerCase() !== user.fullName.toLowerCase()) return undefined;
    return user;
  }
  const matches = ctx.lookups.usersByName(spec.trim());
  // An ambiguous name needs the `|id` form; guessing would notify the wrong person.
  return matches.length === 1 ? matches[0] : undefined;
}

const USER_MENTION = /(?<![^\s'"({[/<])@(_?)\*\*([^*]+)\*\*/g;
const GROUP_MENTION = /(?<![^\s'"({[/<])@(_?)\*([^*]+)\*/g;

/**
 * Quoted text mentions nobody: Zulip makes every user and group mention in a
 * quoted line silent before the quote is parsed, so quoting a message (as
 * quote-and-reply does) does not notify the people it mentioned again.
 */
export function silenceMentions(line: string): string {
  // Copies: the patterns' lastIndex belongs to the inline scanner.
  return line
    .replace(new RegExp(USER_MENTION), (_m, _silent, spec: string) => `@_**${spec}**`)
    .replace(new RegExp(GROUP_MENTION), (_m, _silent, name: string) => `@_*${name}*`);
}

export const userMentionPattern: InlinePattern = regexPattern(
  'user_mention',
  USER_MENTION,
  (m, st) => {
    const silent = m[1] === '_';
    const spec = m[2]!;
    const ctx = st.ctx;
    const cls = silent ? ' silent' : '';
    const at = silent ? '' : '@';
    const lower = spec.trim().toLowerCase();
    if (STREAM_WILDCARDS.has(lower)) {
      if (!silent) ctx.result.streamWildcard = true;
      return {
        html: `<span class="user-mention channel-wildcard-mention${cls}" data-user-id="*">${at}${escapeTextStrict(lower)}</span>`,
      };
    }
    if (lower === 'topic') {
      if (!silent) ctx.result.topicWildcard = true;
      return { html: `<span class="topic-mention${cls}">${at}topic</span>` };
    }
    const user = findUser(spec, ctx);
    if (!user) return null;
    // Deactivated users are still shown as mentions but are not notified.
    if (!silent && user.isActive !== false) ctx.result.mentionedUserIds.add(user.id);
    return {
      html: `<span class="user-mention${cls}" data-user-id="${user.id}">${at}${escapeTextStrict(user.fullName)}</span>`,
    };
  },
  { trigger: '@' },
);

export const groupMentionPattern: InlinePattern = regexPattern(
  'group_mention',
  GROUP_MENTION,
  (m, st) => {
    const silent = m[1] === '_';
    const group = st.ctx.lookups.groupByName(m[2]!.trim());
    if (!group) return null;
    if (!silent) st.ctx.result.mentionedGroupIds.add(group.id);
    const cls = silent ? ' silent' : '';
    return {
      html: `<span class="user-group-mention${cls}" data-user-group-id="${group.id}">${silent ? '' : '@'}${escapeTextStrict(group.name)}</span>`,
    };
  },
  { trigger: '@' },
);

export const topicLinkPattern: InlinePattern = regexPattern(
  'topic_link',
  /(?<![^\s'"(,:<])#\*\*([^*>]+)>([^*]+)\*\*/g,
  (m, st) => {
    const channel = st.ctx.lookups.channelByName(m[1]!.trim());
    if (!channel) return null;
    let topic = m[2]!;
    const near = /@(\d+)$/.exec(topic);
    if (near) topic = topic.slice(0, near.index);
    const path = topicNarrowPath(channel.id, channel.name, topic);
    const label = `#${escapeTextStrict(channel.name)} &gt; ${escapeTextStrict(topic)}`;
    if (near) {
      return {
        html: `<a class="message-link" href="${escapeAttr(`${path}/near/${near[1]}`)}">${label} @ 💬</a>`,
      };
    }
    return {
      html: `<a class="stream-topic" data-stream-id="${channel.id}" href="${escapeAttr(path)}">${label}</a>`,
    };
  },
  { trigger: '#**' },
);

export const channelLinkPattern: InlinePattern = regexPattern(
  'channel_link',
  /(?<![^\s'"(,:<])#\*\*([^*>]+)\*\*/g,
  (m, st) => {
    const channel = st.ctx.lookups.channelByName(m[1]!.trim());
    if (!channel) return null;
    const path = channelNarrowPath(channel.id, channel.name);
    return {
      html: `<a class="stream" data-stream-id="${channel.id}" href="${escapeAttr(path)}">#${escapeTextStrict(channel.name)}</a>`,
    };
  },
  { trigger: '#**' },
);
