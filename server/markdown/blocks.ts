/**
 * Block structure in the shape of Python-Markdown's parser, which is what
 * Zulip's HTML comes from: the text is split into blank-line-separated
 * blocks, and each block is offered to processors in priority order. Zulip's
 * own twists are kept: lists nest with two-space indents, a lone `>` is text,
 * consecutive quotes stay separate, and there are no setext headings,
 * horizontal rules or reference links.
 */

import { silenceMentions } from './mentions.js';

export interface BNode {
  tag: string;
  attrs: string;
  /** Inline Markdown source for the element's leading text. */
  text: string;
  /** Inline Markdown source for text following the element inside its parent. */
  tail: string;
  children: BNode[];
  /** For `codeblock` nodes: the code, already de-indented. */
  code?: string;
}

export function node(tag: string, text = '', attrs = ''): BNode {
  return { tag, attrs, text, tail: '', children: [] };
}

const LIST_TAGS = new Set(['ul', 'ol']);
/** Zulip parses lists as if the tab length were two spaces. */
const LIST_INDENT = 2;
const CODE_INDENT = 4;

const OL_RE = /^[ ]{0,1}\d+\.[ ]+(.*)/;
const UL_RE = /^[ ]{0,1}[*+-][ ]+(.*)/;
const CHILD_RE = /^[ ]{0,1}((\d+\.)|[*+-])[ ]+(.*)/;
const ITEM_INDENT_RE = /^[ ]{2,3}((\d+\.)|[*+-])[ ]+.*/;
const QUOTE_RE = /(^|\n)[ ]{0,3}>[ ]?(.*)/;
const HEADER_RE = /(?:^|\n)(#{1,6})[ \t]+(.*?)#*(?:\n|$)/;
const TABLE_SEPARATOR_CHARS = /^[|:\- ]*$/;
/**
 * Beyond this nesting depth everything is plain paragraph text. Each level
 * copies its text, so unbounded nesting costs quadratic memory and stack.
 */
export const MAX_NESTING = 32;

function last(n: BNode): BNode | undefined {
  return n.children[n.children.length - 1];
}

type State = 'list' | 'looselist' | 'detabbed' | 'blockquote';

class BlockParser {
  private states: State[] = [];
  private depth = 0;

  private isState(s: State): boolean {
    return this.states[this.states.length - 1] === s;
  }

  parseChunk(parent: BNode, text: string): void {
    this.parseBlocks(parent, text.split('\n\n'));
  }

  parseBlocks(parent: BNode, blocks: string[]): void {
    this.depth++;
    try {
      this.dispatch(parent, blocks);
    } finally {
      this.depth--;
    }
  }

  private dispatch(parent: BNode, blocks: string[]): void {
    while (blocks.length) {
      const block = blocks[0]!;
      if (this.depth > MAX_NESTING) this.paragraph(parent, blocks);
      else if (block === '' || block.startsWith('\n')) this.empty(parent, blocks);
      else if (this.testListIndent(parent, block)) this.listIndent(parent, blocks);
      else if (block.startsWith(' '.repeat(CODE_INDENT))) this.codeBlock(parent, blocks);
      else if (this.testTable(block)) this.table(parent, blocks);
      else if (HEADER_RE.test(block)) this.header(parent, blocks);
      else if (OL_RE.test(block)) this.list(parent, blocks, 'ol');
      else if (UL_RE.test(block)) this.list(parent, blocks, 'ul');
      else if (QUOTE_RE.test(block) && block.trim() !== '>') this.blockquote(parent, blocks);
      else this.paragraph(parent, blocks);
    }
  }

  private empty(parent: BNode, blocks: string[]): void {
    const block = blocks.shift()!;
    let filler = '\n\n';
    if (block) {
      filler = '\n';
      const rest = block.slice(1);
      if (rest) blocks.unshift(rest);
    }
    const sibling = last(parent);
    if (sibling?.tag === 'codeblock') sibling.code += filler;
  }

  private testListIndent(parent: BNode, block: string): boolean {
    if (!block.startsWith(' '.repeat(LIST_INDENT)) || this.isState('detabbed')) return false;
    if (parent.tag === 'li') return true;
    const lc = last(parent);
    return !!lc && LIST_TAGS.has(lc.tag);
  }

  private listIndent(parent: BNode, blocks: string[]): void {
    let block = blocks.shift()!;
    const m = /^((?: {2})+)/.exec(block);
    const indentLevel = m ? m[1]!.length / LIST_INDENT : 0;
    let level = this.isState('list') ? 1 : 0;
    let sibling = parent;
    while (indentLevel > level) {
      const child = last(sibling);
      if (child && (LIST_TAGS.has(child.tag) || child.tag === 'li')) {
        if (LIST_TAGS.has(child.tag)) level++;
        sibling = child;
      } else break;
    }
    const prefix = ' '.repeat(LIST_INDENT * level);
    block = block
      .split('\n')
      .map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l))
      .join('\n');

    this.states.push('detabbed');
    if (parent.tag === 'li') {
      const lc = last(parent);
      this.parseBlocks(lc && LIST_TAGS.has(lc.tag) ? lc : parent, [block]);
    } else if (sibling.tag === 'li') {
      this.parseBlocks(sibling, [block]);
    } else if (last(sibling)?.tag === 'li') {
      const li = last(sibling)!;
      if (li.text) {
        li.children.unshift(node('p', li.text));
        li.text = '';
      }
      this.parseChunk(li, block);
    } else {
      const li = node('li');
      sibling.children.push(li);
      this.parseBlocks(li, [block]);
    }
    this.states.pop();
  }

  private codeBlock(parent: BNode, blocks: string[]): void {
    const block = blocks.shift()!;
    const lines = block.split('\n');
    const code: string[] = [];
    const indent = ' '.repeat(CODE_INDENT);
    for (const line of lines) {
      if (line.startsWith(indent)) code.push(line.slice(CODE_INDENT));
      else if (!line.trim()) code.push('');
      else break;
    }
    const rest = lines.slice(code.length).join('\n');
    const text = code.join('\n').replace(/\s+$/, '');
    const sibling = last(parent);
    if (sibling?.tag === 'codeblock') {
      sibling.code = `${sibling.code}\n${text}\n`;
    } else {
      const n = node('codeblock');
      n.code = `${text}\n`;
      parent.children.push(n);
    }
    if (rest) blocks.unshift(rest);
  }

  private splitRow(row: string): string[] {
    let r = row.trim();
    if (r.startsWith('|')) r = r.slice(1);
    if (r.endsWith('|') && !r.endsWith('\\|')) r = r.slice(0, -1);
    const cells: string[] = [];
    let cur = '';
    let inCode = 0;
    for (let i = 0; i < r.length; i++) {
      const c = r[i]!;
      if (c === '\\' && r[i + 1] === '|') {
        cur += '|';
        i++;
      } else if (c === '`') {
        let n = 1;
        while (r[i + n] === '`') n++;
        cur += r.slice(i, i + n);
        i += n - 1;
        if (inCode === 0) inCode = n;
        else if (inCode === n) inCode = 0;
      } else if (c === '|' && inCode === 0) {
        cells.push(cur.trim());
        cur = '';
      } else cur += c;
    }
    cells.push(cur.trim());
    return cells;
  }

  private testTable(block: string): boolean {
    const rows = block.split('\n');
    if (rows.length < 2) return false;
    const header = rows[0]!.trim();
    const bordered = header.startsWith('|') || header.endsWith('|');
    const cols = this.splitRow(header).length;
    if (cols < 2 && !(cols === 1 && bordered)) return false;
    const sep = this.splitRow(rows[1]!);
    return (
      sep.length === cols &&
      TABLE_SEPARATOR_CHARS.test(rows[1]!) &&
      sep.every((c) => /^:?-+:?$/.test(c))
    );
  }

  private table(parent: BNode, blocks: string[]): void {
    const rows = blocks.shift()!.split('\n');
    const header = this.splitRow(rows[0]!);
    const aligns = this.splitRow(rows[1]!).map((c) => {
      const l = c.startsWith(':');
      const r = c.endsWith(':');
      if (l && r) return ' style="text-align: center;"';
      if (l) return ' style="text-align: left;"';
      if (r) return ' style="text-align: right;"';
      return '';
    });
    const table = node('table');
    const thead = node('thead');
    const headRow = node('tr');
    header.forEach((cell, i) => {
      headRow.children.push(node('th', cell, aligns[i]));
    });
    thead.children.push(headRow);
    const tbody = node('tbody');
    const bodyRows = rows.slice(2).filter((r) => r.trim());
    for (const row of bodyRows.length ? bodyRows : ['']) {
      const cells = this.splitRow(row);
      const tr = node('tr');
      header.forEach((_h, i) => {
        tr.children.push(node('td', cells[i] ?? '', aligns[i]));
      });
      tbody.children.push(tr);
    }
    table.children.push(thead, tbody);
    parent.children.push(table);
  }

  private header(parent: BNode, blocks: string[]): void {
    const block = blocks.shift()!;
    const m = HEADER_RE.exec(block)!;
    const before = block.slice(0, m.index);
    const after = block.slice(m.index + m[0].length);
    if (before) this.parseBlocks(parent, [before]);
    parent.children.push(node(`h${m[1]!.length}`, m[2]!.trim()));
    if (after) blocks.unshift(after);
  }

  private items(block: string): { items: string[]; start: string } {
    const items: string[] = [];
    let start = '1';
    const indent = ' '.repeat(LIST_INDENT);
    for (const line of block.split('\n')) {
      const m = CHILD_RE.exec(line);
      if (m) {
        if (!items.length && m[2]) start = /\d+/.exec(m[1]!)![0];
        items.push(m[3]!);
      } else if (ITEM_INDENT_RE.test(line)) {
        if (items.length && items[items.length - 1]!.startsWith(indent)) {
          items[items.length - 1] += `\n${line}`;
        } else items.push(line);
      } else if (items.length) {
        items[items.length - 1] += `\n${line}`;
      } else items.push(line);
    }
    return { items, start };
  }

  private list(parent: BNode, blocks: string[], tag: 'ol' | 'ul'): void {
    const { items, start } = this.items(blocks.shift()!);
    const sibling = last(parent);
    let lst: BNode;
    if (sibling && LIST_TAGS.has(sibling.tag)) {
      // A list continued after a blank line is loose: every item gets a <p>.
      lst = sibling;
      const prev = last(lst);
      if (prev) {
        if (prev.text) {
          prev.children.unshift(node('p', prev.text));
          prev.text = '';
        }
        const lch = last(prev);
        if (lch?.tail) {
          prev.children.push(node('p', lch.tail.trimStart()));
          lch.tail = '';
        }
      }
      const li = node('li');
      lst.children.push(li);
      this.states.push('looselist');
      this.parseBlocks(li, [items.shift() ?? '']);
      this.states.pop();
    } else if (LIST_TAGS.has(parent.tag)) {
      lst = parent;
    } else {
      lst = node(tag, '', tag === 'ol' && start !== '1' ? ` start="${start}"` : '');
      parent.children.push(lst);
    }
    this.states.push('list');
    const indent = ' '.repeat(LIST_INDENT);
    for (const item of items) {
      const prev = last(lst);
      if (item.startsWith(indent) && prev) {
        this.parseBlocks(prev, [item]);
      } else {
        const li = node('li');
        lst.children.push(li);
        this.parseBlocks(li, [item]);
      }
    }
    this.states.pop();
  }

  private blockquote(parent: BNode, blocks: string[]): void {
    const block = blocks.shift()!;
    const m = QUOTE_RE.exec(block)!;
    const before = block.slice(0, m.index);
    if (before) this.parseBlocks(parent, [before]);
    const lines = block
      .slice(m.index)
      .replace(/^\n/, '')
      .split('\n')
      .map((raw) => {
        const line = silenceMentions(raw);
        if (line.trim() === '>') return '';
        const q = /^[ ]{0,3}>[ ]?(.*)/.exec(line);
        return q ? q[1]! : line;
      });
    // Quoted text gets the same hanging-list treatment as the top level.
    const body = separateHangingLists(lines).join('\n');
    const quote = node('blockquote');
    parent.children.push(quote);
    this.states.push('blockquote');
    this.parseChunk(quote, body);
    this.states.pop();
  }

  private paragraph(parent: BNode, blocks: string[]): void {
    // A block can end in newlines where a fence or quote closed; they are not line breaks.
    const block = blocks.shift()!.replace(/\n+$/, '');
    if (!block.trim()) return;
    if (this.isState('list')) {
      // Tight list item: text goes straight into the <li>.
      const sibling = last(parent);
      if (sibling) sibling.tail = sibling.tail ? `${sibling.tail}\n${block}` : `\n${block}`;
      else parent.text = parent.text ? `${parent.text}\n${block}` : block.trimStart();
    } else {
      parent.children.push(node('p', block.trimStart()));
    }
  }
}

export function parseBlocks(text: string): BNode {
  const root = node('div');
  new BlockParser().parseChunk(root, text);
  return root;
}

/**
 * Zulip lets a list start right after a line of text ("hanging" lists);
 * Python-Markdown needs a blank line there, so insert one.
 */
export function separateHangingLists(lines: string[]): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of lines) {
    const isItem = /^\s*(?:[*+-]|\d+\.)[ ]+\S/.test(line) || /^\s*(?:[*+-]|\d+\.)[ ]+$/.test(line);
    if (isItem && !inList && out.length && out[out.length - 1]!.trim() !== '') out.push('');
    if (!line.trim()) inList = false;
    else if (isItem) inList = true;
    out.push(line);
  }
  return out;
}
