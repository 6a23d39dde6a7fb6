import {
  NARROW_OPERATORS,
  TYPED_OPERATOR_SYNONYMS,
} from '../../../../server/shared/narrow-operators.js';
import type { ChatState, ComposeTarget, Message, Narrow, NarrowTerm } from './model.js';
import { isResolved } from './resolved-topic.js';

/**
 * Narrows on the client, following the server's rules (server/narrow/) and
 * Zulip's web app (filter.ts, hash_util.ts): the search syntax, `#narrow/…`
 * links, and whether a message belongs to a narrow.
 */

/**
 * Operator names to the operators they mean: the server's table (shared, so
 * `group-pm-with` means group direct messages here as there) and the words
 * Zulip's web app also accepts typed, `subject` and `from`.
 */
const canonicalOperator: Readonly<Record<string, string>> = {
  ...NARROW_OPERATORS,
  ...TYPED_OPERATOR_SYNONYMS,
};

export const canonicalOperatorOf = (operator: string): string =>
  canonicalOperator[operator] ?? operator;

/** The conversation key of a channel topic (topics compare case-insensitively). */
export const topicKey = (channelId: number, topic: string) =>
  `channel:${channelId}:${topic.toLowerCase()}`;
/** The conversation key of a direct-message conversation (see dmKey). */
export const directKey = (key: string) => `dm:${key}`;

/** The key of a DM conversation: the other participants' ids sorted, joined by `,` (own id alone for a self-DM). */
export function dmKey(userIds: number[], ownUserId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== ownUserId).sort((a, b) => a - b);
  return others.length > 0 ? others.join(',') : String(ownUserId);
}

/** Everyone in a DM message, from its display_recipient. */
export function dmParticipants(message: Message): number[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
}

/** `channel:{id}:{topic}` or `dm:{key}`: the conversation a message belongs to (keys of `typing` and `recent`). */
export function conversationKeyOf(message: Message, ownUserId: number): string {
  return message.type === 'stream'
    ? topicKey(message.stream_id ?? -1, message.subject)
    : directKey(dmKey(dmParticipants(message), ownUserId));
}

// ---------------------------------------------------------------------------
// Looking up channels and users by the names people type

function channelIdByName(name: string, state: ChatState): number | null {
  const wanted = name.trim().toLowerCase();
  for (const channel of state.channels.values()) {
    if (channel.name.toLowerCase() === wanted) return channel.stream_id;
  }
  for (const sub of state.subscriptions.values()) {
    if (sub.name.toLowerCase() === wanted) return sub.stream_id;
  }
  return null;
}

function channelName(id: number, state: ChatState): string | null {
  return state.subscriptions.get(id)?.name ?? state.channels.get(id)?.name ?? null;
}

/** A channel operand as an id when it names a known channel (ids and names both work on the wire). */
function channelIdOf(operand: NarrowTerm['operand'], state: ChatState): number | null {
  if (typeof operand === 'number') return operand;
  if (typeof operand !== 'string') return null;
  if (/^\d+$/.test(operand.trim())) return Number(operand);
  return channelIdByName(operand, state);
}

function userIdByEmail(email: string, state: ChatState): number | null {
  const wanted = email.trim().toLowerCase();
  if (wanted === 'me') return state.ownUserId;
  for (const user of state.users.values()) {
    if (user.email.toLowerCase() === wanted) return user.user_id;
  }
  return null;
}

function userIdOf(operand: NarrowTerm['operand'], state: ChatState): number | null {
  if (typeof operand === 'number') return operand;
  if (typeof operand !== 'string') return null;
  if (/^\d+$/.test(operand.trim())) return Number(operand);
  return userIdByEmail(operand, state);
}

/** A `dm` operand (ids, or e-mails joined by `,`) as user ids; null if someone is unknown. */
function userIdsOf(operand: NarrowTerm['operand'], state: ChatState): number[] | null {
  if (Array.isArray(operand)) return operand;
  const parts = String(operand)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const ids: number[] = [];
  for (const part of parts) {
    const id = userIdOf(part, state);
    if (id === null) return null;
    ids.push(id);
  }
  return ids;
}

