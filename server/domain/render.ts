import type { AppContext } from '../context.js';

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/**
 * Message Markdown to HTML. Until the Zulip-dialect renderer (server/markdown)
 * is wired in, paragraphs are escaped text; callers already go through here.
 */
export function renderContent(_ctx: AppContext, content: string): string {
  return content
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
