/**
 * Zulip's "Mark as unread from here": every message of the view from this
 * one on loses its read flag (`POST /messages/flags/narrow`, in batches as
 * Zulip's web app sends it), and the view stops marking what it shows as
 * read until the user goes to another view, or the messages would be read
 * again at once.
 */
import type { ZulipApi } from '../data/api.js';
import type { Narrow } from '../data/model.js';
import { narrowKey, wireNarrow } from '../data/narrow.js';

/** Zulip's batch for POST /messages/flags/narrow. */
const BATCH = 1000;

let pausedKey: string | null = null;

/** Whether the feed showing `narrow` should leave what it shows unread. */
export function readingPaused(narrow: Narrow): boolean {
  return pausedKey !== null && pausedKey === narrowKey(narrow);
}

/** The feed moved to another narrow: reading marks messages read again. */
export function resumeReading(): void {
  pausedKey = null;
}

export async function markUnreadFromHere(
  api: ZulipApi,
  narrow: Narrow,
  messageId: number,
): Promise<void> {
  pausedKey = narrowKey(narrow);
  let anchor = messageId;
  let includeAnchor = true;
  for (;;) {
    const answer = await api.call<{ found_newest: boolean; last_processed_id: number | null }>(
      'POST',
      '/messages/flags/narrow',
      {
        anchor,
        include_anchor: includeAnchor,
        num_before: 0,
        num_after: BATCH,
        narrow: wireNarrow(narrow),
        op: 'remove',
        flag: 'read',
      },
    );
    if (answer.found_newest || answer.last_processed_id === null) return;
    anchor = answer.last_processed_id;
    includeAnchor = false;
  }
}
