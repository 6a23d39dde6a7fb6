import { useEffect, useRef } from 'react';

/** What each shortcut does; the shell supplies them. */
export interface ShortcutHandlers {
  nextUnreadTopic(): void;
  nextUnreadDirect(): void;
  compose(): void;
  composeDirect(): void;
  reply(): void;
  /** `delta` messages down (positive) or up (negative). */
  moveSelection(delta: number): void;
  focusSearch(): void;
  showHelp(): void;
  /** Esc outside a field: close what is open (the drawer, a popover). */
  escape(): void;
}

/** Zulip's main shortcuts, for the help dialog (keys as shown). */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['n'], action: 'Next unread topic' },
  { keys: ['p'], action: 'Next unread direct message' },
  { keys: ['c'], action: 'New message in a channel' },
  { keys: ['x'], action: 'New direct message' },
  { keys: ['r', 'Enter'], action: 'Reply to the selected message' },
  { keys: ['↑', 'k'], action: 'Previous message' },
  { keys: ['↓', 'j'], action: 'Next message' },
  { keys: ['/'], action: 'Search' },
  { keys: ['Esc'], action: 'Close, or leave a field' },
  { keys: ['?'], action: 'Show keyboard shortcuts' },
];

/** True while typing: shortcuts must not steal letters from fields. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(
      target.type,
    );
  }
  return false;
}

/** Keys that mean something where focus is (a button, a link, a menu) are left alone. */
function isActionable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest('button, a[href], [role="menu"], [role="button"], dialog') !== null
  );
}

export function useShortcuts(handlers: ShortcutHandlers): void {
  // The latest handlers without re-adding the listener on every render.
  const current = useRef(handlers);
  current.current = handlers;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const h = current.current;
      if (event.key === 'Escape') {
        if (isTyping(event.target)) {
          (event.target as HTMLElement).blur();
          event.preventDefault();
          return;
        }
        if (document.querySelector('dialog[open]')) return;
        h.escape();
        return;
      }
      if (isTyping(event.target)) return;
      // An open dialog owns the keyboard (native <dialog> traps focus for us).
      if (document.querySelector('dialog[open]')) return;
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      switch (event.key) {
        case 'n':
          return run(h.nextUnreadTopic);
        case 'p':
          return run(h.nextUnreadDirect);
        case 'c':
          return run(h.compose);
        case 'x':
          return run(h.composeDirect);
        case 'r':
          return run(h.reply);
        case 'Enter':
          if (isActionable(event.target)) return;
          return run(h.reply);
        case 'ArrowDown':
        case 'j':
          if (event.key === 'ArrowDown' && isActionable(event.target)) return;
          return run(() => h.moveSelection(1));
        case 'ArrowUp':
        case 'k':
          if (event.key === 'ArrowUp' && isActionable(event.target)) return;
          return run(() => h.moveSelection(-1));
        case '/':
          return run(h.focusSearch);
        case '?':
          return run(h.showHelp);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
