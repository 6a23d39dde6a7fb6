import type { AppContext } from '../core/context.js';
import { markdownLookups } from '../db/queries/markdown-lookups.js';
import { type RenderResult, renderMarkdown, renderTopicLinks } from './markdown.js';

export type { RenderResult } from './markdown.js';

/**
 * The one entry point for turning message Markdown into Zulip's HTML: sending,
 * editing, POST /messages/render, scheduled delivery and edit history all
 * come through here.
 */
export function renderMessage(
  ctx: AppContext,
  content: string,
  opts: { translateEmoticons?: boolean } = {},
): RenderResult {
  return renderMarkdown(content, markdownLookups(ctx.db), {
    realmUrl: ctx.config.externalUrl,
    translateEmoticons: opts.translateEmoticons ?? false,
  });
}

export function renderContent(ctx: AppContext, content: string): string {
  return renderMessage(ctx, content).html;
}

/** Linkifiers applied to a topic, for `topic_links`. */
export function topicLinks(ctx: AppContext, topic: string): Array<{ text: string; url: string }> {
  return renderTopicLinks(topic, markdownLookups(ctx.db));
}
