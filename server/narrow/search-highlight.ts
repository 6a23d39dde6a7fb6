import { escapeHtml } from '../shared/html.js';
/**
 * The `search` narrow operator: the FTS5 query for messages_fts (topic and
 * the text of the rendered body, tokenizer unicode61 with diacritics removed)
 * and Zulip's match_content / match_subject highlights, computed here from
 * the same words because a contentless FTS table cannot report offsets.
 *
 * Semantics: every word must occur (AND); "quoted words" must occur as a
 * phrase; the last bare word also matches as a prefix, so results follow
 * typing. No stemming (Zulip's Postgres search stems English words).
 */
export interface SearchQuery {
  /** FTS5 MATCH expression; empty when the operand has no searchable word. */
  fts: string;
  /** Normalized words that must match whole. */
  words: Set<string>;
  /** Normalized prefix that also matches the start of a word, or null. */
  prefix: string | null;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Case and diacritics folded the way unicode61 (remove_diacritics 2) folds them. */
export const foldWord = (word: string) =>
  word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const tokensOf = (text: string) =>
  [...text.matchAll(WORD)].map((m) => foldWord(m[0])).filter((w) => w.length > 0);

export function parseSearchOperand(operand: string): SearchQuery {
  const parts: string[] = [];
  const words = new Set<string>();
  let prefix: string | null = null;
  const pieces = [...operand.matchAll(/"([^"]*)"?|([^\s"]+)/g)];
  pieces.forEach((piece, index) => {
    const quoted = piece[1] !== undefined;
    const tokens = tokensOf(quoted ? piece[1]! : piece[2]!);
    if (tokens.length === 0) return;
    for (const token of tokens) words.add(token);
    const isLast = index === pieces.length - 1 && !quoted && !/\s$/.test(operand);
    // "foo-bar" is indexed as the adjacent words foo, bar: a phrase.
    const text = `"${tokens.join(' ')}"`;
    if (isLast) {
      prefix = tokens[tokens.length - 1]!;
      parts.push(`${text}*`);
    } else {
      parts.push(text);
    }
  });
  return { fts: parts.join(' '), words, prefix };
}

/** Merges the queries of several search terms (all of them must match). */
export function mergeSearchQueries(queries: SearchQuery[]): SearchQuery | null {
  if (queries.length === 0) return null;
  const words = new Set<string>();
  for (const q of queries) for (const w of q.words) words.add(w);
  const prefixes = queries.map((q) => q.prefix).filter((p): p is string => p !== null);
  return {
    fts: queries.map((q) => q.fts).join(' '),
    words,
    prefix: prefixes.length > 0 ? prefixes[prefixes.length - 1]! : null,
  };
}

function matches(query: SearchQuery, word: string): boolean {
  const folded = foldWord(word);
  if (query.words.has(folded)) return true;
  return query.prefix !== null && folded.startsWith(query.prefix);
}

/**
 * Wraps matching words in `<span class="highlight">`, only in text: tags,
 * attribute values and character references are copied unchanged.
 */
export function highlightHtml(html: string, query: SearchQuery): string {
  return html.replace(
    /(<[^>]*>)|(&#?[a-zA-Z0-9]+;)|([\p{L}\p{N}\p{M}]+)/gu,
    (whole, tag: string | undefined, entity: string | undefined) => {
      if (tag !== undefined || entity !== undefined) return whole;
      return matches(query, whole) ? `<span class="highlight">${whole}</span>` : whole;
    },
  );
}

/** Zulip's match_subject: the HTML-escaped topic with the same highlighting. */
export const highlightTopic = (topic: string, query: SearchQuery | null) =>
  query ? highlightHtml(escapeHtml(topic), query) : escapeHtml(topic);

export const highlightContent = (renderedContent: string, query: SearchQuery | null) =>
  query ? highlightHtml(renderedContent, query) : renderedContent;
