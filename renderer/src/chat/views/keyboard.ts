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
  /** Esc outside a field: close what is open (the drawer, a popover), else go to the home view. */
  escape(): void;
  /** Ctrl+S: star or unstar the selected message. */
  toggleStar(): void;
  /** `*`: the Starred view. */
  openStarred(): void;
  /** `+`: give or take back one's thumbs-up on the selected message. */
  thumbsUp(): void;
  /** `:`: the emoji picker for a reaction to the selected message. */
  react(): void;
  /** `e`: edit the selected message. */
  edit(): void;
  /** `i`: the selected message's actions menu. */
  messageMenu(): void;
  /** `>`: quote the selected message in a reply. */
  quote(): void;
  /** `Shift+R`: a direct message to the selected message's sender. */
  replyToAuthor(): void;
  /** `@`: reply, mentioning the sender. */
  replyMentioning(): void;
  /** `Shift+M`: mute or unmute the selected message's topic. */
  toggleTopicMute(): void;
  /** `s`: the selected message's topic, or from there its channel (a DM's conversation). */
  toggleConversation(): void;
  /** `v`: the selected message's pictures. */
  viewImages(): void;
}

/** The help dialog's list (`?`), grouped as Zulip's; keys as shown. */
export const SHORTCUT_GROUPS: {
  title: string;
  shortcuts: { keys: string[]; action: string }[];
}[] = [
  {
    title: 'Navigation',
    shortcuts: [
      { keys: ['n'], action: 'Next unread topic' },
      { keys: ['p'], action: 'Next unread direct message' },
      { keys: ['↑', 'k'], action: 'Previous message' },
      { keys: ['↓', 'j'], action: 'Next message' },
      { keys: ['s'], action: 'Go to the conversation (again: its channel)' },
      { keys: ['*'], action: 'Starred messages' },
      { keys: ['/'], action: 'Search' },
      { keys: ['Esc'], action: 'Close, leave a field, or go to the home view' },
      { keys: ['?'], action: 'Show keyboard shortcuts' },
    ],
  },
  {
    title: 'Composing',
    shortcuts: [
      { keys: ['c'], action: 'New message in a channel' },
      { keys: ['x'], action: 'New direct message' },
      { keys: ['r', 'Enter'], action: 'Reply to the selected message' },
      { keys: ['Shift+R'], action: 'Reply directly to the sender' },
      { keys: ['@'], action: 'Reply mentioning the sender' },
      { keys: ['>'], action: 'Quote the selected message' },
    ],
  },
  {
    title: 'The selected message',
    shortcuts: [
      { keys: ['i'], action: 'Message actions' },
      { keys: ['e'], action: 'Edit' },
      { keys: [':'], action: 'Add an emoji reaction' },
      { keys: ['+'], action: 'React with a thumbs-up (again: take it back)' },
      { keys: ['Ctrl+S'], action: 'Star or unstar' },
      { keys: ['Shift+M'], action: 'Mute or unmute the topic' },
      { keys: ['v'], action: 'View its images' },
    ],
  },
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
      if (event.defaultPrevented) return;
      const h = current.current;
      // Zulip's Ctrl+S (Cmd+S on a Mac) stars; the browser would save the page.
      if (
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        event.key.toLowerCase() === 's' &&
        !isTyping(event.target) &&
        !document.querySelector('dialog[open]')
      ) {
        event.preventDefault();
        h.toggleStar();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') {
        if (isTyping(event.target)) {
          (event.target as HTMLElement).blur();
          event.preventDefault();
          return;
        }
        // An open dialog or menu closes itself (the account menu listens for Esc too).
        if (document.querySelector('dialog[open], [role="menu"]')) return;
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
        case '*':
          return run(h.openStarred);
        case '+':
          return run(h.thumbsUp);
        case ':':
          return run(h.react);
        case 'e':
          return run(h.edit);
        case 'i':
          return run(h.messageMenu);
        case '>':
          return run(h.quote);
        case 'R':
          return run(h.replyToAuthor);
        case '@':
          return run(h.replyMentioning);
        case 'M':
          return run(h.toggleTopicMute);
        case 's':
          return run(h.toggleConversation);
        case 'v':
          return run(h.viewImages);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
