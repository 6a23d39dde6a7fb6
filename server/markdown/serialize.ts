import type { BNode } from './blocks.js';
import { renderCodeBlock } from './codehilite.js';
import { BLOCK_PH_RE, decodeIndex, type InlineRenderer } from './inline.js';
import { isLoneImageLink } from './links.js';

/**
 * Serialises the block tree the way Python-Markdown pretty-prints it:
 * a newline after each block-level element and after the opening tag of a
 * block element whose first child is a block, and nothing else. Image
 * previews are appended straight after the block that linked them.
 */

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'codeblock',
  'pre',
]);

interface Out {
  html: string;
  /** Previews to emit right after this element (they carry no newline). */
  after: string;
}

export class Serializer {
  constructor(
    private readonly inline: InlineRenderer,
    private readonly blockStash: string[],
  ) {}

  private inlineText(text: string): { html: string; previews: string } {
    const st = this.inline;
    const saved = st.previews;
    st.previews = [];
    const html = st.render(text);
    const previews = st.previews.join('');
    st.previews = saved;
    return { html, previews };
  }

  private loneBlockPlaceholder(text: string): string | null {
    const t = text.trim();
    BLOCK_PH_RE.lastIndex = 0;
    const m = BLOCK_PH_RE.exec(t);
    if (m && m.index === 0 && m[0].length === t.length) {
      return this.blockStash[decodeIndex(m[1]!)] ?? '';
    }
    return null;
  }

  private element(n: BNode, inQuote: boolean): Out {
    if (n.tag === 'codeblock') return { html: renderCodeBlock(n.code ?? ''), after: '' };
    if (n.tag === 'p') {
      const raw = this.loneBlockPlaceholder(n.text);
      if (raw !== null) return { html: raw, after: '' };
    }
    const wasQuote = this.inline.inQuote;
    const quote = inQuote || n.tag === 'blockquote';
    this.inline.inQuote = quote;
    const { html: text, previews } = this.inlineText(n.text);
    if (n.tag === 'p' && previews && isLoneImageLink(n.text, this.inline.ctx)) {
      this.inline.inQuote = wasQuote;
      return { html: '', after: previews };
    }
    let inner = text;
    const first = n.children[0];
    if (!n.text.trim() && first && BLOCK_TAGS.has(first.tag)) inner = '\n';
    let trailing = '';
    for (const c of n.children) inner += this.child(c, quote);
    if (n.tag === 'li') trailing = previews;
    this.inline.inQuote = wasQuote;
    return {
      html: `<${n.tag}${n.attrs}>${inner}${trailing}</${n.tag}>`,
      after: n.tag === 'li' ? '' : previews,
    };
  }

  private child(c: BNode, inQuote: boolean): string {
    const out = this.element(c, inQuote);
    let tail: string;
    if (c.tail.trim()) tail = this.inlineText(c.tail).html;
    else tail = BLOCK_TAGS.has(c.tag) ? '\n' : c.tail;
    if (out.html === '') return out.after;
    return out.after ? `${out.html}${tail}${out.after}` : out.html + tail;
  }

  document(root: BNode): string {
    let html = '';
    for (const c of root.children) html += this.child(c, false);
    return html.replace(/^\n+|\n+$/g, '');
  }
}
