/**
 * The `content_html_diff` of an edit, in the markup Zulip's
 * highlight_html_differences gives (lxml's htmldiff, then `<ins>` and `<del>`
 * turned into spans), which older clients render as they receive it:
 *
 * - the whole diff is wrapped in one `<div>`;
 * - only words are compared (an image counts as a word, a link's target
 *   as one more word shown as " Link: <url>" only when it changed); the
 *   markup is the new version's;
 * - changed words are wrapped in `<span class="highlight_text_inserted">`
 *   and `<span class="highlight_text_deleted">`, inserted text before the
 *   text it replaced, each span followed by a space and preceded by one;
 * - a span never contains half an element: tags opened or closed inside
 *   a change stay outside the span (a deleted one is dropped, or the span
 *   moved into the element that matches it), and a span around whole
 *   paragraphs or list items is split into spans inside each of them;
 * - `<ins>` and `<del>` (strikethrough) tags of the inputs are ignored.
 */
import { type Opcode, wordOpcodes } from './word-matcher.js';

interface Word {
  /** What is compared: the escaped word, or the image's source or the link's target. */
  key: string;
  html: string;
  space: string;
  before: string[];
  after: string[];
  /** A link's target is shown only where it changed. */
  hiddenWhenEqual: boolean;
}

/** Elements without an end tag in the words' markup. */
const VOID = new Set([
  'param',
  'img',
  'area',
  'br',
  'basefont',
  'input',
  'base',
  'meta',
  'link',
  'col',
]);
/** Elements a highlight span is moved inside of rather than wrapped around. */
const BLOCKS = new Set([
  ...['address', 'blockquote', 'center', 'dir', 'div', 'dl', 'fieldset', 'form'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'isindex', 'menu', 'noframes'],
  ...['noscript', 'ol', 'p', 'pre', 'table', 'ul', 'dd', 'dt', 'frameset', 'li'],
  ...['tbody', 'td', 'tfoot', 'th', 'thead', 'tr'],
]);

const tagName = (tag: string) =>
  /^<\/?\s*([a-zA-Z][a-zA-Z0-9-]*)/.exec(tag)?.[1]?.toLowerCase() ?? '';
const isTag = (chunk: string) => chunk.startsWith('<');
const isEndTag = (chunk: string) => chunk.startsWith('</');

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '') : undefined;
}

const BASIC_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return BASIC_ENTITIES[lower] ?? whole;
  });
}

/** Text as the diff writes it: characters decoded, then &, < and > escaped; other named entities kept. */
function normalizeText(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);|[&<>]/gi, (piece, name?: string) => {
    if (name !== undefined && !/^(#|amp$|lt$|gt$|quot$|apos$)/i.test(name)) return piece;
    const decoded = name === undefined ? piece : decodeEntities(piece);
    return decoded.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  });
}

/** Splits HTML into words, each carrying the tags just before and after it. */
function toWords(html: string): Word[] {
  const words: Word[] = [];
  let pending: string[] = [];
  // Where the whitespace after a closing (or void) tag goes: onto that tag, as one space.
  let spaceAfter: ((space: string) => void) | null = null;
  const links: (string | undefined)[] = [];
  const addWord = (word: Omit<Word, 'before' | 'after'>) => {
    words.push({ ...word, before: pending, after: [] });
    pending = [];
  };
  const addTag = (list: string[], tag: string) => {
    list.push(tag);
    const index = list.length - 1;
    spaceAfter = (space) => {
      if (/^[ \t\n\r]/.test(space)) list[index] += ' ';
    };
  };
  for (const piece of html.match(/<[^>]*>|[^<]+|</g) ?? []) {
    const name = piece.length > 1 && isTag(piece) ? tagName(piece) : '';
    if (name === 'ins' || name === 'del') continue;
    if (name === '') {
      spaceAfter?.(piece);
      spaceAfter = null;
      for (const [, word, space] of piece.matchAll(/(\S+)(\s*)/g)) {
        const text = normalizeText(word!);
        addWord({ key: text, html: text, space: space!, hiddenWhenEqual: false });
      }
    } else if (isEndTag(piece)) {
      if (name === 'a') {
        const href = links.pop();
        if (href)
          addWord({
            key: `\u0000href ${href}`,
            html: ` Link: ${href}`,
            space: ' ',
            hiddenWhenEqual: true,
          });
      }
      addTag(
        pending.length > 0 || words.length === 0 ? pending : words.at(-1)!.after,
        `</${name}>`,
      );
    } else if (name === 'img') {
      addWord({
        key: `\u0000img ${attribute(piece, 'src') ?? ''}`,
        html: piece,
        space: '',
        hiddenWhenEqual: false,
      });
      const image = words.at(-1)!;
      spaceAfter = (space) => {
        if (/^[ \t\n\r]/.test(space)) image.space = ' ';
      };
    } else {
      if (name === 'a') links.push(attribute(piece, 'href'));
      if (VOID.has(name)) addTag(pending, piece);
      else if (name === 'hr') {
        // Written without an end tag, but an element the words' markup closes.
        pending.push(piece);
        addTag(pending, '</hr>');
      } else {
        pending.push(piece);
        spaceAfter = null;
      }
    }
  }
  if (words.length === 0)
    return [{ key: '', html: '', space: '', before: pending, after: [], hiddenWhenEqual: false }];
  words.at(-1)!.after.push(...pending);
  return words;
}

