import type { ChatActions, ChatState, Narrow } from '../data/model.js';
import { narrowToHash } from '../data/narrow.js';

/**
 * Shows a narrow in the feed and puts its `#narrow/…` link in the address
 * bar (a history entry, so Back returns), as following a link in Zulip's
 * web app does. pushState fires no hashchange, so the narrow is shown once.
 */
export function goToNarrow(narrow: Narrow, state: ChatState, actions: ChatActions): void {
  actions.showNarrow(narrow);
  const hash = narrowToHash(narrow, state);
  if (hash && window.location.hash !== hash) window.history.pushState(null, '', hash);
}

/** The shareable URL of a narrow: the chat's address with its `#narrow/…` fragment. */
export function narrowUrl(narrow: Narrow, state: ChatState, chatUrl: string): string {
  return new URL(narrowToHash(narrow, state), chatUrl).toString();
}
