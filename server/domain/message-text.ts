import { badRequest } from '../errors.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from './limits.js';

const TRUNCATION_NOTICE = '\n[message truncated]';

/** Zulip's normalize_body: trims, rejects empty or NUL-containing content, truncates long content. */
export function normalizeContent(raw: string): string {
  const body = raw.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (body.length === 0) throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  const chars = [...body];
  if (chars.length > MAX_MESSAGE_LENGTH) {
    return (
      chars.slice(0, MAX_MESSAGE_LENGTH - TRUNCATION_NOTICE.length).join('') + TRUNCATION_NOTICE
    );
  }
  return body;
}

export const RESOLVED_TOPIC_PREFIX = '✔ ';

/**
 * A topic as given by a client: stripped, `(no topic)` and the organization's
 * empty-topic display name mean the empty topic, over-long topics are cut to
 * 57 characters plus "...".
 */
export function normalizeTopic(raw: string, emptyTopicDisplayName: string): string {
  let topic = raw.trim();
  if (topic === '(no topic)' || topic === emptyTopicDisplayName) topic = '';
  const chars = [...topic];
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      throw badRequest(`Invalid character in topic, at position ${i + 1}!`);
    }
  }
  if (chars.length > MAX_TOPIC_LENGTH) return `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join('')}...`;
  return topic;
}

/** Plain text of rendered HTML, for the search index. */
export function searchableText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
