/**
 * The compose box's formatting buttons, as Zulip's compose bar writes them:
 * each takes the text and selection and gives the new text and selection.
 * Wrapping an already wrapped selection unwraps it (the buttons toggle).
 */

export type FormatKind =
  | 'bold'
  | 'italic'
  | 'link'
  | 'code'
  | 'quote'
  | 'spoiler'
  | 'math'
  | 'poll'
  | 'todo';

export interface Edit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

function wrapInline(edit: Edit, marker: string): Edit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  const before = text.slice(0, start);
  const inside = text.slice(start, end);
  const after = text.slice(end);
  // The markers around the selection: take them off.
  if (before.endsWith(marker) && after.startsWith(marker)) {
    // `*` inside `**`: bold text's markers are not italic ones.
    const outer = marker === '*' && before.endsWith('**') && after.startsWith('**');
    if (!outer || (before.endsWith('***') && after.startsWith('***'))) {
      return {
        text: before.slice(0, -marker.length) + inside + after.slice(marker.length),
        selectionStart: start - marker.length,
        selectionEnd: end - marker.length,
      };
    }
  }
  // The selection holds the markers itself.
  if (
    inside.length >= marker.length * 2 &&
    inside.startsWith(marker) &&
    inside.endsWith(marker) &&
    !(marker === '*' && inside.startsWith('**') && !inside.startsWith('***'))
  ) {
    const bare = inside.slice(marker.length, -marker.length);
    return {
      text: before + bare + after,
      selectionStart: start,
      selectionEnd: start + bare.length,
    };
  }
  return {
    text: before + marker + inside + marker + after,
    selectionStart: start + marker.length,
    selectionEnd: end + marker.length,
  };
}

/** A fenced block on lines of its own around the selection; `header` selected when the selection is empty. */
function wrapBlock(edit: Edit, opening: string, placeholder?: string): Edit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  const before = text.slice(0, start);
  const inside = text.slice(start, end);
  const after = text.slice(end);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  const head = `${lead}${opening}\n`;
  const block = `${head}${inside}\n\`\`\`${trail}`;
  const from = before.length + head.length;
  // An empty block: the cursor goes inside it, or the header's placeholder is selected to be typed over.
  if (inside === '' && placeholder !== undefined) {
    const at = before.length + lead.length + opening.indexOf(placeholder);
    return {
      text: before + block + after,
      selectionStart: at,
      selectionEnd: at + placeholder.length,
    };
  }
  return { text: before + block + after, selectionStart: from, selectionEnd: from + inside.length };
}

function link(edit: Edit): Edit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  const inside = text.slice(start, end);
  // Zulip's link button: the selection becomes the link's text, "url" is selected to be typed over.
  const written = `[${inside}](url)`;
  const urlAt = start + inside.length + 3;
  return {
    text: text.slice(0, start) + written + text.slice(end),
    selectionStart: inside === '' ? start + 1 : urlAt,
    selectionEnd: inside === '' ? start + 1 : urlAt + 3,
  };
}

/** A widget command: it must open the message, so it goes first, before what is written. */
function widget(edit: Edit, template: string, selected: string): Edit {
  const rest = edit.text.trim() === '' ? '' : `\n${edit.text}`;
  const at = template.indexOf(selected);
  return { text: template + rest, selectionStart: at, selectionEnd: at + selected.length };
}

export function applyFormat(kind: FormatKind, edit: Edit): Edit {
  const inside = edit.text.slice(edit.selectionStart, edit.selectionEnd);
  const multiline = inside.includes('\n');
  switch (kind) {
    case 'bold':
      return wrapInline(edit, '**');
    case 'italic':
      return wrapInline(edit, '*');
    case 'link':
      return link(edit);
    case 'code':
      return inside !== '' && !multiline ? wrapInline(edit, '`') : wrapBlock(edit, '```');
    case 'quote':
      return wrapBlock(edit, '```quote');
    case 'spoiler':
      return wrapBlock(edit, '```spoiler Header', 'Header');
    case 'math':
      return inside !== '' && !multiline ? wrapInline(edit, '$$') : wrapBlock(edit, '```math');
    case 'poll':
      return widget(edit, '/poll Question\nOption 1\nOption 2', 'Question');
    case 'todo':
      return widget(edit, '/todo Task list\nFirst task\nSecond task', 'Task list');
  }
}
