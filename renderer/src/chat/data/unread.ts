import type * as Api from '../../../../server/shared/zulip-api/index.js';
import type { ChatState, Message, UnreadCounts } from './model.js';
import { directKey, dmKey, dmParticipants, topicKey } from './narrow.js';

/**
 * Unread bookkeeping as Zulip's web app keeps it (web/src/unread.ts): every
 * unread message filed under its conversation, and the counts derived from
 * that with the user's muting rules, the same rules as the server's
 * `unread_msgs.count` (server/flags/unread.ts):
 * - channel and total counts leave out muted topics, and every topic of a
 *   muted channel unless the user unmuted or followed it, and channels the
 *   user is not subscribed to;
 * - topic counts are kept for every topic (views decide what to show);
 * - DM conversations whose other participants are all muted are left out;
 * - direct mentions always count, wildcard mentions only where not muted.
 */

export type UnreadPlace =
  | { kind: 'channel'; channelId: number; topic: string }
  | { kind: 'dm'; key: string };

export interface UnreadBook {
  /** Every unread message the tab knows of, by id. */
  places: Map<number, UnreadPlace>;
  /** Unread messages that mention the user by name or group. */
  mentions: Set<number>;
  /** Unread messages with a channel or topic wildcard mention (counted only where not muted). */
  wildcardMentions: Set<number>;
  oldUnreadsMissing: boolean;
}

/** Register's `unread_msgs`, as the server's API module describes it. */
export type RawUnreadMsgs = NonNullable<Api.RegisterAnswer['unread_msgs']>;

const WILDCARD_FLAGS = [
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

export function emptyBook(): UnreadBook {
  return {
    places: new Map(),
    mentions: new Set(),
    wildcardMentions: new Set(),
    oldUnreadsMissing: false,
  };
}

/** The book from POST /register's `unread_msgs`. */
export function bookFromRegister(raw: RawUnreadMsgs | undefined, ownUserId: number): UnreadBook {
  const book = emptyBook();
  if (!raw) return book;
  for (const entry of raw.streams ?? []) {
    if (entry.stream_id === undefined || entry.topic === undefined) continue;
    for (const id of entry.unread_message_ids ?? []) {
      book.places.set(id, { kind: 'channel', channelId: entry.stream_id, topic: entry.topic });
    }
  }
  for (const entry of raw.pms ?? []) {
    const other = entry.other_user_id ?? entry.sender_id ?? ownUserId;
    const key = dmKey([other], ownUserId);
    for (const id of entry.unread_message_ids ?? []) book.places.set(id, { kind: 'dm', key });
  }
  for (const entry of raw.huddles ?? []) {
    const key = dmKey((entry.user_ids_string ?? '').split(',').map(Number), ownUserId);
    for (const id of entry.unread_message_ids ?? []) book.places.set(id, { kind: 'dm', key });
  }
  // The server already left out wildcard mentions in muted conversations.
  for (const id of raw.mentions ?? []) book.mentions.add(id);
  book.oldUnreadsMissing = raw.old_unreads_missing ?? false;
  return book;
}

export function placeOfMessage(message: Message, ownUserId: number): UnreadPlace {
  return message.type === 'stream'
    ? { kind: 'channel', channelId: message.stream_id ?? -1, topic: message.subject }
    : { kind: 'dm', key: dmKey(dmParticipants(message), ownUserId) };
}

/** Files a message by its flags: unread ones in, read ones out. */
export function fileMessage(book: UnreadBook, message: Message, ownUserId: number): void {
  if (message.flags.includes('read')) {
    forget(book, message.id);
    return;
  }
  book.places.set(message.id, placeOfMessage(message, ownUserId));
  if (message.flags.includes('mentioned')) book.mentions.add(message.id);
  else book.mentions.delete(message.id);
  if (message.flags.some((flag) => WILDCARD_FLAGS.includes(flag)))
    book.wildcardMentions.add(message.id);
  else book.wildcardMentions.delete(message.id);
}

export function forget(book: UnreadBook, id: number): boolean {
  book.mentions.delete(id);
  book.wildcardMentions.delete(id);
  return book.places.delete(id);
}

/** An `update_message_flags` remove-read detail (Zulip's `message_details`). */
export interface UnreadDetail {
  type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  user_ids?: number[];
  mentioned?: boolean;
}

export function fileFromDetail(
  book: UnreadBook,
  id: number,
  detail: UnreadDetail,
  ownUserId: number,
): void {
  if (detail.type === 'stream') {
    book.places.set(id, {
      kind: 'channel',
      channelId: detail.stream_id ?? -1,
      topic: detail.topic ?? '',
    });
  } else {
    book.places.set(id, { kind: 'dm', key: dmKey(detail.user_ids ?? [], ownUserId) });
  }
  // The server decided whether this is a mention with the muting it knows.
  if (detail.mentioned) book.mentions.add(id);
}

/** Topic visibility policies by `{channel}\n{lower-cased topic}`, read once per count. */
function policiesOf(state: ChatState): Map<string, number> {
  const policies = new Map<string, number>();
  for (const entry of state.userTopics) {
    policies.set(`${entry.stream_id}\n${entry.topic_name.toLowerCase()}`, entry.visibility_policy);
  }
  return policies;
}

function mutedIn(state: ChatState, policies: Map<string, number>) {
  return (channelId: number, topic: string): boolean => {
    const policy = policies.get(`${channelId}\n${topic.toLowerCase()}`) ?? 0;
    if (state.subscriptions.get(channelId)?.is_muted) return policy !== 2 && policy !== 3;
    return policy === 1;
  };
}

/** A DM conversation counts unless everyone else in it is muted. */
function dmMuted(key: string, state: ChatState): boolean {
  if (key === String(state.ownUserId)) return false;
  return key.split(',').every((id) => state.mutedUserIds.has(Number(id)));
}

export function countUnread(book: UnreadBook, state: ChatState): UnreadCounts {
  const isMuted = mutedIn(state, policiesOf(state));
  const channels = new Map<number, number>();
  const topics = new Map<number, Map<string, number>>();
  /** The spelling each topic is shown with: the first seen, as the server groups them. */
  const spellings = new Map<string, string>();
  const directs = new Map<string, number>();
  const muted = new Set<number>();
  let total = 0;
  for (const [id, place] of book.places) {
    if (place.kind === 'dm') {
      if (dmMuted(place.key, state)) {
        muted.add(id);
        continue;
      }
      directs.set(place.key, (directs.get(place.key) ?? 0) + 1);
      total++;
      continue;
    }
    const lower = `${place.channelId}\n${place.topic.toLowerCase()}`;
    let spelling = spellings.get(lower);
    if (spelling === undefined) {
      spelling = place.topic;
      spellings.set(lower, spelling);
    }
    let byTopic = topics.get(place.channelId);
    if (!byTopic) {
      byTopic = new Map();
      topics.set(place.channelId, byTopic);
    }
    byTopic.set(spelling, (byTopic.get(spelling) ?? 0) + 1);
    if (!state.subscriptions.has(place.channelId) || isMuted(place.channelId, place.topic)) {
      muted.add(id);
      continue;
    }
    channels.set(place.channelId, (channels.get(place.channelId) ?? 0) + 1);
    total++;
  }
  let mentions = 0;
  const mentionConversations = new Set<string>();
  const mention = (id: number) => {
    const place = book.places.get(id);
    if (!place) return;
    mentions++;
    mentionConversations.add(
      place.kind === 'dm' ? directKey(place.key) : topicKey(place.channelId, place.topic),
    );
  };
  for (const id of book.mentions) mention(id);
  for (const id of book.wildcardMentions) {
    if (!book.mentions.has(id) && !muted.has(id)) mention(id);
  }
  return {
    total,
    channels,
    topics,
    directs,
    mentions,
    oldUnreadsMissing: book.oldUnreadsMissing,
    mentionConversations,
  };
}

function sameMap<K, V>(a: Map<K, V>, b: Map<K, V>, same: (x: V, y: V) => boolean): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) {
    const other = b.get(key);
    if (other === undefined || !same(value, other)) return false;
  }
  return true;
}

