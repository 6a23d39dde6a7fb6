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

/** One search operand: its query and the parts of its FTS5 expression. */
export interface SearchOperand extends SearchQuery {
  /** The FTS5 phrases that must match whole (`fts` without the prefix phrase). */
  wholePhrases: string[];
  /** Tokens of the phrase whose last token matches as a prefix, or null. */
  prefixPhrase: string[] | null;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Case and diacritics folded the way unicode61 (remove_diacritics 2) folds
 * them. Highlighting folds every word of every message returned, so ASCII
 * words, which decomposition leaves alone, skip it.
 */
export const foldWord = (word: string) =>
  ASCII.test(word)
    ? word.toLowerCase()
    : word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const tokensOf = (text: string) =>
  [...text.matchAll(WORD)].map((m) => foldWord(m[0])).filter((w) => w.length > 0);

export function parseSearchOperand(operand: string): SearchOperand {
  const parts: string[] = [];
  const wholePhrases: string[] = [];
  const words = new Set<string>();
  let prefix: string | null = null;
  let prefixPhrase: string[] | null = null;
  const pieces = [...operand.matchAll(/"([^"]*)"?|([^\s"]+)/g)];
  pieces.forEach((piece, index) => {
    const quoted = piece[1] !== undefined;
    const tokens = tokensOf(quoted ? piece[1]! : piece[2]!);
    if (tokens.length === 0) return;
    for (const token of tokens) words.add(token);
    const isLast = index === pieces.length - 1 && !quoted && !/\s$/.test(operand);
    // "foo-bar" is indexed as the adjacent words foo, bar: a phrase.
    const text = ftsPhrase(tokens);
    if (isLast) {
      prefix = tokens[tokens.length - 1]!;
      prefixPhrase = tokens;
      parts.push(`${text}*`);
    } else {
      parts.push(text);
      wholePhrases.push(text);
    }
  });
  return { fts: parts.join(' '), words, prefix, wholePhrases, prefixPhrase };
}

/** An FTS5 phrase of these tokens (a `"` inside a string is doubled). */
const ftsPhrase = (tokens: string[]) => `"${tokens.join(' ').replaceAll('"', '""')}"`;

/**
 * The query's FTS5 expression with its prefix phrase replaced by the same
 * phrase ending in each whole word that completes the prefix (the prefix
 * itself included): FTS5 reads an OR of words newest first and stops at the
 * LIMIT, while a prefix query merges every match of every completion first.
 * `completions` must be every indexed word that starts with the prefix.
 */
export function ftsWithCompletions(query: SearchOperand, completions: readonly string[]): string {
  if (query.prefixPhrase === null) return query.fts;
  const head = query.prefixPhrase.slice(0, -1);
  const words = new Set([query.prefix!, ...completions]);
  const alternatives = [...words].map((word) => ftsPhrase([...head, word]));
  const ored = alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`;
  return [...query.wholePhrases, ored].join(' AND ');
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

const HTML_TOKENS = /(<[^>]*>)|(&#?[a-zA-Z0-9]+;)|([\p{L}\p{N}\p{M}]+)/gu;

/**
 * For ASCII text and an ASCII query, a pattern that finds only the matching
 * words (a word there is a run of [A-Za-z0-9], folded by lower-casing), so
 * the replacement runs for the few matches and tags instead of for every
 * word: about half of a search page's highlighting time. Null when the
 * query has a word outside ASCII.
 */
const asciiMatchers = new WeakMap<SearchQuery, RegExp | null>();
function asciiMatcher(query: SearchQuery): RegExp | null {
  let matcher = asciiMatchers.get(query);
  if (matcher !== undefined) return matcher;
  const words = [...query.words];
  if ([...words, query.prefix ?? ''].every((w) => /^[a-z0-9]*$/.test(w))) {
    const alternatives = words.filter((w) => w.length > 0);
    if (query.prefix) alternatives.push(`${query.prefix}[A-Za-z0-9]*`);
    matcher = new RegExp(
      `(<[^>]*>)|(&#?[a-zA-Z0-9]+;)|(?<![A-Za-z0-9])(?:${alternatives.join('|') || '(?!)'})(?![A-Za-z0-9])`,
      'gi',
    );
  } else {
    matcher = null;
  }
  asciiMatchers.set(query, matcher);
  return matcher;
}

/**
 * Wraps matching words in `<span class="highlight">`, only in text: tags,
 * attribute values and character references are copied unchanged.
 */
export function highlightHtml(html: string, query: SearchQuery): string {
  const ascii = ASCII.test(html) ? asciiMatcher(query) : null;
  return html.replace(
    ascii ?? HTML_TOKENS,
    (whole, tag: string | undefined, entity: string | undefined) => {
      if (tag !== undefined || entity !== undefined) return whole;
      return ascii || matches(query, whole) ? `<span class="highlight">${whole}</span>` : whole;
    },
  );
}

/** Zulip's match_subject: the HTML-escaped topic with the same highlighting. */
export const highlightTopic = (topic: string, query: SearchQuery | null) =>
  query ? highlightHtml(escapeHtml(topic), query) : escapeHtml(topic);

export const highlightContent = (renderedContent: string, query: SearchQuery | null) =>
  query ? highlightHtml(renderedContent, query) : renderedContent;
