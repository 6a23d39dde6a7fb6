import { parseBlocks, separateHangingLists } from './blocks.js';
import { processFences } from './fence.js';
import { InlineRenderer } from './inline.js';
import { INLINE_PATTERNS } from './patterns.js';
import { Serializer } from './serialize.js';
import type { MarkdownLookups, MarkdownOptions, RenderContext, RenderResult } from './types.js';

export { preloadEmoji } from './emoji.js';
export { renderTopicLinks } from './linkifiers.js';
export type {
  MarkdownChannel,
  MarkdownGroup,
  MarkdownLinkifier,
  MarkdownLookups,
  MarkdownOptions,
  MarkdownRealmEmoji,
  MarkdownUploadPreview,
  MarkdownUser,
  RenderResult,
} from './types.js';

/**
 * Normalises input the way Python-Markdown does before parsing: one newline
 * style, tabs expanded to four columns, whitespace-only lines emptied. Our
 * private-use placeholder characters are removed so user text can never
 * impersonate rendered markup.
 */
function normalize(content: string): string {
  let text = content.replace(/\r\n?/g, '\n').replace(/[\uE000-\uE003]/g, '\uFFFD');
  if (text.includes('\t')) {
    text = text
      .split('\n')
      .map((line) => {
        let out = '';
        for (const c of line) out += c === '\t' ? ' '.repeat(4 - (out.length % 4)) : c;
        return out;
      })
      .join('\n');
  }
  return text.replace(/^[ ]+$/gm, '');
}

/**
 * Renders a message's Markdown to Zulip-compatible HTML and reports what it
 * mentions and contains. Pure and synchronous: everything about the
 * organisation comes from `lookups`.
 */
export function renderMarkdown(
  content: string,
  lookups: MarkdownLookups,
  options: MarkdownOptions,
): RenderResult {
  const result: RenderResult = {
    html: '',
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    uploadPathIds: [],
    isMeMessage: content.startsWith('/me '),
  };
  const ctx: RenderContext = {
    lookups,
    options,
    realmUrl: options.realmUrl.replace(/\/+$/, ''),
    result,
    seenPreviews: new Set(),
  };
  const text = normalize(content);
  if (!text.trim()) return result;
  const blockStash: string[] = [];
  const lines = separateHangingLists(processFences(text.split('\n'), blockStash));
  const root = parseBlocks(lines.join('\n'));
  const inline = new InlineRenderer(ctx, INLINE_PATTERNS, blockStash);
  result.html = new Serializer(inline, blockStash).document(root);
  return result;
}
