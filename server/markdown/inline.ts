import { escapeText } from './escape.js';
import type { RenderContext } from './types.js';

/**
 * Inline rendering follows Python-Markdown's model, which Zulip's output is
 * shaped by: patterns run one after another in priority order over the whole
 * text; each match is swapped for an opaque placeholder so later patterns
 * cannot see into it, and the text inside emphasis or link labels is
 * processed only by the patterns that come after the one that matched.
 */

export interface StashEntry {
  /** Finished HTML. */
  html?: string;
  /** Or an element whose inner text still holds raw text and placeholders. */
  open?: string;
  inner?: string;
  close?: string;
}

export interface InlineMatch {
  start: number;
  end: number;
  entry: StashEntry;
}

export interface InlineState {
  ctx: RenderContext;
  stash: StashEntry[];
  /** Image previews found in the block being rendered (Zulip appends them after it). */
  previews: string[];
  inQuote: boolean;
  process(text: string, from: number): string;
}

export interface InlinePattern {
  name: string;
  /** Cheap pre-check: the pattern cannot match unless the text contains this. */
  trigger?: string | RegExp;
  enabled?(ctx: RenderContext): boolean;
  find(text: string, from: number, st: InlineState, index: number): InlineMatch | null;
}

const PH_START = '\uE000';
const PH_END = '\uE001';
const PH_RE = /\uE000([\uE100-\uE1FF]+)\uE001/g;
/** Block-level stash markers left in the text by the fenced-block pass. */
export const BLOCK_PH_RE = /\uE002([\uE100-\uE1FF]+)\uE003/g;

export function encodeIndex(i: number): string {
  let s = '';
  do {
    s = String.fromCharCode(0xe100 + (i & 0xff)) + s;
    i >>>= 8;
  } while (i > 0);
  return s;
}

export function decodeIndex(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) n = n * 256 + (s.charCodeAt(k) - 0xe100);
  return n;
}

export function blockPlaceholder(i: number): string {
  return `\uE002${encodeIndex(i)}\uE003`;
}

/** Helper for the common case of a global regex plus a handler that may decline. */
export function regexPattern(
  name: string,
  re: RegExp,
  handle: (m: RegExpExecArray, st: InlineState, index: number) => StashEntry | null,
  extra: Partial<Pick<InlinePattern, 'trigger' | 'enabled'>> = {},
): InlinePattern {
  return {
    name,
    ...extra,
    find(text, from, st, index) {
      re.lastIndex = from;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const entry = handle(m, st, index);
        if (entry) return { start: m.index, end: m.index + m[0].length, entry };
        re.lastIndex = m.index + 1;
      }
      return null;
    },
  };
}

function textOut(s: string): string {
  if (!s) return s;
  const escaped = escapeText(s);
  return escaped.indexOf('\n') === -1 ? escaped : escaped.replace(/\n/g, '<br>\n');
}

export class InlineRenderer implements InlineState {
  stash: StashEntry[] = [];
  previews: string[] = [];
  inQuote = false;

  constructor(
    readonly ctx: RenderContext,
    private readonly patterns: InlinePattern[],
    private readonly blockStash: string[],
  ) {}

  private add(entry: StashEntry): string {
    this.stash.push(entry);
    return PH_START + encodeIndex(this.stash.length - 1) + PH_END;
  }

  process(input: string, from: number): string {
    let text = input;
    const patterns = this.patterns;
    for (let i = from; i < patterns.length; i++) {
      const p = patterns[i]!;
      if (p.trigger !== undefined) {
        if (typeof p.trigger === 'string' ? !text.includes(p.trigger) : !p.trigger.test(text)) {
          continue;
        }
      }
      if (p.enabled && !p.enabled(this.ctx)) continue;
      let pos = 0;
      while (pos <= text.length) {
        const r = p.find(text, pos, this, i);
        if (!r) break;
        const ph = this.add(r.entry);
        text = text.slice(0, r.start) + ph + text.slice(r.end);
        pos = r.start + ph.length;
      }
    }
    return text;
  }

  private expand(s: string): string {
    if (s.indexOf(PH_START) === -1) return textOut(s);
    let out = '';
    let last = 0;
    for (const m of s.matchAll(PH_RE)) {
      out += textOut(s.slice(last, m.index));
      const e = this.stash[decodeIndex(m[1]!)];
      if (e) out += e.html ?? `${e.open ?? ''}${this.expand(e.inner ?? '')}${e.close ?? ''}`;
      last = m.index + m[0].length;
    }
    return out + textOut(s.slice(last));
  }

  /** Renders one text run (a paragraph, list item text, heading, cell or tail). */
  render(text: string): string {
    if (!text) return '';
    let src = text;
    if (src.indexOf('\uE002') !== -1) {
      src = src.replace(BLOCK_PH_RE, (_m, idx: string) =>
        this.add({ html: this.blockStash[decodeIndex(idx)] ?? '' }),
      );
    }
    return this.expand(this.process(src, 0));
  }
}
