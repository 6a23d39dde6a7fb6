/**
 * Which users' alert words a message contains, as Zulip's Markdown
 * processor decides (AlertWordNotificationProcessor): on the message's
 * source, after whitespace normalization and with fenced code and math
 * blocks set aside, both lowercased; a word counts only where it is
 * bounded by the start or end of the text or by one of a few whitespace
 * and punctuation characters.
 */

/** Characters allowed just before an alert word. */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/**
 * Characters allowed just after one. Zulip's list has no plain double
 * quote (its entry is the two characters `",`, which never equals one
 * character), so a word followed by `"` does not count.
 */
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Python-Markdown's NormalizeWhitespace: line endings, tabs (to 4 columns), blank lines. */
function normalizedLines(content: string): string[] {
  const text = content
    .replaceAll('\u0002', '')
    .replaceAll('\u0003', '')
    .replaceAll('\r\n', '\n')
    .replaceAll('\r', '\n');
  return text.split('\n').map((line) => {
    let out = '';
    for (const ch of line) {
      if (ch === '\t') out += ' '.repeat(4 - ([...out].length % 4));
      else out += ch;
    }
    return /^ +$/.test(out) ? '' : out;
  });
}

/** A fence line: ``` or ~~~ (three or more), then optionally a language and a header. */
const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]*)[ ]*(?:[^ ~`][^~`]*)?\}?)?$/;

/**
 * The lines outside fenced code and math blocks. Quote and spoiler blocks
 * are Markdown inside, so their lines (and a spoiler's header) stay; a
 * code block left open runs to the end of the message.
 */
function linesOutsideCode(lines: readonly string[]): string[] {
  const out: string[] = [];
  const open: { fence: string; markdown: boolean }[] = [];
  for (const line of lines) {
    const inner = open[open.length - 1];
    if (inner && line.trimEnd() === inner.fence) {
      open.pop();
      continue;
    }
    if (inner && !inner.markdown) continue;
    const fence = FENCE.exec(line);
    if (fence) {
      const lang = (fence[2] ?? '').toLowerCase();
      const markdown = lang === 'quote' || lang === 'spoiler';
      open.push({ fence: fence[1]!, markdown });
      if (lang === 'spoiler') {
        const header = line.slice(line.toLowerCase().indexOf('spoiler') + 'spoiler'.length);
        out.push(header.replace(/\}$/, '').trim());
      }
      continue;
    }
    out.push(line);
  }
  return out;
}

/**
 * Zulip's start check looks at the character before the word, except when
 * the word starts at the first or second character (counted in code
 * points, as Python counts), which always passes.
 */
function validStart(text: string, pos: number): boolean {
  if (pos === 0) return true;
  if (pos <= 2 && [...text.slice(0, pos)].length === 1) return true;
  return BEFORE.has(text[pos - 1]!);
}

function validEnd(text: string, end: number): boolean {
  return end >= text.length || AFTER.has(text[end]!);
}

function contains(text: string, word: string): boolean {
  for (let pos = text.indexOf(word); pos !== -1; pos = text.indexOf(word, pos + 1)) {
    if (validStart(text, pos) && validEnd(text, pos + word.length)) return true;
  }
  return false;
}

/** The users (of `words`) with an alert word in `content`. */
export function usersWithAlertWords(
  content: string,
  words: readonly { user_id: number; word: string }[],
): Set<number> {
  const found = new Set<number>();
  if (words.length === 0) return found;
  const usersByWord = new Map<string, number[]>();
  for (const { user_id, word } of words) {
    const lower = word.toLowerCase();
    const users = usersByWord.get(lower);
    if (users) users.push(user_id);
    else usersByWord.set(lower, [user_id]);
  }
  const text = linesOutsideCode(normalizedLines(content)).join('\n').toLowerCase();
  for (const [word, users] of usersByWord) {
    if (users.every((id) => found.has(id))) continue;
    if (contains(text, word)) for (const id of users) found.add(id);
  }
  return found;
}
