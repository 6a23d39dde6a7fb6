import type { ChatState, Narrow } from '../data/model.js';
import { narrowToHash } from '../data/narrow.js';
import { hashFor, navigate } from '../views/routing.js';

/**
 * Shows a narrow in the feed the way a link does: the URL hash is the
 * app's one source of truth (views/routing.ts), so setting it opens the
 * narrow and makes a history entry that Back returns from.
 */
export function goToNarrow(narrow: Narrow, state: ChatState): void {
  navigate(hashFor(narrow, state));
}

/** The shareable URL of a narrow: the chat's address with its `#narrow/…` fragment. */
export function narrowUrl(narrow: Narrow, state: ChatState, chatUrl: string): string {
  return new URL(narrowToHash(narrow, state), chatUrl).toString();
}
