import { useEffect, useSyncExternalStore } from 'react';

/**
 * Routes by the URL hash. What a hash means lives in routes.ts (no React:
 * the page's first script reads it too); here, following and setting it.
 */
export {
  DRAFTS_HASH,
  FEED_HASH,
  hashFor,
  homeHash,
  INBOX_HASH,
  MENTIONS_HASH,
  RECENT_HASH,
  type Route,
  routeFromHash,
  SCHEDULED_HASH,
  STARRED_HASH,
} from './routes.js';

/** Goes to `hash` as a new history entry (a link click does the same). */
export function navigate(hash: string): void {
  if (location.hash === hash) return;
  location.hash = hash;
}

/**
 * Goes to `hash` in place of the current history entry: the view moved on
 * its own (a link's message was moved), and Back should not return to
 * the old address.
 */
export function replaceHash(hash: string): void {
  if (location.hash === hash) return;
  location.replace(hash);
}

const subscribeToHash = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The current hash, re-rendering on back/forward and link clicks. */
export function useHash(): string {
  return useSyncExternalStore(subscribeToHash, () => location.hash);
}

/** Keeps the title in step with `text` (restores nothing: the app owns the title). */
export function useDocumentTitle(text: string): void {
  useEffect(() => {
    document.title = text;
  }, [text]);
}

export { narrowKey } from '../data/narrow.js';
