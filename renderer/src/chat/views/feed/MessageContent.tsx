import './code-blocks.css';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { openUserCard } from '../../people/user-card-control.js';
import { copyText } from '../../ui/clipboard.js';
import { markTypedEmoji, mayHaveTypedEmoji } from '../../ui/emoji-sprites.js';
import { navigate } from '../routing.js';
import { addCodeButtons, copyCodeFrom, type Playground } from './code-blocks.js';

/**
 * A message's HTML as the server rendered (and sanitised) it, with what
 * Zulip's web app adds on top: local times in `<time>`, your own mentions
 * highlighted, spoilers that open and close from mouse and keyboard, in-app
 * navigation for channel and topic links, other links in a new tab, and a
 * copy button and playground links on code blocks (`code-blocks.ts`).
 */
export const MessageContent = memo(function MessageContent({
  html,
  ownUserId,
  ownGroupIds,
  playgrounds,
}: {
  html: string;
  ownUserId: number;
  /** Groups the reader belongs to: mentions of them are highlighted like their own. */
  ownGroupIds: Set<number>;
  /** The organization's code playgrounds (register's `realm_playgrounds`). */
  playgrounds: readonly Playground[];
}) {
  const ref = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: new HTML replaces the enhanced nodes, so it must run again
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    enhance(root, ownUserId, ownGroupIds);
    addCodeButtons(root, playgrounds);
  }, [html, ownUserId, ownGroupIds, playgrounds]);

  // Delegated: the handlers serve links, mentions and spoiler headers inside the HTML,
  // each of which is focusable on its own.
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    root.addEventListener('click', onContentClick);
    root.addEventListener('keydown', onContentKey);
    return () => {
      root.removeEventListener('click', onContentClick);
      root.removeEventListener('keydown', onContentKey);
    };
  }, []);

  return (
    <div
      ref={ref}
      className="rendered-markdown"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server renders and sanitises message HTML (as Zulip's does); the client shows it as is
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});

function enhance(root: HTMLElement, ownUserId: number, ownGroupIds: Set<number>): void {
  for (const time of Array.from(root.querySelectorAll<HTMLTimeElement>('time[datetime]'))) {
    const date = new Date(time.dateTime);
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = date.toLocaleString(undefined, {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    time.title = date.toString();
  }
  for (const mention of Array.from(
    root.querySelectorAll<HTMLElement>('.user-mention[data-user-id]'),
  )) {
    const id = mention.dataset.userId;
    // `*` is a wildcard mention (@all, @everyone), which reaches everyone.
    const mine = id === '*' || Number(id) === ownUserId;
    mention.classList.toggle('self-mention', mine);
    if (id !== '*' && !mention.classList.contains('silent')) {
      mention.setAttribute('role', 'button');
      mention.tabIndex = 0;
    }
  }
  // Zulip's emoji markup is drawn by the sprite stylesheet; emoji typed as characters get it here.
  if (mayHaveTypedEmoji(root.textContent ?? '')) markTypedEmoji(root);
  for (const mention of Array.from(
    root.querySelectorAll<HTMLElement>('.user-group-mention[data-user-group-id]'),
  )) {
    mention.classList.toggle('self-mention', ownGroupIds.has(Number(mention.dataset.userGroupId)));
  }
  for (const header of Array.from(root.querySelectorAll<HTMLElement>('.spoiler-header'))) {
    header.setAttribute('role', 'button');
    header.tabIndex = 0;
    const open = header.parentElement?.classList.contains('spoiler-open') ?? false;
    header.setAttribute('aria-expanded', String(open));
  }
  for (const link of Array.from(root.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
    if (inAppHash(link) === null) {
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
  }
}

/** The `#narrow/…` of a link to this chat (`/#narrow/…` as the server writes them), else null. */
function inAppHash(link: HTMLAnchorElement): string | null {
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname !== '/') return null;
  return url.hash.startsWith('#narrow/') ? url.hash : null;
}

function toggleSpoiler(header: HTMLElement): void {
  const block = header.closest('.spoiler-block');
  if (!block) return;
  const open = block.classList.toggle('spoiler-open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
}

function activate(target: HTMLElement, event: { preventDefault(): void }): boolean {
  const copy = target.closest<HTMLElement>('.copy-code');
  if (copy) {
    event.preventDefault();
    copyCodeFrom(copy, copyText);
    return true;
  }
  const spoiler = target.closest<HTMLElement>('.spoiler-header');
  if (spoiler) {
    // A link inside the spoiler's header still works as a link.
    if (target.closest('a')) return false;
    event.preventDefault();
    toggleSpoiler(spoiler);
    return true;
  }
  const mention = target.closest<HTMLElement>('.user-mention[data-user-id]');
  if (mention && mention.dataset.userId !== '*') {
    event.preventDefault();
    openUserCard(Number(mention.dataset.userId), mention);
    return true;
  }
  return false;
}

function onContentClick(event: MouseEvent): void {
  const target = event.target as HTMLElement;
  if (activate(target, event)) return;
  const link = target.closest('a');
  if (!link) return;
  const hash = inAppHash(link);
  if (hash !== null && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault();
    navigate(hash);
  }
}

function onContentKey(event: KeyboardEvent): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  activate(event.target as HTMLElement, event);
}
