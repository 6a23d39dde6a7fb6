/**
 * Zulip's highlight_html_differences: the new rendered HTML with inserted
 * text wrapped in `highlight_text_inserted` spans and removed text put back
 * in `highlight_text_deleted` spans. Tags are never split; a removed tag is
 * dropped and an inserted tag kept, so the result stays well-formed.
 */

const TOKEN = /<[^>]*>|&[a-zA-Z0-9#]+;|\s+|[^\s<&]+|[<&]/g;

const isTag = (token: string) => token.startsWith('<');

function tokenize(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

type Op = { kind: 'equal' | 'delete' | 'insert'; token: string };

/** Above this many cells the middle is treated as replaced wholesale (keeps memory bounded). */
const MAX_LCS_CELLS = 4_000_000;

function diffTokens(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((token) => ({ kind: 'equal', token }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_LCS_CELLS) {
    for (const token of midA) ops.push({ kind: 'delete', token });
    for (const token of midB) ops.push({ kind: 'insert', token });
  } else {
    // lcs[i][j] = LCS length of midA[i..] and midB[j..], row-major.
    const width = m + 1;
    const lcs = new Int32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? lcs[(i + 1) * width + j + 1]! + 1
            : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        ops.push({ kind: 'equal', token: midA[i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
        ops.push({ kind: 'delete', token: midA[i++]! });
      } else {
        ops.push({ kind: 'insert', token: midB[j++]! });
      }
    }
    while (i < n) ops.push({ kind: 'delete', token: midA[i++]! });
    while (j < m) ops.push({ kind: 'insert', token: midB[j++]! });
  }
  for (const token of a.slice(endA)) ops.push({ kind: 'equal', token });
  return ops;
}

export function highlightHtmlDifferences(oldHtml: string, newHtml: string): string {
  const ops = diffTokens(tokenize(oldHtml), tokenize(newHtml));
  let out = '';
  let deleted = '';
  let inserted = '';
  const flush = () => {
    if (deleted.trim()) out += `<span class="highlight_text_deleted">${deleted}</span>`;
    if (inserted.trim()) out += `<span class="highlight_text_inserted">${inserted}</span>`;
    else out += inserted;
    deleted = '';
    inserted = '';
  };
  for (const op of ops) {
    if (op.kind === 'equal') {
      flush();
      out += op.token;
    } else if (isTag(op.token)) {
      // Text may not cross a tag boundary inside one highlight span.
      flush();
      if (op.kind === 'insert') out += op.token;
    } else if (op.kind === 'delete') {
      deleted += op.token;
    } else {
      inserted += op.token;
    }
  }
  flush();
  return out;
}
