import { escapeMarkup } from './escape.js';
import { hljs } from './hljs-languages.js';
import { type LanguageInfo, lookupLanguage } from './languages.js';

/**
 * Zulip highlights with Pygments, and clients style the result with
 * Pygments' short token classes (`k`, `nf`, `s2`...). We tokenize with
 * highlight.js and translate its scopes; the text highlight.js leaves
 * unclassified is split further the way Pygments' lexers do, because
 * Pygments also classifies names, operators and punctuation.
 */

interface Token {
  cls: string;
  text: string;
}

type Family = 'generic' | 'python' | 'tex' | 'plain';

function familyOf(info: LanguageInfo): Family {
  if (!info.hljs) return 'plain';
  if (info.hljs === 'python' || info.hljs === 'python-repl') return 'python';
  if (info.hljs === 'latex') return 'tex';
  return 'generic';
}

const PY_SELF = new Set(['self', 'cls']);
const PY_WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'is']);
const PY_CONSTANTS = new Set(['True', 'False', 'None']);
const PY_NAMESPACE_KEYWORDS = new Set(['import', 'from']);

function numberClass(text: string): string {
  if (/^0[xX]/.test(text)) return 'mh';
  if (/^0[oO]/.test(text)) return 'mo';
  if (/^0[bB]/.test(text)) return 'mb';
  if (/[.eE]/.test(text) && !/^0[xX]/.test(text)) return 'mf';
  return 'mi';
}

function stringClass(text: string, family: Family): string {
  if (family === 'tex') return 's';
  const t = text.replace(/^[rRbBuUfF]+/, '');
  if (t.startsWith('"""') || t.startsWith("'''")) return 's2';
  if (t.startsWith('"')) return 's2';
  if (t.startsWith("'")) return 's1';
  if (t.startsWith('`')) return 'sb';
  return 's';
}

function commentClass(text: string): string {
  if (text.startsWith('#!')) return 'ch';
  if (text.startsWith('/*')) return 'cm';
  return 'c1';
}

/** Splits text highlight.js left unclassified into Pygments-like tokens. */
function splitGap(text: string, family: Family, out: Token[]): void {
  if (family === 'plain') {
    out.push({ cls: '', text });
    return;
  }
  if (family === 'tex') {
    for (const m of text.matchAll(/([{}&_^])|([^{}&_^]+)/g)) {
      out.push({ cls: m[1] ? 'nb' : '', text: m[0] });
    }
    return;
  }
  const re =
    /(\s+)|([A-Za-z_$][\w$]*)|(0[xX][0-9a-fA-F_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[jJlLfFuU]*)|([-+*/%=<>!&|^~@?]+)|([.])|([()[\]{}:,;])|(.)/gs;
  for (const m of text.matchAll(re)) {
    const [whole, ws, ident, num, op, dot, punct] = m;
    if (ws) out.push({ cls: '', text: whole });
    else if (ident) {
      if (family === 'python') {
        if (PY_SELF.has(ident)) out.push({ cls: 'bp', text: ident });
        else if (PY_CONSTANTS.has(ident)) out.push({ cls: 'kc', text: ident });
        else if (PY_WORD_OPERATORS.has(ident)) out.push({ cls: 'ow', text: ident });
        else out.push({ cls: 'n', text: ident });
      } else out.push({ cls: 'n', text: ident });
    } else if (num) out.push({ cls: numberClass(num), text: num });
    else if (op) out.push({ cls: 'o', text: op });
    else if (dot) out.push({ cls: family === 'python' ? 'o' : 'p', text: dot });
    else if (punct) out.push({ cls: 'p', text: punct });
    else out.push({ cls: 'err', text: whole });
  }
}

/** Maps a highlight.js scope to a Pygments class; `null` means "split like a gap". */
function scopeClass(scope: string, text: string, family: Family): string | null {
  const base = scope.split(/[ .]/)[0] ?? '';
  switch (base) {
    case 'keyword':
      if (family === 'python') {
        if (PY_CONSTANTS.has(text)) return 'kc';
        if (PY_WORD_OPERATORS.has(text)) return 'ow';
        if (PY_NAMESPACE_KEYWORDS.has(text)) return 'kn';
      }
      return 'k';
    case 'built_in':
      return family === 'python' && PY_SELF.has(text) ? 'bp' : 'nb';
    case 'type':
      return 'kt';
    case 'literal':
      return 'kc';
    case 'number':
      return numberClass(text);
    case 'string':
      return stringClass(text, family);
    case 'regexp':
      return 'sr';
    case 'symbol':
      return 'ss';
    case 'title':
      if (scope.includes('inherited')) return 'n';
      if (scope.includes('class')) return 'nc';
      if (scope.includes('function')) return 'nf';
      return 'nf';
    case 'comment':
      return commentClass(text);
    case 'doctag':
      return 'nd';
    case 'meta':
      return family === 'python' ? 'nd' : 'cp';
    case 'variable':
      return scope.includes('language') ? 'bp' : 'nv';
    case 'attr':
    case 'attribute':
      return 'na';
    case 'name':
    case 'selector-tag':
      return 'nt';
    case 'selector-class':
      return 'nc';
    case 'selector-id':
      return 'nn';
    case 'subst':
      return 'si';
    case 'operator':
      return 'o';
    case 'punctuation':
      return 'p';
    case 'section':
      return 'gh';
    case 'addition':
      return 'gi';
    case 'deletion':
      return 'gd';
    case 'emphasis':
      return 'ge';
    case 'strong':
      return 'gs';
    case 'quote':
      return 'c1';
    case 'link':
      return 'nl';
    default:
      return null;
  }
}

const ENTITY: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

function decode(s: string): string {
  return s.indexOf('&') === -1 ? s : s.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITY[e]!);
}

