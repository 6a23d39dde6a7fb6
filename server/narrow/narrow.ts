import { hasContentAccess, hasMetadataAccess } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  dmGroupIdByMembers,
  firstMessageIdAtOrAfter,
  firstUnreadId,
  messagesAmong,
  messagesFrom,
  messagesUpTo,
  type NarrowCondition,
  narrowQuery,
  unreadLowerBound,
  type Visibility,
} from '../db/queries/message-search.js';
import { type MessageRow, topicKey } from '../db/queries/messages.js';
import { allStreams, type StreamRow, streamById, streamByName } from '../db/queries/streams.js';
import { type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import type { EventQueue, NarrowTerm } from '../events/queue.js';
import { Flag } from '../shared/flags.js';
import { loadRealm } from '../shared/realm.js';
import { isGuest } from '../shared/roles.js';
import { canonicalTopic, RESOLVED_TOPIC_PREFIX } from '../shared/topics.js';
import { accessMessage } from './access.js';
import { mergeSearchQueries, parseSearchOperand, type SearchQuery } from './search-highlight.js';

export type { NarrowTerm };

/**
 * Narrows: parsing (both wire forms), resolution against the database, the
 * message window around an anchor (GET /messages, POST /messages/flags/narrow),
 * matching given ids (matches_narrow) and the register-narrow filter for
 * message events.
 */
export type Anchor = 'newest' | 'oldest' | 'first_unread' | number;

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

/** Zulip's anchor for "newest" (zulip-terminal compares against this exact value). */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

const badOperator = (desc: string) => badRequest(`Invalid narrow operator: ${desc}`);

// ---------------------------------------------------------------------------
// Parsing

/** Wire names → the names used internally (legacy aliases included). */
const canonicalOperators: Record<string, string> = {
  channel: 'channel',
  stream: 'channel',
  channels: 'channels',
  streams: 'channels',
  topic: 'topic',
  sender: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  'dm-including': 'dm-including',
  'group-pm-with': 'group-pm-with',
  is: 'is',
  has: 'has',
  in: 'in',
  id: 'id',
  near: 'near',
  search: 'search',
  with: 'with',
};

/** Operators whose operand may be an id (Zulip's operators_supporting_id). */
const idOperators = new Set([
  'channel',
  'stream',
  'id',
  'sender',
  'group-pm-with',
  'dm-including',
  'with',
  'near',
]);
const idListOperators = new Set(['dm', 'pm-with']);

const isOperands = new Set([
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
const hasOperands = new Set(['link', 'image', 'attachment', 'reaction']);

function checkOperand(operator: string, operand: unknown): unknown {
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

function parseTerm(element: unknown, index: number): NarrowTerm {
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
function canonicalTerm(term: NarrowTerm): NarrowTerm {
  const operator = canonicalOperators[term.operator];
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
      if (!/^\d+$/.test(String(operand).trim())) throw badOperator("Invalid 'with' operand");
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
interface ChannelReach {
  content: StreamRow[];
  /** Zulip's can_access_stream_history. */
  history: Set<number>;
}

function channelReach(ctx: AppContext, user: UserRow): ChannelReach {
  const content: StreamRow[] = [];
  const history = new Set<number>();
  for (const stream of allStreams(ctx.db)) {
    if (!hasContentAccess(ctx, user, stream)) continue;
    content.push(stream);
    if (
      stream.is_web_public ||
      (!stream.invite_only && !isGuest(user)) ||
      stream.history_public_to_subscribers
    ) {
      history.add(stream.id);
    }
  }
  return { content, history };
}

// ---------------------------------------------------------------------------
// Resolution

interface ResolvedNarrow {
  conditions: NarrowCondition[];
  visibility: Visibility;
  /** A positive channel term: channel muting does not hide unreads then. */
  oneChannel: boolean;
}

/** API e-mail or, where visible, the real address; placeholders (userN@domain) by id. */
function userByEmail(ctx: AppContext, email: string): UserRow | undefined {
  const key = email.trim().toLowerCase();
  const direct = userByEmailKey(ctx.db, key);
  if (direct) return direct;
  const domain = loadRealm(ctx).row.email_domain.toLowerCase();
  const placeholder = /^user(\d+)@(.+)$/.exec(key);
  if (placeholder && placeholder[2] === domain) return userById(ctx.db, Number(placeholder[1]));
  return undefined;
}

function userByOperand(ctx: AppContext, me: UserRow, operand: unknown): UserRow | undefined {
  if (typeof operand === 'number') return userById(ctx.db, operand);
  const text = String(operand).trim();
  if (text === 'me') return me;
  if (/^\d+$/.test(text)) return userById(ctx.db, Number(text));
  return userByEmail(ctx, text);
}

function channelByOperand(ctx: AppContext, user: UserRow, operand: unknown): StreamRow {
  const stream =
    typeof operand === 'number'
      ? streamById(ctx.db, operand)
      : streamByName(ctx.db, String(operand).trim());
  // Channels the user may not know about read as unknown, so none can be probed for.
  if (!stream || !hasMetadataAccess(ctx, user, stream))
    throw badOperator(`unknown channel ${operand}`);
  return stream;
}

function dmMemberIds(ctx: AppContext, user: UserRow, operand: unknown): number[] {
  const described = Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand);
  const unknown = () => badOperator(`unknown user in ${described}`);
  const ids: number[] = [];
  if (Array.isArray(operand)) {
    for (const id of operand as number[]) {
      if (!userById(ctx.db, id)) throw unknown();
      ids.push(id);
    }
  } else {
    const parts = String(operand)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (parts.length === 0) throw unknown();
    for (const part of parts) {
      const found = /^\d+$/.test(part) ? userById(ctx.db, Number(part)) : userByEmail(ctx, part);
      if (!found) throw unknown();
      ids.push(found.id);
    }
  }
  return [...new Set([...ids, user.id])];
}

/**
 * `with:<message id>` (Zulip's update_narrow_terms_containing_with_operator):
 * replaces the conversation terms by the conversation of that message if the
 * user may read it; otherwise the term is dropped.
 */
function expandWith(ctx: AppContext, user: UserRow, terms: NarrowTerm[]): NarrowTerm[] {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) throw badRequest("Duplicate 'with' operators.");
  const rest = terms.filter((t) => t.operator !== 'with');
  let message: MessageRow;
  try {
    message = accessMessage(ctx, user, withTerms[0]!.operand as number).message;
  } catch {
    return rest;
  }
  const kept = rest.filter((t) => !['channel', 'topic', 'dm'].includes(t.operator));
  if (message.stream_id !== null) {
    return [
      ...kept,
      { operator: 'channel', operand: message.stream_id, negated: false },
      { operator: 'topic', operand: message.topic, negated: false },
    ];
  }
  return [...kept, { operator: 'dm-group', operand: message.dm_group_id, negated: false }];
}

/** `is` operands that still allow history (they do not depend on per-user rows). */
const historyCompatibleIs = new Set(['resolved', 'followed']);

interface ResolveOptions {
  /** Zulip's include_history; false for matches_narrow (received messages only). */
  allowHistory: boolean;
  needUnreadBound: boolean;
}

function resolveNarrow(
  ctx: AppContext,
  user: UserRow,
  rawTerms: NarrowTerm[],
  options: ResolveOptions,
): ResolvedNarrow {
  // `dm-group` only ever comes from expandWith, after clients' terms were checked.
  const terms = expandWith(ctx, user, rawTerms.map(canonicalTerm));
  const reach = channelReach(ctx, user);
  const conditions: NarrowCondition[] = [];
  let historyStreams: number[] = [];
  let oneChannel = false;
  let needUnread = options.needUnreadBound;
  const realm = loadRealm(ctx);

  for (const term of terms) {
    const negated = term.negated;
    switch (term.operator) {
      case 'channel': {
        const stream = channelByOperand(ctx, user, term.operand);
        conditions.push({ kind: 'stream', streamId: stream.id, negated });
        if (!negated) {
          oneChannel = true;
          if (reach.history.has(stream.id)) historyStreams.push(stream.id);
        }
        break;
      }
      case 'channels': {
        const ids = reach.content
          .filter((s) => (term.operand === 'public' ? !s.invite_only : s.is_web_public))
          .map((s) => s.id);
        conditions.push({ kind: 'streamIn', streamIds: ids, negated });
        if (!negated && !isGuest(user)) {
          historyStreams.push(...ids.filter((id) => reach.history.has(id)));
        }
        break;
      }
      case 'topic': {
        const topic = canonicalTopic(String(term.operand), realm.settings.empty_topic_display_name);
        conditions.push({ kind: 'topic', topicKey: topicKey(topic), negated });
        break;
      }
      case 'sender': {
        const sender = userByOperand(ctx, user, term.operand);
        if (!sender) throw badOperator(`unknown user ${term.operand}`);
        conditions.push({ kind: 'sender', userId: sender.id, negated });
        break;
      }
      case 'dm': {
        const groupId = dmGroupIdByMembers(ctx.db, dmMemberIds(ctx, user, term.operand));
        conditions.push(
          groupId === undefined
            ? { kind: 'none', negated }
            : { kind: 'dmGroup', dmGroupId: groupId, negated },
        );
        break;
      }
      case 'dm-group':
        conditions.push({ kind: 'dmGroup', dmGroupId: term.operand as number, negated });
        break;
      case 'dm-including':
      case 'group-pm-with': {
        const other = userByOperand(ctx, user, term.operand);
        if (!other) throw badOperator(`unknown user ${term.operand}`);
        const groupsOnly = term.operator === 'group-pm-with';
        conditions.push(
          other.id === user.id && !groupsOnly
            ? { kind: 'isDm', negated }
            : { kind: 'dmWith', userId: other.id, groupsOnly, negated },
        );
        break;
      }
      case 'is':
        switch (term.operand) {
          case 'dm':
            conditions.push({ kind: 'isDm', negated });
            break;
          case 'starred':
            conditions.push({ kind: 'rowFlag', mask: Flag.starred, negated });
            break;
          case 'mentioned':
            conditions.push({
              kind: 'rowFlag',
              mask: Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned,
              negated,
            });
            break;
          case 'alerted':
            conditions.push({ kind: 'rowFlag', mask: Flag.has_alert_word, negated });
            break;
          case 'unread':
            needUnread = true;
            conditions.push({ kind: 'unread', negated });
            break;
          case 'resolved':
            conditions.push({ kind: 'resolved', negated });
            break;
          case 'followed':
            conditions.push({ kind: 'followed', negated });
            break;
          case 'muted':
            conditions.push({ kind: 'muted', negated });
            break;
        }
        break;
      case 'in':
        // in:home is "not muted"; in:all restricts nothing.
        if (term.operand === 'home') conditions.push({ kind: 'muted', negated: !negated });
        else if (negated) conditions.push({ kind: 'none', negated: false });
        break;
      case 'has':
        conditions.push(
          term.operand === 'reaction'
            ? { kind: 'hasReaction', negated }
            : {
                kind: 'hasColumn',
                column: `has_${term.operand}` as 'has_link' | 'has_image' | 'has_attachment',
                negated,
              },
        );
        break;
      case 'id':
        conditions.push({ kind: 'id', ids: [term.operand as number], negated });
        break;
      case 'near':
        // Only an anchor (nearOfNarrow); it filters nothing.
        break;
      case 'search': {
        const query = parseSearchOperand(String(term.operand));
        conditions.push(
          query.fts === ''
            ? { kind: 'none', negated }
            : { kind: 'search', ftsQuery: query.fts, negated },
        );
        break;
      }
    }
  }
  // Zulip's ok_to_include_history: per-user `is:` terms select from received messages only.
  for (const term of terms) {
    if (term.operator === 'is' && !historyCompatibleIs.has(term.operand as string)) {
      historyStreams = [];
    }
  }

  let unreadFrom = 0;
  if (needUnread) unreadFrom = unreadLowerBound(ctx.db, user.id) ?? LARGER_THAN_MAX_MESSAGE_ID + 1;
  return {
    conditions,
    visibility: {
      userId: user.id,
      contentStreamIds: reach.content.map((s) => s.id),
      historyStreamIds: options.allowHistory ? [...new Set(historyStreams)] : [],
      unreadFrom,
    },
    oneChannel,
  };
}

/** The merged search of the narrow's positive `search` terms (for highlights), or null. */
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
  if (query.numBefore > 0 && query.numAfter > 0 && !query.includeAnchor) {
    throw badRequest('The anchor can only be excluded at an end of the range');
  }
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

const mentionFlags = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

function termMatchesEvent(
  term: NarrowTerm,
  message: Record<string, unknown>,
  flags: readonly string[],
  userId: number,
): boolean {
  const isStream = message.type === 'stream';
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  const operand = term.operand;
  switch (canonicalOperators[term.operator] ?? term.operator) {
    case 'channel':
      if (!isStream) return false;
      return typeof operand === 'number'
        ? message.stream_id === operand
        : lower(message.display_recipient) === lower(operand).trim();
    case 'topic':
      return isStream && lower(message.subject) === lower(operand).trim();
    case 'sender':
      if (typeof operand === 'number') return message.sender_id === operand;
      if (String(operand).trim() === 'me') return message.sender_id === userId;
      return lower(message.sender_email) === lower(operand).trim();
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'mentioned':
          return flags.some((f) => mentionFlags.includes(f));
        case 'alerted':
          return flags.includes('has_alert_word');
        case 'resolved':
          return isStream && String(message.subject ?? '').startsWith(RESOLVED_TOPIC_PREFIX);
        default:
          return true;
      }
    default:
      return true;
  }
}

/**
 * Does a `message` event (its message dict and the recipient's flags) match
 * a register narrow? Covers the operators POST /register accepts; other
 * `is` operands let every message through.
 */
export function messageEventMatchesNarrow(
  narrow: readonly NarrowTerm[],
  message: Record<string, unknown>,
  flags: readonly string[],
  userId: number,
): boolean {
  return narrow.every((term) => termMatchesEvent(term, message, flags, userId) !== term.negated);
}

/** EventHub.queueFilter: queues registered with a narrow get only the message events in it. */
export function narrowQueueFilter(
  queue: EventQueue,
  type: string,
  payload: Record<string, unknown>,
): boolean {
  if (type !== 'message' || queue.options.narrow.length === 0) return true;
  const message = payload.message as Record<string, unknown> | undefined;
  if (!message) return true;
  const flags = Array.isArray(payload.flags) ? (payload.flags as string[]) : [];
  return messageEventMatchesNarrow(queue.options.narrow, message, flags, queue.userId);
}