/** Operators whose operand is one person (an id, or an e-mail as typed). */
const ONE_PERSON_OPERATORS = ['sender', 'dm-including', 'group-pm-with'];

// ---------------------------------------------------------------------------
// The search box

/** Zulip's search-box operand encoding: spaces as `+`, and `%`, `+` and `"` escaped. */
export function encodeOperand(operand: string): string {
  return operand
    .replaceAll('%', '%25')
    .replaceAll('+', '%2B')
    .replaceAll(' ', '+')
    .replaceAll('"', '%22');
}

function decodeOperand(encoded: string, operator: string): string {
  let text = encoded.replaceAll('"', '');
  // People's operands are e-mails, where `+` is a real character.
  if (!['dm', ...ONE_PERSON_OPERATORS].includes(operator)) text = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(text).trim();
  } catch {
    return text.trim();
  }
}

/** Words of the search box; a quoted stretch stays in one word with its quotes. */
function searchWords(text: string): string[] {
  return text.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? [];
}

/** Turns a typed operand into the wire operand the server and the matcher expect. */
function operandFor(operator: string, text: string, state: ChatState): NarrowTerm['operand'] {
  switch (operator) {
    case 'channel':
      return channelIdOf(text, state) ?? text;
    case 'sender':
    case 'dm-including':
    case 'group-pm-with':
      return userIdOf(text, state) ?? text;
    case 'dm':
      return userIdsOf(text, state) ?? text;
    case 'id':
    case 'near':
    case 'with':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'is':
      return text === 'private' ? 'dm' : text.toLowerCase();
    default:
      return text;
  }
}

/**
 * Zulip's search syntax: `channel:general topic:"lunch plans" -is:starred
 * dm:alice@example.com hello` → terms; words that are not `operator:operand`
 * with a known operator join into one `search` term.
 */
export function parseSearch(text: string, state: ChatState): Narrow {
  const narrow: Narrow = [];
  const freeText: string[] = [];
  for (const word of searchWords(text)) {
    const match = /^(-?)([a-z_-]+):(.*)$/i.exec(word);
    const operator = match ? canonicalOperator[match[2]!.toLowerCase()] : undefined;
    if (!match || operator === undefined || operator === 'search' || match[3] === '') {
      freeText.push(word.replaceAll('"', ''));
      continue;
    }
    const operandText = decodeOperand(match[3]!, operator);
    const term: NarrowTerm = { operator, operand: operandFor(operator, operandText, state) };
    if (match[1] === '-') term.negated = true;
    narrow.push(term);
  }
  const search = freeText.join(' ').trim();
  if (search !== '') narrow.push({ operator: 'search', operand: search });
  return narrow;
}

function operandText(term: NarrowTerm, state: ChatState): string {
  const operator = canonicalOperatorOf(term.operator);
  const { operand } = term;
  if (operator === 'channel') {
    const id = channelIdOf(operand, state);
    return id !== null ? (channelName(id, state) ?? String(id)) : String(operand);
  }
  if (ONE_PERSON_OPERATORS.includes(operator)) {
    const id = userIdOf(operand, state);
    return id !== null ? (state.users.get(id)?.email ?? String(id)) : String(operand);
  }
  if (operator === 'dm') {
    const ids = userIdsOf(operand, state);
    if (ids === null) return String(operand);
    return ids.map((id) => state.users.get(id)?.email ?? String(id)).join(',');
  }
  return String(operand);
}

/** Back to the search box's text. */
export function narrowToSearch(narrow: Narrow, state: ChatState): string {
  return narrow
    .map((term) => {
      const operator = canonicalOperatorOf(term.operator);
      if (operator === 'search') return String(term.operand);
      const sign = term.negated ? '-' : '';
      return `${sign}${operator}:${encodeOperand(operandText(term, state))}`;
    })
    .join(' ');
}

