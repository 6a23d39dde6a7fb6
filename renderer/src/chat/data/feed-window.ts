import type { Params } from './api.js';
import type { Narrow } from './model.js';
import { nearOf, opensAtFirstUnread, wireNarrow, withOf } from './narrow.js';

/**
 * What the feed asks `GET /messages` for. Its own module (no store behind
 * it) so the page's first script, boot.ts, can ask for the opening feed
 * exactly as the store will.
 */

/** Messages per fetch of the feed (Zulip's web app fetches 50 either side at first). */
export const FETCH_BATCH = 50;

/** What every fetch of the chat's sends besides the window. */
export const MESSAGES_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  // As registered (empty_topic_name): general chat is "" here as in events.
  allow_empty_topic_name: true,
};

/**
 * A narrow's first window: around its `near` or `with` message, else the
 * first unread where reading marks read, else the newest.
 */
export function firstWindowParams(narrow: Narrow): Params {
  // `near` and `with` both open at their message; `with` also follows it (feed.ts).
  const near = nearOf(narrow) ?? withOf(narrow);
  return {
    ...MESSAGES_PARAMS,
    anchor: near ?? (opensAtFirstUnread(narrow) ? 'first_unread' : 'newest'),
    num_before: FETCH_BATCH,
    num_after: FETCH_BATCH,
    narrow: wireNarrow(narrow),
  };
}