/**
 * Reads highlight.js' HTML output (its public, stable format: nested
 * `<span class="hljs-…">` and escaped text) back into scoped tokens.
 */
function tokensFromHljs(html: string, family: Family): Token[] {
  const out: Token[] = [];
  const stack: Array<string | null> = [];
  let current: string | null = null;
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|([^<]+)/g)) {
    if (m[1] !== undefined) {
      stack.push(current);
      const scope = m[1].replace(/hljs-/g, '').replace(/_+(?=\s|$)/g, '');
      // Inside an already classified span (e.g. a string), the outer class wins.
      current = current && current !== '*gap*' ? current : scope;
    } else if (m[0] === '</span>') {
      current = stack.pop() ?? null;
    } else {
      const text = decode(m[2] ?? '');
      const cls = current ? scopeClass(current, text, family) : null;
      if (cls === null) splitGap(text, family, out);
      else out.push({ cls, text });
    }
  }
  return out;
}

/** Pygments' HtmlFormatter merges equal neighbours and never spans across lines. */
function formatTokens(tokens: Token[]): string {
  const merged: Token[] = [];
  for (const t of tokens) {
    const last = merged[merged.length - 1];
    if (last && last.cls === t.cls) last.text += t.text;
    else merged.push({ ...t });
  }
  let html = '';
  for (const t of merged) {
    if (!t.cls) {
      html += escapeMarkup(t.text);
      continue;
    }
    const parts = t.text.split('\n');
    html += parts
      .map((p) => (p ? `<span class="${t.cls}">${escapeMarkup(p)}</span>` : ''))
      .join('\n');
  }
  return html;
}

function highlight(code: string, info: LanguageInfo): string {
  const family = familyOf(info);
  if (!info.hljs) return escapeMarkup(code);
  const hl = hljs().highlight(code, { language: info.hljs, ignoreIllegals: true }).value;
  return formatTokens(tokensFromHljs(hl, family));
}

/** Pygments strips surrounding blank lines; Zulip also drops trailing spaces. */
function normalizeCode(code: string): string {
  const lines = code.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n') + '\n';
}

const SHEBANG = /^(?:#!\s*(?:\S*\/)?|:::\s*)([\w+#-]+)/;

export function renderCodeBlock(rawCode: string, lang?: string): string {
  const code = normalizeCode(rawCode);
  let info = lang ? lookupLanguage(lang) : undefined;
  let attr = '';
  if (lang) {
    attr = ` data-code-language="${escapeMarkup(info ? info.displayName : lang)}"`;
  } else {
    // Pygments' "shebang" convention picks a lexer from the first line
    // without naming the language on the block.
    const m = SHEBANG.exec(code);
    if (m?.[1]) info = lookupLanguage(m[1]);
  }
  const body = info ? highlight(code, info) : escapeMarkup(code);
  return `<div class="codehilite"${attr}><pre><span></span><code>${body}</code></pre></div>`;
}
