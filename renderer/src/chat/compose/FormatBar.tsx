import type { FormatKind } from './formatting.js';

/** Zulip's compose formatting buttons, in its order; the shortcuts are Zulip's too. */
const BUTTONS: { kind: FormatKind; label: string; text: string; shortcut?: string }[] = [
  { kind: 'bold', label: 'Bold', text: 'B', shortcut: 'Ctrl+B' },
  { kind: 'italic', label: 'Italic', text: 'I', shortcut: 'Ctrl+I' },
  { kind: 'link', label: 'Link', text: 'Link', shortcut: 'Ctrl+Shift+L' },
  { kind: 'code', label: 'Code', text: '</>' },
  { kind: 'quote', label: 'Quote', text: '“ ”' },
  { kind: 'spoiler', label: 'Spoiler', text: 'Spoiler' },
  { kind: 'math', label: 'Math (LaTeX)', text: '∑' },
  { kind: 'poll', label: 'Add poll', text: 'Poll' },
  { kind: 'todo', label: 'Add to-do list', text: 'To-do' },
];

/** The keyboard shortcut's format for a key event in the textarea, if it is one. */
export function formatShortcut(event: React.KeyboardEvent): FormatKind | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (!event.shiftKey && key === 'b') return 'bold';
  if (!event.shiftKey && key === 'i') return 'italic';
  if (event.shiftKey && key === 'l') return 'link';
  return null;
}

export function FormatBar({
  disabled,
  onFormat,
}: {
  disabled: boolean;
  onFormat(kind: FormatKind): void;
}) {
  return (
    <div className="compose-format-bar" role="toolbar" aria-label="Formatting">
      {BUTTONS.map((button) => (
        <button
          key={button.kind}
          type="button"
          className={`format-button format-${button.kind}`}
          aria-label={button.label}
          title={button.shortcut ? `${button.label} (${button.shortcut})` : button.label}
          disabled={disabled}
          // Keeps the textarea's selection: the button must not take the focus first.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onFormat(button.kind)}
        >
          {button.text}
        </button>
      ))}
    </div>
  );
}