/** The new counts, reusing the previous maps (and object) where nothing changed, for identity-comparing selectors. */
export function keepUnchanged(previous: UnreadCounts, next: UnreadCounts): UnreadCounts {
  const channels = sameMap(previous.channels, next.channels, Object.is)
    ? previous.channels
    : next.channels;
  const directs = sameMap(previous.directs, next.directs, Object.is)
    ? previous.directs
    : next.directs;
  let topics = next.topics;
  if (sameMap(previous.topics, next.topics, (x, y) => sameMap(x, y, Object.is))) {
    topics = previous.topics;
  } else {
    // Keep each channel's unchanged topic map.
    topics = new Map(
      [...next.topics].map(([id, map]) => {
        const old = previous.topics.get(id);
        return [id, old && sameMap(old, map, Object.is) ? old : map];
      }),
    );
  }
  const before = previous.mentionConversations ?? new Set<string>();
  const after = next.mentionConversations ?? new Set<string>();
  const mentionConversations =
    before.size === after.size && [...after].every((key) => before.has(key))
      ? previous.mentionConversations
      : after;
  if (
    mentionConversations === previous.mentionConversations &&
    channels === previous.channels &&
    directs === previous.directs &&
    topics === previous.topics &&
    previous.total === next.total &&
    previous.mentions === next.mentions &&
    previous.oldUnreadsMissing === next.oldUnreadsMissing
  ) {
    return previous;
  }
  return { ...next, channels, directs, topics, mentionConversations };
}

/** A topic's unread count, matching the topic name case-insensitively as Zulip does. */
export function unreadInTopic(counts: UnreadCounts, channelId: number, topic: string): number {
  const byTopic = counts.topics.get(channelId);
  if (!byTopic) return 0;
  const exact = byTopic.get(topic);
  if (exact !== undefined) return exact;
  const lower = topic.toLowerCase();
  for (const [name, count] of byTopic) if (name.toLowerCase() === lower) return count;
  return 0;
}
