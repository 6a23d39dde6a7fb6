import { describe, expect, it } from 'vitest';
import {
  applyFormat,
  type Edit,
  type FormatKind,
} from '../../../renderer/src/chat/compose/formatting.js';

/** `text` with `[` `]` marking the selection, in and out. */
function run(kind: FormatKind, marked: string): string {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  const edit: Edit = {
    text: marked.replace('[', '').replace(']', ''),
    selectionStart: start,
    selectionEnd: end,
  };
  const out = applyFormat(kind, edit);
  return `${out.text.slice(0, out.selectionStart)}[${out.text.slice(out.selectionStart, out.selectionEnd)}]${out.text.slice(out.selectionEnd)}`;
}

describe('the compose formatting buttons', () => {
  it('wraps the selection in bold and italic markers, and takes them off again', () => {
    expect(run('bold', 'say [hi] now')).toBe('say **[hi]** now');
    expect(run('bold', 'say **[hi]** now')).toBe('say [hi] now');
    expect(run('bold', 'say [**hi**] now')).toBe('say [hi] now');
    expect(run('italic', 'say [hi]')).toBe('say *[hi]*');
    expect(run('italic', 'say *[hi]*')).toBe('say [hi]');
    // Italic inside bold adds its own markers rather than eating bold's.
    expect(run('italic', '**[hi]**')).toBe('***[hi]***');
    expect(run('bold', '[]')).toBe('**[]**');
  });

  it('makes links with "url" selected to type over', () => {
    expect(run('link', 'see [docs]')).toBe('see [docs]([url])');
    expect(run('link', 'see []')).toBe('see [[]](url)');
  });

  it('uses inline code and math for one line, fenced blocks for more', () => {
    expect(run('code', 'run [ls -l] now')).toBe('run `[ls -l]` now');
    expect(run('code', '[a\nb]')).toBe('```\n[a\nb]\n```');
    expect(run('math', '[x^2]')).toBe('$$[x^2]$$');
    expect(run('math', 'so:[a\nb]')).toBe('so:\n```math\n[a\nb]\n```');
  });

  it('puts quotes and spoilers on lines of their own', () => {
    expect(run('quote', 'before [said] after')).toBe('before \n```quote\n[said]\n```\n after');
    expect(run('spoiler', '[]')).toBe('```spoiler [Header]\n\n```');
  });

  it('starts polls and to-do lists at the top of the message', () => {
    expect(run('poll', '[]')).toBe('/poll [Question]\nOption 1\nOption 2');
    expect(run('todo', 'milk[]')).toBe('/todo [Task list]\nFirst task\nSecond task\nmilk');
  });
});