function chunksOf(words: readonly Word[], equal: boolean): string[] {
  const chunks: string[] = [];
  for (const word of words) {
    chunks.push(...word.before);
    if (!equal || !word.hiddenWhenEqual) chunks.push(word.html + word.space);
    chunks.push(...word.after);
  }
  return chunks;
}

/** Tags opened and not closed, the balanced part, tags closed and not opened. */
function splitUnbalanced(chunks: readonly string[]): [string[], string[], string[]] {
  const unclosed: string[] = [];
  const unopened: string[] = [];
  const balanced: (string | null)[] = [];
  let open: { name: string; at: number; tag: string }[] = [];
  for (const chunk of chunks) {
    const name = isTag(chunk) ? tagName(chunk) : '';
    if (name === '' || VOID.has(name)) {
      balanced.push(chunk);
    } else if (!isEndTag(chunk)) {
      open.push({ name, at: balanced.length, tag: chunk });
      balanced.push(null);
    } else if (open.at(-1)?.name === name) {
      const opened = open.pop()!;
      balanced[opened.at] = opened.tag;
      balanced.push(chunk);
    } else {
      unclosed.push(...open.map((o) => o.tag));
      open = [];
      unopened.push(chunk);
    }
  }
  unclosed.push(...open.map((o) => o.tag));
  return [unclosed, balanced.filter((c): c is string => c !== null), unopened];
}

/** A deleted stretch, placed once the whole diff is assembled (it may move into a neighbouring tag). */
class Deletion {
  constructor(readonly chunks: string[]) {}
}
type Chunk = string | Deletion;

function endWithSpace(doc: Chunk[]): void {
  const last = doc.at(-1);
  if (typeof last === 'string' && !last.endsWith(' ')) doc[doc.length - 1] = `${last} `;
}

/** Wraps the balanced chunks in `open`/`close`, leaving their last space outside. */
function wrap(doc: Chunk[], open: string, balanced: string[], close: string): void {
  endWithSpace(doc);
  const last = balanced.at(-1);
  if (last?.endsWith(' ')) balanced[balanced.length - 1] = last.slice(0, -1);
  doc.push(open, ...balanced, `${close} `);
}

function insert(doc: Chunk[], chunks: string[]): void {
  const [unclosed, balanced, unopened] = splitUnbalanced(chunks);
  doc.push(...unclosed);
  wrap(doc, '<ins>', balanced, '</ins>');
  doc.push(...unopened);
}

function placeDeletions(doc: Chunk[]): string[] {
  let chunks = doc;
  for (;;) {
    const at = chunks.findIndex((c) => c instanceof Deletion);
    if (at < 0) return chunks as string[];
    const before = chunks.slice(0, at);
    const after = chunks.slice(at + 1);
    const [unclosed, balanced, unopened] = splitUnbalanced((chunks[at] as Deletion).chunks);
    // Into the element that follows, while it is the one the deleted text was opened in ...
    while (unclosed.length > 0 && typeof after[0] === 'string') {
      const next = after[0];
      if (!isTag(next) || isEndTag(next) || tagName(next) === 'ins') break;
      if (tagName(next) !== tagName(unclosed[0]!)) break;
      unclosed.shift();
      before.push(after.shift()!);
    }
    // ... and back before the end tags that closed it.
    while (unopened.length > 0 && typeof before.at(-1) === 'string') {
      const previous = before.at(-1) as string;
      if (!isEndTag(previous) || ['ins', 'del'].includes(tagName(previous))) break;
      if (tagName(previous) !== tagName(unopened.at(-1)!)) break;
      unopened.pop();
      after.unshift(before.pop()!);
    }
    wrap(before, '<del>', balanced, '</del>');
    chunks = [...before, ...after];
  }
}

