import { matchRank as anyRank, bestRank } from '../../compose/matching.js';
import type { ChatState, User } from '../../data/model.js';
import {
  canonicalOperatorOf,
  describeNarrow,
  encodeOperand,
  parseSearch,
} from '../../data/narrow.js';

/**
 * What the search box suggests as you type, as Zulip's search box does
 * (search_suggestion.ts): the text as typed first, then operators that
 * complete the word being typed, and for an operator's operand the
 * channels, topics of the chosen channel, people (by name and e-mail) or
 * filters (`is:`, `has:`) that fit. Pure: the box passes the state it has.
 */

export interface SearchSuggestion {
  /** The search box's whole text once the suggestion is chosen. */
  text: string;
  /** What the suggestion finds, in words ("Sent by Ada Admin"). */
  description: string;
  /**
   * An operator without its operand yet (`channel:`): choosing it fills the
   * box and typing goes on, where any other suggestion becomes the narrow.
   */
  incomplete: boolean;
  /** A person's suggestion: whose avatar to draw beside it. */
  userId?: number;
}

/** Filters with a fixed operand, each with what it finds (Zulip's words). */
const FILTERS: readonly { term: string; description: string }[] = [
  { term: 'is:dm', description: 'Direct messages' },
  { term: 'is:starred', description: 'Starred messages' },
  { term: 'is:mentioned', description: 'Messages that mention you' },
  { term: 'is:unread', description: 'Unread messages' },
  { term: 'is:alerted', description: 'Alerted messages' },
  { term: 'is:followed', description: 'Followed topics' },
  { term: 'is:resolved', description: 'Topics marked as resolved' },
  { term: 'is:muted', description: 'Muted messages' },
  { term: 'sender:me', description: 'Sent by me' },
  { term: 'has:link', description: 'Messages with links' },
  { term: 'has:image', description: 'Messages with images' },
  { term: 'has:attachment', description: 'Messages with attachments' },
  { term: 'has:reaction', description: 'Messages with reactions' },
  { term: 'channels:public', description: 'All public channels' },
  { term: 'in:all', description: 'All messages including muted' },
  { term: 'in:home', description: 'Combined feed' },
];

/** The filters an empty box offers, in Zulip's order. */
const EMPTY_BOX_FILTERS = [
  'is:dm',
  'is:starred',
  'is:mentioned',
  'sender:me',
  'is:unread',
  'is:resolved',
  'has:link',
  'has:image',
  'has:attachment',
  'has:reaction',
];

/** Operators offered while their name is typed, with what they take. */
const OPERATORS: readonly { operator: string; description: string }[] = [
  { operator: 'channel', description: 'Messages in a channel' },
  { operator: 'topic', description: 'Messages in a topic' },
  { operator: 'sender', description: 'Sent by a person' },
  { operator: 'dm', description: 'Direct messages with people' },
  { operator: 'dm-including', description: 'Direct messages including a person' },
  { operator: 'is', description: 'Starred, unread, mentions, direct messages…' },
  { operator: 'has', description: 'Links, images, attachments or reactions' },
  { operator: 'near', description: 'Messages around a message id' },
  { operator: 'id', description: 'One message by id' },
  { operator: 'channels', description: 'All public channels' },
];

/** Zulip's search box matches at the start of a name or of one of its words, never inside a word. */
function matchRank(name: string, query: string): number | null {
  const rank = anyRank(name, query);
  return rank !== null && rank <= 1 ? rank : null;
}

/** How many suggestions the box shows at most. */
export const MAX_SUGGESTIONS = 12;

/** Words of the box (a quoted stretch stays one word), as narrow.ts splits them. */
function words(text: string): string[] {
  return text.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? [];
}

/** Suggestions for the search box's text, best first; the first one is the text itself. */
export function searchSuggestions(query: string, state: ChatState): SearchSuggestion[] {
  const all = words(query);
  const typing = query !== '' && !/\s$/.test(query);
  const last = typing ? all.pop()! : '';
  const base = all.join(' ');
  const out = new Suggestions(base);

  if (base === '' && last === '') {
    for (const term of EMPTY_BOX_FILTERS) out.add(term, filterDescription(term));
    return out.list;
  }
  // What is typed, searched as it is, comes first: Enter without choosing searches it.
  out.addWhole(query.trim(), describeQuery(query.trim(), state));

  const term = /^(-?)([a-z-]+):(.*)$/i.exec(last);
  const operator = term ? canonicalOperatorOf(term[2]!.toLowerCase()) : null;
  if (term && OPERATORS.some((o) => o.operator === operator)) {
    operandSuggestions(out, term[1]!, operator!, term[3]!, base, state);
  } else if (last === '') {
    // After a space: the channel chosen so far offers its topics.
    topicSuggestions(out, '', '', base, state, false);
  } else {
    wordSuggestions(out, last, base, state);
  }
  return out.list;
}

