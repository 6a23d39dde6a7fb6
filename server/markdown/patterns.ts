import { EMOTICONS, renderEmojiName, renderUnicodeEmoji } from './emoji.js';
import { escapeText, escapeTextStrict } from './escape.js';
import { type InlinePattern, regexPattern } from './inline.js';
import { linkifierPattern } from './linkifiers.js';
import { bareLinkPattern, markdownLinkPattern } from './links.js';
import { renderInlineTex } from './math.js';
import {
  channelLinkPattern,
  groupMentionPattern,
  topicLinkPattern,
  userMentionPattern,
} from './mentions.js';
import { renderTime } from './time.js';

/**
 * The order is the priority: earlier patterns claim text first. Code spans
 * and math come before everything so nothing inside them is interpreted;
 * mentions and links come before emphasis so `**` inside them is theirs; bare
 * URLs come after emphasis so `**http://x.y**` still links.
 */

const backtick = regexPattern(
  'backtick',
  /(?<!\\)(`+)(.+?)(?<!`)\1(?!`)/g,
  (m) => ({ html: `<code>${escapeTextStrict(m[2]!)}</code>` }),
  { trigger: '`' },
);

const tex = regexPattern(
  'tex',
  /(?<![\\$])\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/g,
  (m) => ({ html: renderInlineTex(m[1]!) }),
  { trigger: '$$' },
);

/** Backslash escapes for the characters Markdown gives meaning to. */
const backslashEscape = regexPattern(
  'escape',
  /\\([\\`*_{}[\]()>#+\-.!])/g,
  (m) => ({ html: escapeText(m[1]!) }),
  { trigger: '\\' },
);

const timestamp = regexPattern(
  'timestamp',
  /<time:([^>]*)>/g,
  (m) => ({ html: renderTime(m[1]!) }),
  {
    trigger: '<time:',
  },
);

function wrap(tag: string, re: RegExp, trigger: string): InlinePattern {
  return regexPattern(
    tag,
    re,
    (m, st, index) => ({
      open: `<${tag}>`,
      inner: st.process(m[1]!, index + 1),
      close: `</${tag}>`,
    }),
    { trigger },
  );
}

const strongEm = regexPattern(
  'strong_em',
  /\*\*\*(?!\s)([^\n]+?)(?<!\s)\*\*\*/g,
  (m, st, index) => ({
    open: '<strong><em>',
    inner: st.process(m[1]!, index + 1),
    close: '</em></strong>',
  }),
  { trigger: '***' },
);
const strong = wrap('strong', /\*\*([^\n]+?)\*\*/g, '**');
const em = wrap('em', /\*(?!\s)([^*\n]+?)(?<!\s)\*/g, '*');
const del = wrap('del', /(?<!~)~~([^~\n]+)~~(?!~)/g, '~~');

const emojiName = regexPattern(
  'emoji',
  /:([\p{L}\p{N}_+-]+):/gu,
  (m, st) => {
    const html = renderEmojiName(m[1]!, st.ctx.lookups);
    return html ? { html } : null;
  },
  { trigger: ':' },
);

const UNICODE_EMOJI =
  /[#*0-9]\uFE0F?\u20E3|\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*/gu;

const unicodeEmoji = regexPattern(
  'unicode_emoji',
  UNICODE_EMOJI,
  (m) => {
    const seq = m[0];
    // Zulip leaves symbols below U+2000 (©, ®) alone; keycaps are the exception.
    if (seq.codePointAt(0)! < 0x2000 && !seq.endsWith('\u20E3')) return null;
    // An unknown sequence stays as typed, whole: its parts are not emoji on their own here.
    return { html: renderUnicodeEmoji(seq) ?? seq };
  },
  { trigger: /[\u2000-\u3300]|[\uD83C-\uD83E]/ },
);

const emoticon = regexPattern(
  'emoticon',
  /(?<![^\s.,;!?])(:\)|\(:|:\(|<3|:\||:\/|:D|;\))(?![^\s.,;!?])/g,
  (m, st) => {
    const name = EMOTICONS[m[1]!];
    const html = name ? renderEmojiName(name, st.ctx.lookups) : null;
    return html ? { html } : null;
  },
  { enabled: (ctx) => !!ctx.options.translateEmoticons },
);

export const INLINE_PATTERNS: InlinePattern[] = [
  backtick,
  tex,
  backslashEscape,
  timestamp,
  topicLinkPattern,
  channelLinkPattern,
  userMentionPattern,
  groupMentionPattern,
  markdownLinkPattern,
  strongEm,
  strong,
  em,
  del,
  bareLinkPattern,
  linkifierPattern,
  emojiName,
  unicodeEmoji,
  emoticon,
];
