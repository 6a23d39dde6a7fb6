import type { ChatState, ComposeTarget, Message, Narrow } from './model.js';

/**
 * Narrows on the client, following the server's rules (server/narrow/):
 * Zulip's search syntax, `#narrow/…` links, and whether a message belongs
 * to a narrow. STUB: replaced by the data layer.
 */
export function parseSearch(_text: string, _state: ChatState): Narrow {
  return [];
}
/** Back to the search box's text. */
export function narrowToSearch(_narrow: Narrow, _state: ChatState): string {
  return '';
}
/** Zulip's web-app link fragment: `#narrow/channel/5-general/topic/lunch`. */
export function narrowToHash(_narrow: Narrow, _state: ChatState): string {
  return '';
}
export function hashToNarrow(_hash: string, _state: ChatState): Narrow | null {
  return null;
}
/** A link to one message (`#narrow/channel/…/topic/…/near/{id}` or `#narrow/dm/…/near/{id}`). */
export function messageLink(_message: Message, _state: ChatState): string {
  return '';
}
export function messageMatchesNarrow(
  _message: Message,
  _narrow: Narrow,
  _state: ChatState,
): boolean {
  return false;
}
/** A title for the narrow ("#general > lunch", "Alice, Bob", "Mentions", "Search results"). */
export function describeNarrow(_narrow: Narrow, _state: ChatState): string {
  return '';
}
/** Where the compose box sends by default in this narrow (null: the user chooses). */
export function composeTargetFor(_narrow: Narrow, _state: ChatState): ComposeTarget | null {
  return null;
}
/** The key of a DM conversation: the other participants' ids sorted, joined by `,` (own id alone for a self-DM). */
export function dmKey(_userIds: number[], _ownUserId: number): string {
  return '';
}
