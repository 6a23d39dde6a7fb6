import { parseTemplate } from 'url-template';
import { escapeAttr, escapeTextStrict } from './escape.js';
import type { InlineMatch, InlinePattern } from './inline.js';
import type {
  CompiledLinkifier,
  MarkdownLinkifier,
  MarkdownLookups,
  RenderContext,
} from './types.js';

/**
 * Linkifiers are stored with Python regex syntax; translate the parts that
 * differ in JavaScript (named groups, back-references, leading inline flags).
 */
function translatePattern(pattern: string): { source: string; flags: string } {
  let source = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes('i')) flags += 'i';
    if (inline[1]!.includes('m')) flags += 'm';
    if (inline[1]!.includes('s')) flags += 's';
  }
  return { source, flags };
}

/**
 * Why a linkifier pattern cannot be used (JavaScript's reason), or null; and
 * the names of its groups, which its URL template must use exactly.
 */
export function checkLinkifierPattern(
  pattern: string,
): { error: string; groups?: undefined } | { error: null; groups: Set<string> } {
  const { source, flags } = translatePattern(pattern);
  try {
    new RegExp(source, `${flags}u`);
  } catch (err) {
    try {
      new RegExp(source, flags);
    } catch {
      const reason = (err as Error).message.replace(
        /^Invalid regular expression: \/.*\/[a-z]*: /s,
        '',
      );
      return { error: reason };
    }
  }
  const groups = new Set([...source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!));
  return { error: null, groups };
}

/**
 * Zulip only links a match that starts after a separator and does not run
 * into a following word character.
 */
function compile(l: MarkdownLinkifier): CompiledLinkifier | null {
  const { source, flags: inlineFlags } = translatePattern(l.pattern);
  const flags = `g${inlineFlags}`;
  let re: RegExp;
  try {
    re = new RegExp(`(?<![^\\s'"(,:<])(?:${source})(?!\\w)`, `${flags}u`);
  } catch {
    try {
      re = new RegExp(`(?<![^\\s'"(,:<])(?:${source})(?!\\w)`, flags);
    } catch {
      return null;
    }
  }
  let template: ReturnType<typeof parseTemplate>;
  try {
    template = parseTemplate(l.urlTemplate);
  } catch {
    return null;
  }
  return { re, expand: (groups) => template.expand(groups) };
}

function compiled(lookups: MarkdownLookups, ctx?: RenderContext): CompiledLinkifier[] {
  if (ctx?.linkifierCache) return ctx.linkifierCache;
  const list = (lookups.linkifiers?.() ?? [])
    .map(compile)
    .filter((c): c is CompiledLinkifier => c !== null);
  if (ctx) ctx.linkifierCache = list;
  return list;
}

interface Found {
  start: number;
  end: number;
  text: string;
  url: string;
}

/** Earliest linkifier match at or after `from`; earlier-defined linkifiers win ties. */
function findFirst(text: string, from: number, list: CompiledLinkifier[]): Found | null {
  let best: Found | null = null;
  for (const l of list) {
    l.re.lastIndex = from;
    const m = l.re.exec(text);
    if (!m || m[0] === '' || (best && m.index >= best.start)) continue;
    const groups: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) groups[k] = v ?? '';
    let url: string;
    try {
      url = l.expand(groups);
    } catch {
      continue;
    }
    best = { start: m.index, end: m.index + m[0].length, text: m[0], url };
  }
  return best;
}

function isSafeUrl(url: string): boolean {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url.replace(/[\u0000-\u0020]/g, ''));
  return !scheme || ['http', 'https', 'ftp', 'mailto'].includes(scheme[1]!.toLowerCase());
}

export const linkifierPattern: InlinePattern = {
  name: 'linkifiers',
  enabled: (ctx) => !!ctx.lookups.linkifiers,
  find(text, from, st): InlineMatch | null {
    const list = compiled(st.ctx.lookups, st.ctx);
    if (list.length === 0) return null;
    let pos = from;
    for (;;) {
      const f = findFirst(text, pos, list);
      if (!f) return null;
      // Never link across a placeholder: it stands for already-rendered markup.
      if (!/[\uE000-\uE003]/.test(f.text) && isSafeUrl(f.url)) {
        st.ctx.result.hasLink = true;
        return {
          start: f.start,
          end: f.end,
          entry: { html: `<a href="${escapeAttr(f.url)}">${escapeTextStrict(f.text)}</a>` },
        };
      }
      pos = f.start + 1;
    }
  },
};

const TOPIC_URL = /(?<![^\s'"(,:<])(?:https?|ftp):\/\/[^\s]+?(?=[.,;:!?'")]*(?:\s|$))/g;

/** Linkifiers and plain URLs found in a topic name, for `topic_links`. */
export function renderTopicLinks(
  topic: string,
  lookups: MarkdownLookups,
): Array<{ text: string; url: string }> {
  const found: Found[] = [];
  const list = compiled(lookups);
  let pos = 0;
  for (let f = findFirst(topic, pos, list); f; f = findFirst(topic, pos, list)) {
    if (isSafeUrl(f.url)) found.push(f);
    pos = f.end > f.start ? f.end : f.start + 1;
  }
  TOPIC_URL.lastIndex = 0;
  for (const m of topic.matchAll(TOPIC_URL)) {
    const start = m.index;
    const end = start + m[0].length;
    if (found.some((f) => start < f.end && end > f.start)) continue;
    found.push({ start, end, text: m[0], url: m[0] });
  }
  found.sort((a, b) => a.start - b.start);
  return found.map((f) => ({ text: f.text, url: f.url }));
}
