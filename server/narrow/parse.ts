/** Narrow parsing: both wire forms, Zulip's legacy operator names, and anchors. */
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { firstMessageIdAtOrAfter } from '../db/queries/message-search.js';
import type { NarrowTerm } from '../events/queue.js';
import { NARROW_OPERATORS } from '../shared/narrow-operators.js';

export type { NarrowTerm };

/** Zulip's anchor for "newest" (zulip-terminal compares against this exact value). */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export type Anchor = 'newest' | 'oldest' | 'first_unread' | number;
/** Zulip's BadNarrowOperatorError: code BAD_NARROW with the description in `desc`. */
export const badOperator = (desc: string) =>
  new ApiError(`Invalid narrow operator: ${desc}`, { code: 'BAD_NARROW', extra: { desc } });

/** Zulip's InvalidOperatorCombinationError: terms that are fine alone but not together. */
export const badOperatorCombination = (desc: string) =>
  new ApiError(`Invalid narrow operator combination: ${desc}`, {
    code: 'BAD_NARROW',
    extra: { desc },
  });

// ---------------------------------------------------------------------------
// Parsing

/** Operators whose operand may be an id (Zulip's operators_supporting_id). */
export const idOperators = new Set([
  'channel',
  'stream',
  'id',
  'sender',
  'group-pm-with',
  'dm-including',
  'with',
  'near',
]);
export const idListOperators = new Set(['dm', 'pm-with']);

export const isOperands = new Set([
  'dm',
  'private',
  'starred',
  'mentioned',
  'alerted',
  'unread',
  'resolved',
  'followed',
  'muted',
]);
export const hasOperands = new Set(['link', 'image', 'attachment', 'reaction']);

export function checkOperand(operator: string, operand: unknown): unknown {
  if (idOperators.has(operator)) {
    if (typeof operand === 'string' || Number.isSafeInteger(operand)) return operand;
    throw badRequest('operand is not a string or integer');
  }
  if (idListOperators.has(operator)) {
    if (typeof operand === 'string') return operand;
    if (!Array.isArray(operand)) throw badRequest('operand is not a string or an integer list');
    operand.forEach((id, i) => {
      if (!Number.isSafeInteger(id)) throw badRequest(`operand[${i}] is not an integer`);
    });
    return operand;
  }
  if (typeof operand !== 'string') throw badRequest('operand is not a string');
  if (operator === 'search' && operand.trim() === '') throw badRequest('operand cannot be blank.');
  return operand;
}

export function parseTerm(element: unknown, index: number): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(element)) {
    // The legacy [operator, operand] pair; ids are accepted as well as strings.
    if (element.length !== 2 || typeof element[0] !== 'string') {
      throw badRequest(`Invalid narrow[${index}]: element is not a string pair`);
    }
    [operator, operand] = element;
  } else if (element !== null && typeof element === 'object') {
    const dict = element as Record<string, unknown>;
    if (dict.operand === undefined || dict.operand === null) {
      throw badRequest(`Invalid narrow[${index}]: operand is missing`);
    }
    if (dict.operator === undefined || dict.operator === null) {
      throw badRequest(`Invalid narrow[${index}]: operator is missing`);
    }
    ({ operator, operand } = dict);
    negated = dict.negated ?? false;
  } else {
    throw badRequest(`Invalid narrow[${index}]: dict or list required`);
  }
  if (typeof operator !== 'string') throw badRequest('operator is not a string');
  if (typeof negated !== 'boolean') throw badRequest('negated is not a boolean');
  return { operator, operand: checkOperand(operator, operand), negated };
}

/** Operand checks that need no database, after every term's types were checked. */
export function canonicalTerm(term: NarrowTerm): NarrowTerm {
  // Wire names to the names used internally (legacy aliases included).
  const operator = NARROW_OPERATORS[term.operator];
  if (operator === undefined) throw badOperator(`unknown operator ${term.operator}`);
  let operand = term.operand;
  switch (operator) {
    case 'is':
      if (!isOperands.has(String(operand))) throw badOperator(`unknown 'is' operand ${operand}`);
      if (operand === 'private') operand = 'dm';
      break;
    case 'has':
      if (!hasOperands.has(String(operand))) throw badOperator(`unknown 'has' operand ${operand}`);
      break;
    case 'in':
      if (operand !== 'home' && operand !== 'all') {
        throw badOperator(`unknown 'in' operand ${operand}`);
      }
      break;
    case 'channels':
      if (operand !== 'public' && operand !== 'web-public') {
        throw badOperator(`unknown channels operand ${operand}`);
      }
      break;
    case 'id':
    case 'near':
      if (!/^\d+$/.test(String(operand).trim())) throw badOperator('Invalid message ID');
      operand = Number(String(operand).trim());
      break;
    case 'with':
      if (!/^\d+$/.test(String(operand).trim())) throw badOperator("Invalid 'with' operator");
      operand = Number(String(operand).trim());
      break;
  }
  return { operator, operand, negated: term.negated };
}

/**
 * A narrow as clients send it (already JSON-decoded): a list of
 * {operator, operand, negated?} dicts or legacy [operator, operand] pairs.
 * Returns the terms with canonical operator names (stream → channel,
 * pm-with → dm, is:private → is:dm). Throws BAD_REQUEST with Zulip's wording.
 */
export function parseNarrow(raw: unknown): NarrowTerm[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('narrow is not a list');
  const terms = raw.map(parseTerm);
  return terms.map(canonicalTerm);
}

// ---------------------------------------------------------------------------
// Anchors

/**
 * Zulip's parse_anchor_value plus a date: "newest", "oldest", "first_unread",
 * an integer (negative → 0, above the maximum → the maximum) or an ISO 8601
 * date or date-time (a date-time without an offset is UTC), which anchors at
 * the first message sent at or after that moment ("newest" if none was).
 */
export function parseAnchor(ctx: AppContext, raw: string): Anchor {
  const text = raw.trim();
  if (text === 'newest' || text === 'oldest' || text === 'first_unread') return text;
  if (/^[+-]?\d+$/.test(text)) {
    const value = BigInt(text);
    if (value < 0n) return 0;
    if (value > BigInt(LARGER_THAN_MAX_MESSAGE_ID)) return LARGER_THAN_MAX_MESSAGE_ID;
    return Number(value);
  }
  const iso =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      text,
    );
  if (iso) {
    const ms = Date.parse(iso[2] ? `${iso[1]}T${iso[2]}${iso[3] ?? 'Z'}` : `${iso[1]}T00:00:00Z`);
    if (!Number.isNaN(ms)) {
      return firstMessageIdAtOrAfter(ctx.db, Math.ceil(ms / 1000)) ?? LARGER_THAN_MAX_MESSAGE_ID;
    }
  }
  throw badRequest('Invalid anchor');
}

// ---------------------------------------------------------------------------
// Access

/** Channels the user may read, and those whose whole history they may read. */
