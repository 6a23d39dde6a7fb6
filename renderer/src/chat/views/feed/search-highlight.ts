import { escapeHtml } from '../../../../../server/shared/html.js';
import type { Message, Narrow } from '../../data/model.js';
import { canonicalOperatorOf } from '../../data/narrow.js';

/**
 * Search results drawn with their matches highlighted, as Zulip's web app
 * draws them: for a keyword search the server sends each message's
 * `match_content` (its HTML with `<span class="highlight">` around matching
 * words) and `match_subject` (the escaped topic, highlighted the same way),
 * and the feed shows them in place of the content and topic. Other narrows
 * show the plain content even for a message fetched by a search.
 */

/** A narrow with free-text search terms: the one kind where the server highlights. */
export const isKeywordSearch = (narrow: Narrow): boolean =>
  narrow.some((term) => canonicalOperatorOf(term.operator) === 'search' && !term.negated);

/** The HTML to draw: the highlighted content in a keyword search, else the content. */
export function contentToShow(message: Message, keywordSearch: boolean): string {
  return keywordSearch && typeof message.match_content === 'string'
    ? message.match_content
    : message.content;
}

/**
 * The highlighted topic's HTML, or null when there is nothing highlighted or
 * it no longer spells the message's topic (the topic was moved since).
 */
export function highlightedTopic(message: Message, keywordSearch: boolean): string | null {
  const html = message.match_subject;
  if (!keywordSearch || typeof html !== 'string' || !html.includes('class="highlight"'))
    return null;
  // The server escapes the topic with the same rule before adding its spans.
  return html.replace(/<\/?span[^>]*>/g, '') === escapeHtml(message.subject) ? html : null;
}
