import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  firstUnreadId,
  messagesAmong,
  messagesFrom,
  messagesUpTo,
  narrowQuery,
} from '../db/queries/message-search.js';
import type { MessageRow } from '../db/queries/messages.js';
import type { UserRow } from '../db/queries/users.js';
import type { NarrowTerm } from '../events/queue.js';
import { type Anchor, LARGER_THAN_MAX_MESSAGE_ID } from './parse.js';
import { resolveNarrow } from './resolve.js';
import { mergeSearchQueries, parseSearchOperand, type SearchQuery } from './search-highlight.js';

export type { NarrowTerm };

/* The message window around an anchor, and matching given message ids. */

export interface MessageWindowQuery {
  narrow: NarrowTerm[];
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface MessageWindow {
  /** Ascending by id. */
  rows: MessageRow[];
  /** The resolved anchor (LARGER_THAN_MAX_MESSAGE_ID for "newest"). */
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  historyLimited: boolean;
}

export function searchOfNarrow(narrow: NarrowTerm[]): SearchQuery | null {
  return mergeSearchQueries(
    narrow
      .filter((t) => t.operator === 'search' && !t.negated && typeof t.operand === 'string')
      .map((t) => parseSearchOperand(t.operand as string)),
  );
}

/** The operand of a `near` term, which GET /messages uses as the anchor when none is given. */
export function nearOfNarrow(narrow: NarrowTerm[]): number | null {
  const term = narrow.find((t) => t.operator === 'near');
  if (!term) return null;
  const value = Number(String(term.operand).trim());
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

// ---------------------------------------------------------------------------
// Fetching

/** An excluded anchor must be an end of the range (Zulip's check, before any clamping). */
export function checkAnchorExclusion(numBefore: number, numAfter: number, includeAnchor: boolean) {
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) {
    throw badRequest('The anchor can only be excluded at an end of the range');
  }
}

/**
 * The messages of the narrow around the anchor, as Zulip's fetch_messages:
 * up to numBefore older and numAfter newer ones plus the anchor itself.
 * Channels whose history the user may read contribute all their messages
 * when the narrow names them (or channels:public) and has no `is:` term that
 * depends on per-user rows; otherwise only messages the user received.
 */
export function fetchMessageWindow(
  ctx: AppContext,
  user: UserRow,
  query: MessageWindowQuery,
): MessageWindow {
  checkAnchorExclusion(query.numBefore, query.numAfter, query.includeAnchor);
  const resolved = resolveNarrow(ctx, user, query.narrow, {
    allowHistory: true,
    needUnreadBound: query.anchor === 'first_unread',
  });
  const q = narrowQuery(resolved.visibility, resolved.conditions);

  let anchor: number;
  if (query.anchor === 'newest') anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (query.anchor === 'oldest') anchor = 0;
  else if (query.anchor === 'first_unread') {
    anchor =
      resolved.visibility.unreadFrom > LARGER_THAN_MAX_MESSAGE_ID
        ? LARGER_THAN_MAX_MESSAGE_ID
        : (firstUnreadId(ctx.db, q, resolved.oneChannel) ?? LARGER_THAN_MAX_MESSAGE_ID);
  } else anchor = Math.max(0, Math.min(query.anchor, LARGER_THAN_MAX_MESSAGE_ID));

  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const numBefore = query.numBefore;
  const numAfter = anchoredToRight ? 0 : query.numAfter;
  const include = query.includeAnchor ? 1 : 0;
  const needBefore = !anchoredToLeft && numBefore > 0;
  const needAfter = !anchoredToRight && numAfter > 0;

  // Zulip's limit_query_to_range: the anchor row rides along with one side.
  let rows: MessageRow[];
  if (needBefore && needAfter) {
    rows = [
      ...messagesUpTo(ctx.db, q, anchor - 1, numBefore).reverse(),
      ...messagesFrom(ctx.db, q, anchor, numAfter + 1),
    ];
  } else if (needBefore) {
    const through = anchoredToRight ? LARGER_THAN_MAX_MESSAGE_ID : anchor - (1 - include);
    const limit = anchoredToRight ? numBefore : numBefore + include;
    rows = messagesUpTo(ctx.db, q, through, limit).reverse();
  } else if (needAfter) {
    rows = messagesFrom(ctx.db, q, anchor + (1 - include), numAfter + include);
  } else {
    rows = include ? messagesAmong(ctx.db, q, [anchor]) : [];
  }

  // Zulip's post_process_limited_query.
  let before: MessageRow[];
  let at: MessageRow[];
  let after: MessageRow[];
  if (anchoredToRight) {
    before = rows;
    at = [];
    after = [];
  } else {
    before = rows.filter((r) => r.id < anchor);
    at = rows.filter((r) => r.id === anchor);
    after = rows.filter((r) => r.id > anchor);
  }
  if (numBefore) before = before.slice(-numBefore);
  if (numAfter) after = after.slice(0, numAfter);
  return {
    rows: [...before, ...at, ...after],
    anchor,
    foundAnchor: at.length === 1,
    foundOldest: anchoredToLeft || before.length < numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
    // Hearth has no plan-based history limit.
    historyLimited: false,
  };
}

/** The given messages that match the narrow, whole rows, ascending by id. */
export function messagesMatchingNarrow(
  ctx: AppContext,
  user: UserRow,
  narrow: NarrowTerm[],
  messageIds: readonly number[],
  options: { allowHistory: boolean },
): MessageRow[] {
  if (messageIds.length === 0) return [];
  const resolved = resolveNarrow(ctx, user, narrow, {
    allowHistory: options.allowHistory,
    needUnreadBound: false,
  });
  return messagesAmong(ctx.db, narrowQuery(resolved.visibility, resolved.conditions), messageIds);
}

/**
 * Which of these messages match the narrow for the user. Like Zulip's
 * matches_narrow, only messages the user received (or has flags on) count.
 */
export function messageMatchesNarrow(
  ctx: AppContext,
  user: UserRow,
  narrow: NarrowTerm[],
  messageIds: number[],
): Set<number> {
  return new Set(
    messagesMatchingNarrow(ctx, user, narrow, messageIds, { allowHistory: false }).map((r) => r.id),
  );
}

// ---------------------------------------------------------------------------
// Register narrows (message events)