// ---------------------------------------------------------------------------
// Hash links (Zulip's hash_util / internal_url)

const hashReplacements: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** Zulip's URL-fragment encoding: percent-encoding with `%` written as `.` (and `.` as `.2E`). */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (c) => hashReplacements[c] ?? c);
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('.', '%'));
  } catch {
    return text;
  }
}

/** `5-general`: the id keeps the link working when the channel is renamed. */
function channelSlug(id: number, state: ChatState): string {
  const name = channelName(id, state) ?? 'unknown';
  return encodeHashComponent(`${id}-${name.replaceAll(' ', '-')}`);
}

function dmSlug(ids: number[], state: ChatState): string {
  // As Zulip's slugs: the other participants (yourself alone for a note to self).
  const others = ids.filter((id) => id !== state.ownUserId);
  const shown = others.length > 0 ? others : [state.ownUserId];
  const sorted = [...new Set(shown)].sort((a, b) => a - b);
  let suffix = 'group';
  if (shown.length === 1) {
    const name = state.users.get(shown[0]!)?.full_name ?? 'user';
    suffix = name.replace(/[ "%/<>`\p{C}]+/gu, '-');
  }
  // Zulip leaves DM slugs unencoded: the name part has lost every character that would need it.
  return `${sorted.join(',')}-${suffix}`;
}

function hashOperand(term: NarrowTerm, state: ChatState): string {
  const operator = canonicalOperatorOf(term.operator);
  if (operator === 'channel') {
    const id = channelIdOf(term.operand, state);
    return id !== null ? channelSlug(id, state) : encodeHashComponent(String(term.operand));
  }
  if (operator === 'dm') {
    const ids = userIdsOf(term.operand, state);
    return ids ? dmSlug(ids, state) : encodeHashComponent(String(term.operand));
  }
  if (ONE_PERSON_OPERATORS.includes(operator)) {
    const id = userIdOf(term.operand, state);
    if (id !== null) return encodeHashComponent(String(id));
  }
  return encodeHashComponent(String(term.operand));
}

/** Zulip's web-app link fragment: `#narrow/channel/5-general/topic/lunch`. */
export function narrowToHash(narrow: Narrow, state: ChatState): string {
  if (narrow.length === 0) return '#feed';
  let hash = '#narrow';
  for (const term of narrow) {
    const operator = canonicalOperatorOf(term.operator);
    hash += `/${term.negated ? '-' : ''}${operator}/${hashOperand(term, state)}`;
  }
  return hash;
}

/** The id before the first `-` of a slug (`5-general`, `3,7-group`). */
function slugIds(slug: string): number[] | null {
  const head = slug.split('-')[0] ?? '';
  if (!/^\d+(,\d+)*$/.test(head)) return null;
  return head.split(',').map(Number);
}

function termFromHash(
  rawOperator: string,
  rawOperand: string,
  state: ChatState,
): NarrowTerm | null {
  const negated = rawOperator.startsWith('-');
  const name = canonicalOperator[(negated ? rawOperator.slice(1) : rawOperator).toLowerCase()];
  if (name === undefined) return null;
  const text = decodeHashComponent(rawOperand);
  let operand: NarrowTerm['operand'];
  if (name === 'channel') {
    // As Zulip's slug_to_stream_id: a known id prefix wins, then a whole name ("2024-plans").
    const ids = slugIds(text);
    const id = ids?.length === 1 ? ids[0]! : null;
    const known = id !== null && (state.channels.has(id) || state.subscriptions.has(id));
    operand = known ? id : (channelIdByName(text, state) ?? id ?? text);
  } else if (name === 'dm') {
    operand = slugIds(text) ?? userIdsOf(text, state) ?? text;
  } else if (ONE_PERSON_OPERATORS.includes(name)) {
    const ids = slugIds(text);
    operand = ids?.length === 1 ? ids[0]! : (userIdOf(text, state) ?? text);
  } else {
    operand = operandFor(name, text, state);
  }
  return negated ? { operator: name, operand, negated: true } : { operator: name, operand };
}

/**
 * A `#narrow/…` fragment (with or without `#`) as a narrow; `[]` for the
 * combined feed (`#`, `#feed`, `#all_messages`), null when it is no narrow.
 */
export function hashToNarrow(hash: string, state: ChatState): Narrow | null {
  const path = hash.replace(/^#/, '');
  if (path === '' || path === 'feed' || path === 'all_messages' || path === 'combined-feed') {
    return [];
  }
  const parts = path.split('/');
  if (parts[0] !== 'narrow') return null;
  // A trailing slash leaves an empty last part: ignore it (but `/topic/` is the empty topic).
  if (parts.length % 2 === 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length % 2 === 0) return null;
  const narrow: Narrow = [];
  for (let i = 1; i < parts.length; i += 2) {
    const term = termFromHash(parts[i]!, parts[i + 1]!, state);
    if (term === null) return null;
    narrow.push(term);
  }
  return narrow;
}

/**
 * A permanent link to one message, as Zulip's "Copy link" makes it:
 * `#narrow/channel/5-general/topic/lunch/with/42`, or for direct messages
 * `#narrow/dm/3,7-dm/with/42` (every participant, you included; `-group`
 * from three people). `with` makes the link follow the message if it is
 * moved; old `/near/` links still open.
 */
export function messageLink(message: Message, state: ChatState): string {
  const at = `/with/${message.id}`;
  if (message.type === 'stream') {
    const conversation: Narrow = [
      { operator: 'channel', operand: message.stream_id ?? -1 },
      { operator: 'topic', operand: message.subject },
    ];
    return `${narrowToHash(conversation, state)}${at}`;
  }
  const ids = [...new Set([...dmParticipants(message), state.ownUserId])].sort((a, b) => a - b);
  return `#narrow/dm/${ids.join(',')}-${ids.length >= 3 ? 'group' : 'dm'}${at}`;
}

/** The `with` operand as a message id, if the narrow has one. */
export function withOf(narrow: Narrow): number | null {
  const term = narrow.find((t) => canonicalOperatorOf(t.operator) === 'with' && !t.negated);
  const id = term ? Number(term.operand) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * A `with` narrow moved to where its message is now (Zulip's
 * adjusted_terms_if_moved; the server's expandWith does the same): the
 * channel and topic, or the direct-message conversation, become the
 * message's; the narrow itself when nothing changes.
 */
export function narrowFollowingMessage(narrow: Narrow, message: Message, state: ChatState): Narrow {
  const isConversationTerm = (t: NarrowTerm) =>
    ['channel', 'topic', 'dm'].includes(canonicalOperatorOf(t.operator));
  if (message.type !== 'stream') {
    const ids = dmParticipants(message).filter((id) => id !== state.ownUserId);
    const operand = ids.length > 0 ? ids.sort((a, b) => a - b) : [state.ownUserId];
    const current = narrow.find((t) => canonicalOperatorOf(t.operator) === 'dm' && !t.negated);
    const same =
      current !== undefined &&
      narrow.filter(isConversationTerm).length === 1 &&
      dmKey(userIdsOf(current.operand, state) ?? [], state.ownUserId) ===
        dmKey(operand, state.ownUserId);
    if (same) return narrow;
    return [{ operator: 'dm', operand }, ...narrow.filter((t) => !isConversationTerm(t))];
  }
  const channelId = message.stream_id ?? -1;
  const channel = narrow.find((t) => canonicalOperatorOf(t.operator) === 'channel' && !t.negated);
  const topic = narrow.find((t) => canonicalOperatorOf(t.operator) === 'topic' && !t.negated);
  if (!channel || !topic || narrow.some((t) => t.negated && isConversationTerm(t))) {
    return [
      { operator: 'channel', operand: channelId },
      { operator: 'topic', operand: message.subject },
      ...narrow.filter((t) => !isConversationTerm(t)),
    ];
  }
  const channelSame = channelIdOf(channel.operand, state) === channelId;
  const topicSame = String(topic.operand).toLowerCase() === message.subject.toLowerCase();
  if (channelSame && topicSame) return narrow;
  return narrow.map((term) => {
    if (term === channel) return { ...term, operand: channelId };
    if (term === topic) return { ...term, operand: message.subject };
    return term;
  });
}

// ---------------------------------------------------------------------------
// Matching (server/narrow/event-filter.ts and Zulip's filter.ts predicate)

const mentionFlags = new Set([
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
]);

/** The topic's visibility policy for the user (0 inherit, 1 muted, 2 unmuted, 3 followed). */
export function topicPolicy(state: ChatState, channelId: number, topic: string): number {
  const wanted = topic.toLowerCase();
  for (const entry of state.userTopics) {
    if (entry.stream_id === channelId && entry.topic_name.toLowerCase() === wanted) {
      return entry.visibility_policy;
    }
  }
  return 0;
}

/** Muted as Zulip counts it: a muted topic, or a muted channel's topic not unmuted or followed. */
export function isTopicMuted(state: ChatState, channelId: number, topic: string): boolean {
  const policy = topicPolicy(state, channelId, topic);
  if (state.subscriptions.get(channelId)?.is_muted) return policy !== 2 && policy !== 3;
  return policy === 1;
}

/**
 * Whether one term holds for the message; null when the client cannot tell
 * (full-text search, `has:`), so such lists never take live messages.
 */
function termHolds(term: NarrowTerm, message: Message, state: ChatState): boolean | null {
  const isChannel = message.type === 'stream';
  const operand = term.operand;
  switch (canonicalOperatorOf(term.operator)) {
    case 'channel': {
      if (!isChannel) return false;
      const id = channelIdOf(operand, state);
      return id !== null
        ? message.stream_id === id
        : String(message.display_recipient).toLowerCase() === String(operand).trim().toLowerCase();
    }
    case 'channels':
      return (
        isChannel &&
        operand === 'public' &&
        !(state.channels.get(message.stream_id ?? -1)?.invite_only ?? true)
      );
    case 'topic':
      return isChannel && message.subject.toLowerCase() === String(operand).trim().toLowerCase();
    case 'sender':
      return message.sender_id === userIdOf(operand, state);
    case 'dm': {
      if (isChannel) return false;
      const ids = userIdsOf(operand, state);
      return (
        ids !== null &&
        dmKey(ids, state.ownUserId) === dmKey(dmParticipants(message), state.ownUserId)
      );
    }
    case 'dm-including':
    case 'group-pm-with': {
      if (isChannel) return false;
      const id = userIdOf(operand, state);
      const people = dmParticipants(message);
      // group-pm-with: only group conversations, of more than two people.
      const groupsOnly = canonicalOperatorOf(term.operator) === 'group-pm-with';
      return id !== null && people.includes(id) && (!groupsOnly || people.length > 2);
    }
    case 'id':
      return message.id === Number(operand);
    case 'in':
      if (operand === 'all') return true;
      return !(isChannel && isTopicMuted(state, message.stream_id ?? -1, message.subject));
    case 'near':
    case 'with':
      // Anchors, not filters: a `with` narrow's conversation terms follow its message.
      return true;
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return !isChannel;
        case 'starred':
          return message.flags.includes('starred');
        case 'unread':
          return !message.flags.includes('read');
        case 'mentioned':
          return message.flags.some((flag) => mentionFlags.has(flag));
        case 'alerted':
          return message.flags.includes('has_alert_word');
        case 'resolved':
          return isChannel && isResolved(message.subject);
        case 'followed':
          return isChannel && topicPolicy(state, message.stream_id ?? -1, message.subject) === 3;
        case 'muted':
          return isChannel && isTopicMuted(state, message.stream_id ?? -1, message.subject);
        default:
          return null;
      }
    default:
      return null;
  }
}

/** Whether a message belongs to the narrow; false when only the server can tell (search, `has:`). */
export function messageMatchesNarrow(message: Message, narrow: Narrow, state: ChatState): boolean {
  for (const term of narrow) {
    const holds = termHolds(term, message, state);
    if (holds === null) return false;
    if (holds === Boolean(term.negated)) return false;
  }
  return true;
}

/** Whether the client can decide every term itself (lists of other narrows refetch instead of appending). */
export function narrowIsLocal(narrow: Narrow): boolean {
  return narrow.every((term) => {
    const operator = canonicalOperatorOf(term.operator);
    return (
      !['search', 'has'].includes(operator) &&
      !(operator === 'is' && !knownIs.has(String(term.operand)))
    );
  });
}
const knownIs = new Set([
  'dm',
  'private',
  'starred',
  'unread',
  'mentioned',
  'alerted',
  'resolved',
  'followed',
  'muted',
]);

/**
 * Zulip's name for a term's kind (filter.ts `term_type`): `not-` when
 * negated, the canonical operator, and for `is`, `has`, `in` and `channels`
 * the operand too (`is-dm`, `not-is-muted`, `in-home`).
 */
function termType(term: NarrowTerm): string {
  const operator = canonicalOperatorOf(term.operator);
  let operand = String(term.operand).toLowerCase();
  if (operator === 'is' && operand === 'private') operand = 'dm';
  const kind = ['is', 'has', 'in', 'channels'].includes(operator)
    ? `${operator}-${operand}`
    : operator;
  return term.negated ? `not-${kind}` : kind;
}

/**
 * The views whose every conversation is whole, so reading one there is
 * reading it (Zulip's filter.ts, `single_term_type_returns_all_messages_of_conversation`):
 * the combined feed, a channel, a topic, a DM conversation and a few `is:`/`in:`
 * views. Term kinds sorted, joined by spaces.
 */
const CONVERSATION_VIEWS = new Set([
  '',
  'channel',
  'channel topic',
  'channel topic with',
  'dm',
  'dm with',
  'is-dm',
  'not-is-dm',
  'is-resolved',
  'in-home',
  'in-all',
  'not-is-muted',
]);

/**
 * Whether reading a message in this narrow marks it read, as Zulip's web app
 * decides (filter.ts `can_mark_messages_read`): only in views of whole
 * conversations. Everything else (a sender's messages, search results,
 * starred, mentions, `near` a message, `dm-including`, `has:`) leaves
 * messages unread; those views open at the newest message, or at the first
 * unread when an `is:` term other than `is:starred` picks the messages
 * (`allow_use_first_unread_when_narrowing`).
 */
export function narrowMarksRead(narrow: Narrow): boolean {
  return CONVERSATION_VIEWS.has(narrow.map(termType).sort().join(' '));
}

/** A stable key for comparing narrows (the feed remounts when it changes). */
export const narrowKey = (narrow: Narrow): string =>
  JSON.stringify(narrow.map((t) => [t.operator, t.operand, t.negated ?? false]));

/** The narrow the server gets: `near` is the anchor, not a filter (as Zulip's web app sends it). */
export function wireNarrow(narrow: Narrow): Narrow {
  return narrow.filter((term) => canonicalOperatorOf(term.operator) !== 'near');
}

/** The `near` operand as a message id, if the narrow has one. */
export function nearOf(narrow: Narrow): number | null {
  const term = narrow.find((t) => canonicalOperatorOf(t.operator) === 'near');
  const id = term ? Number(term.operand) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** Where a list opens: at the first unread where reading marks read, and in `is:` views other than `is:starred` (Zulip's rule). */
export function opensAtFirstUnread(narrow: Narrow): boolean {
  const is = narrow.filter((t) => canonicalOperatorOf(t.operator) === 'is');
  return (
    narrowMarksRead(narrow) ||
    (is.length > 0 && !is.some((t) => String(t.operand) === 'starred' && !t.negated))
  );
}

// ---------------------------------------------------------------------------
// Titles and compose targets

const isTitles: Record<string, string> = {
  dm: 'Direct message feed',
  private: 'Direct message feed',
  starred: 'Starred messages',
  mentioned: 'Mentions',
  alerted: 'Alerted messages',
  unread: 'Unread messages',
  resolved: 'Resolved topics',
  followed: 'Followed topics',
  muted: 'Muted messages',
};

function userName(id: number, state: ChatState): string {
  return state.users.get(id)?.full_name ?? 'Unknown user';
}

/** How a topic is shown: the empty topic by the realm's name for it ("general chat"). */
export function topicDisplayName(topic: string, state: ChatState): string {
  if (topic !== '') return topic;
  const name = state.realm.settings.realm_empty_topic_display_name;
  return typeof name === 'string' && name !== '' ? name : 'general chat';
}

/** A title for the narrow ("#general > lunch", "Alice, Bob", "Mentions", "Search results"). */
export function describeNarrow(narrow: Narrow, state: ChatState): string {
  const terms = narrow.filter(
    (term) => !['near', 'with'].includes(canonicalOperatorOf(term.operator)),
  );
  if (terms.length === 0) return 'Combined feed';
  if (terms.some((term) => canonicalOperatorOf(term.operator) === 'search'))
    return 'Search results';
  const find = (op: string) =>
    terms.find((term) => canonicalOperatorOf(term.operator) === op && !term.negated);
  const channel = find('channel');
  const topic = find('topic');
  if (terms.length <= 2 && channel && (terms.length === 1 || topic)) {
    const id = channelIdOf(channel.operand, state);
    const name = (id !== null ? channelName(id, state) : null) ?? String(channel.operand);
    if (!topic) return `#${name}`;
    return `#${name} > ${topicDisplayName(String(topic.operand), state)}`;
  }
  if (terms.length === 1) {
    const [term] = terms;
    const operator = canonicalOperatorOf(term!.operator);
    if (term!.negated) return 'Search results';
    if (operator === 'dm') {
      const ids = userIdsOf(term!.operand, state);
      if (!ids) return 'Direct messages';
      const others = ids.filter((id) => id !== state.ownUserId);
      if (others.length === 0) return `${userName(state.ownUserId, state)} (you)`;
      return others.map((id) => userName(id, state)).join(', ');
    }
    if (operator === 'is') return isTitles[String(term!.operand)] ?? 'Search results';
    if (operator === 'sender') {
      const id = userIdOf(term!.operand, state);
      return `Messages sent by ${id !== null ? userName(id, state) : String(term!.operand)}`;
    }
    if (operator === 'dm-including' || operator === 'group-pm-with') {
      const id = userIdOf(term!.operand, state);
      const kind = operator === 'group-pm-with' ? 'Group direct messages' : 'Direct messages';
      return `${kind} with ${id !== null ? userName(id, state) : String(term!.operand)}`;
    }
    if (operator === 'channels' && term!.operand === 'public')
      return 'Messages in all public channels';
    if (operator === 'in' && term!.operand === 'home') return 'Combined feed';
    if (operator === 'in' && term!.operand === 'all') return 'All messages including muted';
  }
  return 'Search results';
}

/** Where the compose box sends by default in this narrow (null: the user chooses). */
export function composeTargetFor(narrow: Narrow, state: ChatState): ComposeTarget | null {
  const positive = narrow.filter((term) => !term.negated);
  const find = (op: string) => positive.find((term) => canonicalOperatorOf(term.operator) === op);
  const dm = find('dm');
  if (dm) {
    const ids = userIdsOf(dm.operand, state);
    if (!ids) return null;
    const others = ids.filter((id) => id !== state.ownUserId);
    return { kind: 'direct', userIds: others.length > 0 ? others : [state.ownUserId] };
  }
  const channel = find('channel');
  if (channel) {
    const id = channelIdOf(channel.operand, state);
    if (id === null) return null;
    const topic = find('topic');
    return { kind: 'channel', channelId: id, topic: topic ? String(topic.operand) : '' };
  }
  return null;
}