/** The list being built: deduplicated by text, each suggestion the base plus one term. */
class Suggestions {
  readonly list: SearchSuggestion[] = [];
  constructor(private readonly base: string) {}

  addWhole(text: string, description: string, incomplete = false, userId?: number): void {
    if (this.list.length >= MAX_SUGGESTIONS) return;
    if (this.list.some((s) => s.text === text)) return;
    const suggestion: SearchSuggestion = { text, description, incomplete };
    if (userId !== undefined) suggestion.userId = userId;
    this.list.push(suggestion);
  }

  add(term: string, description: string, incomplete = false, userId?: number): void {
    const text = this.base === '' ? term : `${this.base} ${term}`;
    this.addWhole(text, description, incomplete, userId);
  }
}

function filterDescription(term: string): string {
  const negated = term.startsWith('-');
  const known = FILTERS.find((f) => f.term === (negated ? term.slice(1) : term));
  const description = known?.description ?? term;
  return negated ? `Exclude ${description.toLowerCase()}` : description;
}

/** The operand being typed: its suggestions. */
function operandSuggestions(
  out: Suggestions,
  sign: string,
  operator: string,
  encoded: string,
  base: string,
  state: ChatState,
): void {
  // People's operands are e-mails, where `+` is a real character.
  const partial = decode(encoded, !['sender', 'dm', 'dm-including'].includes(operator));
  switch (operator) {
    case 'channel':
      for (const channel of matchingChannels(partial, state)) {
        out.add(
          `${sign}channel:${encodeOperand(channel.name)}`,
          `${sign ? 'Exclude' : 'Messages in'} #${channel.name}`,
        );
      }
      return;
    case 'topic':
      topicSuggestions(out, sign, partial, base, state, true);
      return;
    case 'sender':
    case 'dm-including': {
      const verb = operator === 'sender' ? 'Sent by' : 'Direct messages including';
      if (operator === 'sender' && 'me'.startsWith(partial.toLowerCase()))
        out.add(`${sign}sender:me`, sign ? 'Exclude sent by me' : 'Sent by me');
      for (const user of matchingPeople(partial, state)) {
        out.add(
          `${sign}${operator}:${user.email}`,
          `${sign ? 'Exclude ' : ''}${verb} ${user.full_name}`,
          false,
          user.user_id,
        );
      }
      return;
    }
    case 'dm': {
      // `dm:ada@example.com,mo` adds people one at a time after commas.
      const comma = encoded.lastIndexOf(',');
      const chosen = comma >= 0 ? encoded.slice(0, comma + 1) : '';
      const typed = decode(encoded.slice(comma + 1), false);
      const already = new Set(chosen.toLowerCase().split(','));
      const chosenNames = chosen
        .split(',')
        .filter(Boolean)
        .map((email) => personByEmail(email, state)?.full_name ?? email);
      for (const user of matchingPeople(typed, state)) {
        if (already.has(user.email.toLowerCase())) continue;
        out.add(
          `${sign}dm:${chosen}${user.email}`,
          `${sign ? 'Exclude direct' : 'Direct'} messages with ${[...chosenNames, user.full_name].join(', ')}`,
          false,
          user.user_id,
        );
      }
      return;
    }
    case 'is':
    case 'has':
    case 'channels':
    case 'in':
      for (const filter of FILTERS) {
        const [op, value] = filter.term.split(':') as [string, string];
        if (op !== operator || !value.startsWith(partial.toLowerCase())) continue;
        out.add(`${sign}${filter.term}`, filterDescription(`${sign}${filter.term}`));
      }
      return;
    default:
      // near:, id: take a message id: nothing to suggest beyond what is typed.
      return;
  }
}

