/**
 * The compose box's typeaheads: which token the cursor is in (`@…`, `#…`,
 * `:…`), the suggestions for it in Zulip's order, and the text after one is
 * chosen. Pure: the box passes in what it knows from the store.
 */
import type { Channel, CustomEmoji, User, UserGroup } from '../data/model.js';
import { bestRank, foldForSearch, matchRank } from './matching.js';
import { channelLink, emojiSyntax, groupMention, userMention, wildcardMention } from './syntax.js';

export type TokenKind = 'mention' | 'channel' | 'topic' | 'emoji';

export interface Token {
  kind: TokenKind;
  /** What was typed after the trigger. */
  query: string;
  /** Where the token starts (its trigger character) and ends (the cursor) in the text. */
  start: number;
  end: number;
  /** `@_…`: a silent mention. */
  silent?: boolean;
  /** `#**channel>…`: the channel whose topics are offered. */
  channel?: string;
}

/** Longest query a typeahead follows; past it the person is writing prose. */
const MAX_QUERY = 40;

/** A trigger counts only at the start of the text or after a space, newline or opening bracket. */
const opensToken = (text: string, at: number) => at === 0 || /[\s([{"'>]/.test(text[at - 1]!);

/** The typeahead token that ends at `cursor`, if any. */
export function tokenAt(text: string, cursor: number): Token | null {
  const before = text.slice(0, cursor);
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const lineStart = cursor - line.length;

  // `#**channel>topic` (a channel chosen, its topic being typed); `>` typed
  // after a finished `#**channel**` asks for its topics too, as in Zulip.
  const topic = /#\*\*([^*>\n]+)(?:\*\*)?>([^*\n]*)$/.exec(line);
  if (topic && opensToken(text, lineStart + topic.index) && topic[2]!.length <= MAX_QUERY) {
    return {
      kind: 'topic',
      channel: topic[1]!,
      query: topic[2]!,
      start: lineStart + topic.index,
      end: cursor,
    };
  }

  const emoji = /:([\p{L}\p{N}_+-]{2,})$/u.exec(line);
  if (emoji && opensToken(text, lineStart + emoji.index)) {
    return { kind: 'emoji', query: emoji[1]!, start: lineStart + emoji.index, end: cursor };
  }

  // Names have spaces in them: `@alice sm` still completes, but not once a
  // mention is finished (`@**…**`) or the query starts with a space.
  const mention = /@(_?)(\*{0,2})([^@*\n]*)$/.exec(line);
  if (mention && opensToken(text, lineStart + mention.index)) {
    const query = mention[3]!;
    if (!query.startsWith(' ') && query.length <= MAX_QUERY) {
      return {
        kind: 'mention',
        query,
        silent: mention[1] === '_',
        start: lineStart + mention.index,
        end: cursor,
      };
    }
  }

  const channel = /#(\*{0,2})([^#*>\n]*)$/.exec(line);
  if (channel && opensToken(text, lineStart + channel.index)) {
    const query = channel[2]!;
    if (!query.startsWith(' ') && query.length <= MAX_QUERY) {
      return { kind: 'channel', query, start: lineStart + channel.index, end: cursor };
    }
  }
  return null;
}

export interface Suggestion {
  /** Unique within one list (React key, option id). */
  key: string;
  /** What the list shows. */
  label: string;
  /** A second line (e-mail, description). */
  detail?: string;
  /** What replaces the token. */
  insert: string;
  /** Whether a space follows the insertion (not when the person goes on typing a topic). */
  thenSpace: boolean;
  /** For the emoji list: an image URL or the Unicode character. */
  emoji?: EmojiChoice;
}

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  /** An image for custom emoji and :zulip:. */
  url?: string;
  /** Every name it answers to (Unicode aliases). */
  aliases: string[];
}

/** How many suggestions a list shows (Zulip's typeaheads show about this many). */
export const MAX_SUGGESTIONS = 8;

type Ranked<T> = { rank: number; item: T };
const byRankThen =
  <T>(tieBreak: (a: T, b: T) => number) =>
  (a: Ranked<T>, b: Ranked<T>) =>
    a.rank - b.rank || tieBreak(a.item, b.item);
const byName = (a: string, b: string) => foldForSearch(a).localeCompare(foldForSearch(b));

export interface MentionContext {
  users: Iterable<User>;
  groups: Iterable<UserGroup>;
  /** Channel messages offer `@**channel**` and `@**topic**` too. */
  inChannel: boolean;
  /** People in the conversation being written to come first. */
  preferredUserIds?: ReadonlySet<number>;
  mutedUserIds?: ReadonlySet<number>;
}

/** Zulip's wildcards and when they apply. */
const WILDCARDS: { name: string; detail: string; channelOnly: boolean }[] = [
  { name: 'all', detail: 'Notify everyone', channelOnly: false },
  { name: 'everyone', detail: 'Notify everyone', channelOnly: false },
  { name: 'channel', detail: 'Notify channel', channelOnly: true },
  { name: 'topic', detail: 'Notify topic', channelOnly: true },
];

/**
 * People, then groups, then wildcards when they match equally well; within
 * people the conversation's members first, humans before bots. Two people
 * of one name get `@**Name|id**`.
 */
/** register's realm_users may leave `is_active` out (they are all active); only `false` excludes. */
export function mentionSuggestions(
  query: string,
  silent: boolean,
  ctx: MentionContext,
): Suggestion[] {
  const users = [...ctx.users].filter(
    (u) => u.is_active !== false && !ctx.mutedUserIds?.has(u.user_id),
  );
  const nameCount = new Map<string, number>();
  for (const u of users)
    nameCount.set(u.full_name.toLowerCase(), (nameCount.get(u.full_name.toLowerCase()) ?? 0) + 1);

  const people: Ranked<User>[] = [];
  for (const user of users) {
    const rank =
      bestRank([user.full_name], query) ?? (matchRank(user.email, query) === 0 ? 2 : null);
    if (rank !== null) people.push({ rank, item: user });
  }
  const preferred = ctx.preferredUserIds ?? new Set<number>();
  people.sort(
    byRankThen<User>(
      (a, b) =>
        Number(!preferred.has(a.user_id)) - Number(!preferred.has(b.user_id)) ||
        Number(a.is_bot) - Number(b.is_bot) ||
        byName(a.full_name, b.full_name),
    ),
  );

  const groups: Ranked<UserGroup>[] = [];
  for (const group of ctx.groups) {
    if (group.is_system_group || group.deactivated) continue;
    const rank = matchRank(group.name, query);
    if (rank !== null) groups.push({ rank, item: group });
  }
  groups.sort(byRankThen<UserGroup>((a, b) => byName(a.name, b.name)));

  const wildcards: Ranked<(typeof WILDCARDS)[number]>[] = [];
  if (!silent) {
    for (const wildcard of WILDCARDS) {
      if (wildcard.channelOnly && !ctx.inChannel) continue;
      const rank = matchRank(wildcard.name, query);
      // A bare `@` lists people, not every wildcard.
      if (rank === 0 && query !== '') wildcards.push({ rank, item: wildcard });
    }
  }

  type Entry = { rank: number; order: number; suggestion: Suggestion };
  const entries: Entry[] = [
    ...people.map(({ rank, item: u }, i) => ({
      rank,
      order: i,
      suggestion: {
        key: `user:${u.user_id}`,
        label: u.full_name,
        detail: u.email,
        insert: userMention(u.full_name, u.user_id, {
          silent,
          ambiguous: (nameCount.get(u.full_name.toLowerCase()) ?? 0) > 1,
        }),
        thenSpace: true,
      },
    })),
    ...groups.map(({ rank, item: g }, i) => ({
      rank,
      order: 10_000 + i,
      suggestion: {
        key: `group:${g.id}`,
        label: g.name,
        detail: g.description || 'User group',
        insert: groupMention(g.name, silent),
        thenSpace: true,
      },
    })),
    ...wildcards.map(({ rank, item: w }, i) => ({
      rank,
      order: 20_000 + i,
      suggestion: {
        key: `wildcard:${w.name}`,
        label: w.name,
        detail: w.detail,
        insert: wildcardMention(w.name),
        thenSpace: true,
      },
    })),
  ];
  entries.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return entries.slice(0, MAX_SUGGESTIONS).map((e) => e.suggestion);
}

/** People to add as DM recipients (oneself too: a note to self): active, not already chosen, best matches first, humans before bots. */
export function recipientSuggestions(
  query: string,
  users: Iterable<User>,
  chosen: ReadonlySet<number>,
): User[] {
  const ranked: Ranked<User>[] = [];
  for (const user of users) {
    if (user.is_active === false || chosen.has(user.user_id)) continue;
    const rank =
      bestRank([user.full_name], query) ?? (matchRank(user.email, query) === 0 ? 2 : null);
    if (rank !== null) ranked.push({ rank, item: user });
  }
  ranked.sort(
    byRankThen<User>(
      (a, b) => Number(a.is_bot) - Number(b.is_bot) || byName(a.full_name, b.full_name),
    ),
  );
  return ranked.slice(0, MAX_SUGGESTIONS).map((r) => r.item);
}

/** Channels the person is subscribed to first, then the others they can see. */
export function channelSuggestions(
  query: string,
  channels: Iterable<Channel>,
  subscribedIds: ReadonlySet<number>,
): Suggestion[] {
  const ranked: Ranked<Channel>[] = [];
  for (const channel of channels) {
    if (channel.is_archived) continue;
    const rank = matchRank(channel.name, query);
    if (rank !== null) ranked.push({ rank, item: channel });
  }
  ranked.sort(
    byRankThen<Channel>(
      (a, b) =>
        Number(!subscribedIds.has(a.stream_id)) - Number(!subscribedIds.has(b.stream_id)) ||
        byName(a.name, b.name),
    ),
  );
  return ranked.slice(0, MAX_SUGGESTIONS).map(({ item }) => ({
    key: `channel:${item.stream_id}`,
    label: item.name,
    detail: item.description || undefined,
    insert: channelLink(item.name),
    thenSpace: true,
  }));
}

/**
 * Topics of one channel (newest first as the store keeps them), for
 * `#**channel>…`; what was typed is offered too when it is a new topic.
 */
export function topicLinkSuggestions(
  channel: string,
  query: string,
  topics: readonly { name: string }[],
): Suggestion[] {
  const names = topicNameSuggestions(query, topics);
  if (query.trim() !== '' && !names.some((n) => n === query.trim())) names.unshift(query.trim());
  return names.slice(0, MAX_SUGGESTIONS).map((name) => ({
    key: `topic:${name}`,
    label: name,
    insert: channelLink(channel, name),
    thenSpace: true,
  }));
}

/** Topic names for the topic field: better matches first, newer first among equals. */
export function topicNameSuggestions(query: string, topics: readonly { name: string }[]): string[] {
  const ranked: { rank: number; index: number; name: string }[] = [];
  for (const [index, { name }] of topics.entries()) {
    const rank = matchRank(name, query);
    if (rank !== null) ranked.push({ rank, index, name });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.slice(0, MAX_SUGGESTIONS).map((r) => r.name);
}

/**
 * Zulip's popular emoji (the first row of its picker and the reaction
 * defaults): +1, tada, slight_smile, heart, working_on_it, octopus.
 */
export const POPULAR_EMOJI_CODES = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];

/**
 * Emoji whose names match: better matches first, then the popular ones
 * (and those in `frequent`, most used first), then shorter names.
 */
export function emojiMatches(
  query: string,
  emoji: readonly EmojiChoice[],
  frequent: readonly string[] = [],
  limit = MAX_SUGGESTIONS,
): EmojiChoice[] {
  const favour = new Map<string, number>();
  for (const [i, key] of frequent.entries()) favour.set(key, i);
  for (const [i, code] of POPULAR_EMOJI_CODES.entries()) {
    if (!favour.has(code)) favour.set(code, frequent.length + i);
  }
  const ranked: { rank: number; favour: number; length: number; choice: EmojiChoice }[] = [];
  for (const choice of emoji) {
    const rank = bestRank(choice.aliases, query);
    if (rank === null) continue;
    ranked.push({
      rank,
      favour: favour.get(emojiKey(choice)) ?? Number.MAX_SAFE_INTEGER,
      length: choice.name.length,
      choice,
    });
  }
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.favour - b.favour ||
      a.length - b.length ||
      a.choice.name.localeCompare(b.choice.name),
  );
  return ranked.slice(0, limit).map((r) => r.choice);
}

/**
 * The picker's order: with no search, the frequent and popular emoji first
 * and then the rest as the data lists them; with one, as the typeahead ranks.
 */
export function pickerOrder(
  query: string,
  emoji: readonly EmojiChoice[],
  frequent: readonly string[],
  limit: number,
): EmojiChoice[] {
  if (query !== '') return emojiMatches(query, emoji, frequent, limit);
  const byKey = new Map(emoji.map((e) => [emojiKey(e), e]));
  const first: EmojiChoice[] = [];
  for (const key of [...frequent, ...POPULAR_EMOJI_CODES]) {
    const choice = byKey.get(key);
    if (choice && !first.includes(choice)) first.push(choice);
  }
  const rest = emoji.filter((e) => !first.includes(e));
  return [...first, ...rest].slice(0, limit);
}

/** Identifies an emoji across names: Unicode by code, custom by name. */
export const emojiKey = (choice: Pick<EmojiChoice, 'type' | 'code' | 'name'>) =>
  choice.type === 'unicode_emoji' ? choice.code : `${choice.type}:${choice.name}`;

export function emojiSuggestions(
  query: string,
  emoji: readonly EmojiChoice[],
  frequent: readonly string[] = [],
): Suggestion[] {
  return emojiMatches(query, emoji, frequent).map((choice) => {
    // The alias typed, when it is a better match than the canonical name.
    const shown = choice.aliases.find((name) => matchRank(name, query) === 0) ?? choice.name;
    return {
      key: `emoji:${emojiKey(choice)}`,
      label: shown,
      insert: emojiSyntax(shown),
      thenSpace: true,
      emoji: choice,
    };
  });
}

/** Builds the emoji list from Zulip's `code_to_names` and the realm's custom emoji. */
export function emojiChoices(
  codeToNames: Record<string, string[]>,
  custom: Iterable<CustomEmoji>,
  zulipEmojiUrl: string | null,
): EmojiChoice[] {
  const list: EmojiChoice[] = [];
  const customNames = new Set<string>();
  for (const emoji of custom) {
    if (emoji.deactivated) continue;
    customNames.add(emoji.name);
    list.push({
      name: emoji.name,
      code: emoji.id,
      type: 'realm_emoji',
      url: emoji.source_url,
      aliases: [emoji.name],
    });
  }
  if (zulipEmojiUrl && !customNames.has('zulip')) {
    list.push({
      name: 'zulip',
      code: 'zulip',
      type: 'zulip_extra_emoji',
      url: zulipEmojiUrl,
      aliases: ['zulip'],
    });
  }
  for (const [code, names] of Object.entries(codeToNames)) {
    // A custom emoji takes over a Unicode name, as on the server.
    const aliases = names.filter((n) => !customNames.has(n));
    if (aliases.length === 0) continue;
    list.push({ name: aliases[0]!, code, type: 'unicode_emoji', aliases });
  }
  return list;
}

/** The character(s) of a Unicode emoji code (`1f44d`, `1f468-200d-1f4bb`). */
export function emojiCharacter(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((hex) => Number.parseInt(hex, 16)));
  } catch {
    return '';
  }
}

/** The text with the token replaced by the suggestion, and where the cursor goes. */
export function applySuggestion(
  text: string,
  token: Pick<Token, 'start' | 'end'>,
  suggestion: Pick<Suggestion, 'insert' | 'thenSpace'>,
): { text: string; cursor: number } {
  const after = text.slice(token.end);
  const space = suggestion.thenSpace && !/^\s/.test(after) ? ' ' : '';
  const inserted = suggestion.insert + space;
  return {
    text: text.slice(0, token.start) + inserted + after,
    cursor: token.start + inserted.length + (space === '' && suggestion.thenSpace ? 1 : 0),
  };
}
