import type { AppContext } from '../core/context.js';
import { markdownLookups } from '../db/queries/markdown-lookups.js';
import { type RenderResult, renderMarkdown, renderTopicLinks } from './markdown.js';
import type { MarkdownLookups } from './types.js';

export type { RenderResult } from './markdown.js';

/**
 * The one entry point for turning message Markdown into Zulip's HTML: sending,
 * editing, POST /messages/render, scheduled delivery and edit history all
 * come through here.
 */
export function renderMessage(
  ctx: AppContext,
  content: string,
  opts: {
    translateEmoticons?: boolean;
    /**
     * Which users the message's sender may mention: those they may see
     * (Zulip's MentionBackend drops the users the sender cannot access, so
     * their mentions stay text). Default: everyone.
     */
    mentionable?: (userId: number) => boolean;
  } = {},
): RenderResult {
  return renderMarkdown(content, mentionableLookups(markdownLookups(ctx.db), opts.mentionable), {
    realmUrl: ctx.config.externalUrl,
    translateEmoticons: opts.translateEmoticons ?? false,
  });
}

function mentionableLookups(
  lookups: MarkdownLookups,
  mentionable: ((userId: number) => boolean) | undefined,
): MarkdownLookups {
  if (!mentionable) return lookups;
  return {
    ...lookups,
    userById: (id) => {
      const user = lookups.userById(id);
      return user && mentionable(user.id) ? user : undefined;
    },
    usersByName: (fullName) => lookups.usersByName(fullName).filter((u) => mentionable(u.id)),
  };
}

export function renderContent(ctx: AppContext, content: string): string {
  return renderMessage(ctx, content).html;
}

/** Linkifiers applied to a topic, for `topic_links`. */
export function topicLinks(ctx: AppContext, topic: string): Array<{ text: string; url: string }> {
  return renderTopicLinks(topic, markdownLookups(ctx.db));
}
