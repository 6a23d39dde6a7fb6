/** Zulip-flavoured Markdown: the pure renderer, the one render entry for messages, and Markdown the server writes itself. */
export {
  type DatasourceEntry,
  datasourceEntries,
  isUnicodeEmojiCode,
  unicodeEmojiCode,
  unicodeEmojiNamesByCode,
  zulipEmojiCode,
} from './emoji.js';
export { checkLinkifierPattern } from './linkifiers.js';
export type { MarkdownLookups } from './markdown.js';
export type { RenderResult } from './render.js';
export { renderContent, renderMessage, topicLinks } from './render.js';
export {
  codeSpan,
  directMessageUrl,
  linkTarget,
  markdownLink,
  messageLinkSyntax,
  plainText,
  quoteBlock,
  silenceMentions,
  silentMention,
  topicLinkSyntax,
  topicUrl,
  unusedFence,
  welcomeNoteSyntax,
} from './syntax.js';
