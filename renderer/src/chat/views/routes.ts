import type { ChatState, Narrow } from '../data/model.js';
import { hashToNarrow, narrowToHash } from '../data/narrow.js';

/**
 * What the middle column shows. The URL hash is the one source of truth
 * (Zulip's own fragments: `#inbox`, `#recent`, `#feed`, `#narrow/…`), so
 * back/forward, reloads and pasted links all land on the same view.
 */
export type Route =
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'feed'; narrow: Narrow }
  | { kind: 'drafts' }
  | { kind: 'scheduled' };

export const INBOX_HASH = '#inbox';
export const RECENT_HASH = '#recent';
/** Zulip's "Combined feed" (all messages); `#all_messages` is its older name. */
export const FEED_HASH = '#feed';
export const MENTIONS_HASH = '#narrow/is/mentioned';
export const STARRED_HASH = '#narrow/is/starred';
/** Zulip's Drafts and Scheduled messages views. */
export const DRAFTS_HASH = '#drafts';
export const SCHEDULED_HASH = '#scheduled';

/** Zulip's `web_home_view` setting picks the view at `#` (inbox by default). */
function homeRoute(state: ChatState): Route {
  return routeFromHash(homeHash(state), state);
}

/** The hash of the home view (also where `Esc` goes), as `web_home_view` names it. */
export function homeHash(state: ChatState): string {
  const home = state.settings.web_home_view;
  if (home === 'recent_topics') return RECENT_HASH;
  if (home === 'all_messages') return FEED_HASH;
  return INBOX_HASH;
}

export function routeFromHash(hash: string, state: ChatState): Route {
  switch (hash) {
    case '':
    case '#':
      return homeRoute(state);
    case INBOX_HASH:
      return { kind: 'inbox' };
    case RECENT_HASH:
    case '#recent_topics':
      return { kind: 'recent' };
    case FEED_HASH:
    case '#all_messages':
      return { kind: 'feed', narrow: [] };
    case DRAFTS_HASH:
      return { kind: 'drafts' };
    case SCHEDULED_HASH:
      return { kind: 'scheduled' };
  }
  if (hash.startsWith('#narrow/')) {
    const narrow = hashToNarrow(hash, state);
    if (narrow) return { kind: 'feed', narrow };
  }
  return homeRoute(state);
}

/** The hash of a narrow, with the combined feed's own name for the empty narrow. */
export function hashFor(narrow: Narrow, state: ChatState): string {
  if (narrow.length === 0) return FEED_HASH;
  return narrowToHash(narrow, state) || FEED_HASH;
}