// A small tree of the assembled (well-formed) diff, to move spans inside block elements.
interface Element {
  open: string;
  name: string;
  children: Node[];
  close: string;
}
type Node = { text: string } | Element;

function toTree(chunks: readonly string[]): Node[] {
  const root: Node[] = [];
  const stack: { name: string; children: Node[]; node?: Element }[] = [
    { name: '', children: root },
  ];
  for (const piece of chunks.join('').match(/<[^>]*>|[^<]+|</g) ?? []) {
    const name = piece.length > 1 && isTag(piece) ? tagName(piece) : '';
    const top = stack.at(-1)!;
    if (name === '') top.children.push({ text: piece });
    else if (isEndTag(piece)) {
      const depth = stack.findLastIndex((s) => s.name === name);
      if (depth <= 0) continue; // a stray end tag, as an HTML parser drops it
      for (const frame of stack.splice(depth))
        if (frame.node) frame.node.close = `</${frame.name}>`;
    } else if (VOID.has(name) || name === 'hr') {
      top.children.push({ open: piece, name, children: [], close: '' });
    } else {
      const node: Element = { open: piece, name, children: [], close: '' };
      top.children.push(node);
      stack.push({ name, children: node.children, node });
    }
  }
  for (const frame of stack.slice(1)) if (frame.node) frame.node.close = `</${frame.name}>`;
  return root;
}

const hasBlock = (node: Node): boolean =>
  'name' in node && (BLOCKS.has(node.name) || node.children.some(hasBlock));

const SPAN = {
  ins: '<span class="highlight_text_inserted">',
  del: '<span class="highlight_text_deleted">',
} as const;

function serialize(nodes: readonly Node[]): string {
  return nodes
    .map((n) => ('text' in n ? n.text : n.open + serialize(n.children) + n.close))
    .join('');
}

/**
 * The contents of an <ins>/<del>, with the span pushed inside any block
 * element: text before the first element gets its own span, an inline
 * element one span with the text after it, a block element spans inside
 * it and one for the text after it.
 */
function highlighted(kind: 'ins' | 'del', nodes: readonly Node[]): string {
  const span = (inner: string) => (inner === '' ? '' : SPAN[kind] + inner + '</span>');
  if (!nodes.some(hasBlock)) return span(serialize(nodes.map(spansFor)));
  let out = '';
  let i = 0;
  const textRun = () => {
    let text = '';
    while (i < nodes.length && 'text' in nodes[i]!) text += (nodes[i++] as { text: string }).text;
    return text;
  };
  out += span(textRun());
  while (i < nodes.length) {
    const node = spansFor(nodes[i++]!) as Element;
    if (hasBlock(node)) {
      out += node.open + highlighted(kind, node.children) + node.close + span(textRun());
    } else {
      out += span(serialize([node]) + textRun());
    }
  }
  return out;
}

/** Turns <ins> and <del> elements into Zulip's highlight spans. */
function spansFor(node: Node): Node {
  if ('text' in node) return node;
  if (node.name === 'ins' || node.name === 'del')
    return { text: highlighted(node.name, node.children) };
  return { ...node, children: node.children.map(spansFor) };
}

export function highlightHtmlDifferences(oldHtml: string, newHtml: string): string {
  const oldWords = toWords(oldHtml);
  const newWords = toWords(newHtml);
  const doc: Chunk[] = [];
  const ops: Opcode[] = wordOpcodes(
    oldWords.map((w) => w.key),
    newWords.map((w) => w.key),
  );
  for (const op of ops) {
    const inserted = newWords.slice(op.newStart, op.newEnd);
    if (op.kind === 'equal') {
      doc.push(...chunksOf(inserted, true));
      continue;
    }
    if (op.kind !== 'delete') insert(doc, chunksOf(inserted, false));
    if (op.kind !== 'insert')
      doc.push(new Deletion(chunksOf(oldWords.slice(op.oldStart, op.oldEnd), false)));
  }
  const body = serialize(
    toTree(
      placeDeletions(doc)
        .join('')
        .trim()
        .match(/<[^>]*>|[^<]+|</g) ?? [],
    ).map(spansFor),
  );
  return `<div>${body.trim()}</div>`;
}