/** A plain word: operators it begins, filters, people, channels and topics it names. */
function wordSuggestions(out: Suggestions, word: string, base: string, state: ChatState): void {
  const sign = word.startsWith('-') ? '-' : '';
  const bare = (sign ? word.slice(1) : word).replace(/:$/, '').toLowerCase();
  if (bare === '') return;
  for (const { operator, description } of OPERATORS) {
    if (operator.startsWith(bare)) out.add(`${sign}${operator}:`, description, true);
  }
  for (const filter of FILTERS) {
    const value = filter.term.split(':')[1]!;
    if (value.startsWith(bare) || matchRank(filter.description, bare) === 0) {
      out.add(`${sign}${filter.term}`, filterDescription(`${sign}${filter.term}`));
    }
  }
  if (sign) return;
  topicSuggestions(out, '', bare, base, state, false);
  for (const user of matchingPeople(bare, state).slice(0, 3)) {
    out.add(`dm:${user.email}`, `Direct messages with ${user.full_name}`, false, user.user_id);
    out.add(`sender:${user.email}`, `Sent by ${user.full_name}`, false, user.user_id);
  }
  for (const channel of matchingChannels(bare, state).slice(0, 3)) {
    out.add(`channel:${encodeOperand(channel.name)}`, `Messages in #${channel.name}`);
  }
}

/**
 * Topics of the channel the text names so far (newest first), or when it
 * names none, of the channels' recent conversations.
 */
function topicSuggestions(
  out: Suggestions,
  sign: string,
  partial: string,
  base: string,
  state: ChatState,
  /** Without a channel chosen: topics of recent conversations in any channel (`topic:` typed). */
  anyChannel: boolean,
): void {
  const narrow = base === '' ? [] : parseSearch(base, state);
  if (narrow.some((t) => canonicalOperatorOf(t.operator) === 'topic' && !t.negated)) return;
  const channel = narrow.find((t) => canonicalOperatorOf(t.operator) === 'channel' && !t.negated);
  const channelId = typeof channel?.operand === 'number' ? channel.operand : null;
  if (channel ? channelId === null : !anyChannel) return;
  const topics =
    channelId !== null
      ? (state.topics.get(channelId) ?? []).map((t) => t.name)
      : state.recent.flatMap((c) => (c.topic !== undefined ? [c.topic] : []));
  const seen = new Set<string>();
  const ranked: { topic: string; rank: number }[] = [];
  for (const topic of topics) {
    const key = topic.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const rank = matchRank(topic, partial);
    if (rank !== null) ranked.push({ topic, rank });
  }
  // Stable: newest first within a rank.
  ranked.sort((a, b) => a.rank - b.rank);
  const where = channelId !== null ? '' : ' (any channel)';
  for (const { topic } of ranked) {
    const shown = topic === '' ? 'general chat' : topic;
    out.add(
      `${sign}topic:${encodeOperand(topic)}`,
      `${sign ? 'Exclude topic' : 'Topic'} ${shown}${where}`,
    );
  }
}

function matchingChannels(partial: string, state: ChatState) {
  const byId = new Map<number, { name: string; subscribed: boolean }>();
  for (const channel of state.channels.values())
    byId.set(channel.stream_id, { name: channel.name, subscribed: false });
  for (const sub of state.subscriptions.values())
    byId.set(sub.stream_id, { name: sub.name, subscribed: true });
  const ranked: { name: string; subscribed: boolean; rank: number }[] = [];
  for (const channel of byId.values()) {
    const rank = matchRank(channel.name, partial);
    if (rank !== null) ranked.push({ ...channel, rank });
  }
  // Better matches first; among equals, channels you are in, then by name.
  return ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      Number(b.subscribed) - Number(a.subscribed) ||
      a.name.localeCompare(b.name),
  );
}

/** Active people whose name or e-mail matches, best first, then by name. */
function matchingPeople(partial: string, state: ChatState): User[] {
  const ranked: { user: User; rank: number }[] = [];
  for (const user of state.users.values()) {
    if (!user.is_active) continue;
    const rank = bestRank([user.full_name, user.email], partial);
    if (rank !== null && rank <= 1) ranked.push({ user, rank });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || a.user.full_name.localeCompare(b.user.full_name))
    .map((r) => r.user);
}

function personByEmail(email: string, state: ChatState): User | undefined {
  const wanted = email.trim().toLowerCase();
  for (const user of state.users.values()) if (user.email.toLowerCase() === wanted) return user;
  return undefined;
}

/** An operand as typed in the box (`lunch+plans`, `%2B`) as text. */
function decode(encoded: string, plusIsSpace: boolean): string {
  const unquoted = encoded.replaceAll('"', '');
  const text = plusIsSpace ? unquoted.replaceAll('+', ' ') : unquoted;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The typed text's own description: "Search for …", or its narrow's title. */
function describeQuery(text: string, state: ChatState): string {
  const narrow = parseSearch(text, state);
  const search = narrow.find((t) => t.operator === 'search');
  if (search) return `Search for ${String(search.operand)}`;
  return describeNarrow(narrow, state);
}
