import { MAX_NESTING } from './blocks.js';
import { renderCodeBlock } from './codehilite.js';
import { blockPlaceholder } from './inline.js';
import { renderDisplayTex } from './math.js';

/**
 * Fenced blocks are resolved line by line before block parsing, as Zulip
 * does: code and math become stashed HTML, while quote and spoiler blocks
 * turn back into Markdown (quotes as `> ` lines, spoilers between stashed
 * wrapper markup) so their content is parsed like everything else. Quote and
 * spoiler blocks can contain further fences; code and math cannot.
 */

const FENCE_RE =
  /^(\s*)(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+)\}?)?(?:[ ]+([^~`\s][^~`]*?))?[ ]*$/;

type Kind = 'code' | 'quote' | 'spoiler' | 'math';

interface Handler {
  kind: Kind;
  fence: string;
  lang: string | undefined;
  header: string;
  indent: string;
  lines: string[];
}

function kindOf(lang: string | undefined): Kind {
  switch (lang?.toLowerCase()) {
    case 'quote':
      return 'quote';
    case 'spoiler':
      return 'spoiler';
    case 'math':
      return 'math';
    default:
      return 'code';
  }
}

export function processFences(input: string[], stash: string[]): string[] {
  const output: string[] = [];
  const stack: Handler[] = [];
  const place = (html: string): string => {
    stash.push(html);
    return blockPlaceholder(stash.length - 1);
  };
  const sink = (): string[] => (stack.length ? stack[stack.length - 1]!.lines : output);

  const finish = (h: Handler): void => {
    let lines: string[];
    switch (h.kind) {
      case 'code':
        lines = ['', h.indent + place(renderCodeBlock(h.lines.join('\n'), h.lang)), ''];
        break;
      case 'math':
        lines = ['', h.indent + place(renderDisplayTex(h.lines.join('\n'))), ''];
        break;
      case 'quote':
        lines = ['', ...h.lines.map((l) => `> ${l}`), ''];
        break;
      case 'spoiler':
        lines = [
          '',
          place('<div class="spoiler-block"><div class="spoiler-header">'),
          '',
          h.header,
          '',
          place('</div><div class="spoiler-content" aria-hidden="true">'),
          '',
          ...h.lines,
          '',
          place('</div></div>'),
          '',
        ];
        break;
    }
    sink().push(...lines);
  };

  for (const line of input) {
    const top = stack[stack.length - 1];
    if (top && line.trim() === top.fence) {
      stack.pop();
      finish(top);
      continue;
    }
    if (top && (top.kind === 'code' || top.kind === 'math')) {
      top.lines.push(line);
      continue;
    }
    const m = stack.length < MAX_NESTING ? FENCE_RE.exec(line) : null;
    if (m) {
      const lang = m[3];
      stack.push({
        kind: kindOf(lang),
        fence: m[2]!,
        lang,
        header: m[4] ?? '',
        indent: m[1] ?? '',
        lines: [],
      });
      continue;
    }
    sink().push(line);
  }
  // Unclosed fences run to the end of the message.
  while (stack.length) finish(stack.pop()!);
  return output;
}
