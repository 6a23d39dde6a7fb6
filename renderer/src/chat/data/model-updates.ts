import type { ChatState, Message, RecentConversation } from './model.js';
import {
  conversationKeyOf,
  dmKey,
  dmParticipants,
  messageMatchesNarrow,
  narrowIsLocal,
} from './narrow.js';
import { countUnread, fileMessage, forget, keepUnchanged, type UnreadBook } from './unread.js';

/**
 * Changes to the chat state that both events and the store's own actions
 * make: the messages and the feed's list, the unread book, Recent
 * conversations and topic lists. Each returns a new state that shares
 * everything it did not change, so identity-comparing selectors hold.
 */

/** Senders kept per recent conversation (the Recent view shows a few avatars). */
const RECENT_SENDERS = 10;

export function recountUnread(state: ChatState, book: UnreadBook): ChatState {
  const unread = keepUnchanged(state.unread, countUnread(book, state));
  return unread === state.unread ? state : { ...state, unread };
}

/** Inserts ids keeping the list sorted (local echoes sort last: their ids are fractions above the newest). */
export function mergeIds(ids: number[], added: number[]): number[] {
  const seen = new Set(ids);
  const fresh = added.filter((id) => !seen.has(id));
  if (fresh.length === 0) return ids;
  return [...ids, ...fresh].sort((a, b) => a - b);
}

export function isLocalId(id: number): boolean {
  return !Number.isInteger(id);
}

/**
 * A new message from an event or a fetch: into the messages map, the unread
 * book, Recent conversations and loaded topic lists; into the feed's list
 * only when the list reaches the newest messages and the client can tell it
 * belongs there.
 */
export function addMessages(
  state: ChatState,
  book: UnreadBook,
  added: Message[],
  options: { live: boolean },
): ChatState {
  if (added.length === 0) return state;
  const messages = new Map(state.messages);
  for (const message of added) {
    messages.set(message.id, message);
    if (!isLocalId(message.id)) fileMessage(book, message, state.ownUserId);
  }
  let next: ChatState = { ...state, messages };
  if (options.live && next.list) {
    const list = next.list;
    if (list.foundNewest && narrowIsLocal(list.narrow)) {
      const matching = added
        .filter((m) => messageMatchesNarrow(m, list.narrow, next))
        .map((m) => m.id);
      const ids = mergeIds(list.ids, matching);
      if (ids !== list.ids) next = { ...next, list: { ...list, ids } };
    }
  }
  next = noteRecent(
    next,
    added.filter((m) => !isLocalId(m.id)),
  );
  next = noteTopics(next, added);
  return next;
}

/** Removes messages everywhere (deletion, or a local echo the server replaced). */
export function removeMessages(state: ChatState, book: UnreadBook, ids: number[]): ChatState {
  const gone = new Set(ids.filter((id) => state.messages.has(id) || book.places.has(id)));
  for (const id of ids) forget(book, id);
  if (gone.size === 0) return state;
  const removed = [...gone].map((id) => state.messages.get(id)).filter((m): m is Message => !!m);
  const messages = new Map(state.messages);
  for (const id of gone) messages.delete(id);
  let next: ChatState = { ...state, messages };
  if (next.list?.ids.some((id) => gone.has(id))) {
    next = { ...next, list: { ...next.list, ids: next.list.ids.filter((id) => !gone.has(id)) } };
  }
  return rebuildRecentFor(next, removed);
}

/** Replaces some messages by changed copies (flags, content, reactions). */
export function replaceMessages(state: ChatState, changed: Message[]): ChatState {
  if (changed.length === 0) return state;
  const messages = new Map(state.messages);
  for (const message of changed) messages.set(message.id, message);
  return { ...state, messages };
}

function recentEntryFor(message: Message, ownUserId: number): RecentConversation {
  const key = conversationKeyOf(message, ownUserId);
  if (message.type === 'stream') {
    return {
      key,
      channelId: message.stream_id ?? -1,
      topic: message.subject,
      maxId: message.id,
      senderIds: [message.sender_id],
    };
  }
  const userIds = dmKey(dmParticipants(message), ownUserId).split(',').map(Number);
  return { key, userIds, maxId: message.id, senderIds: [message.sender_id] };
}

/** Folds messages into Recent conversations (newest first). */
export function noteRecent(state: ChatState, messages: Message[]): ChatState {
  if (messages.length === 0) return state;
  const byKey = new Map(state.recent.map((entry) => [entry.key, entry]));
  let changed = false;
  for (const message of [...messages].sort((a, b) => a.id - b.id)) {
    const fresh = recentEntryFor(message, state.ownUserId);
    const old = byKey.get(fresh.key);
    if (!old) {
      byKey.set(fresh.key, fresh);
      changed = true;
      continue;
    }
    if (message.id <= old.maxId) {
      if (!old.senderIds.includes(message.sender_id) && old.senderIds.length < RECENT_SENDERS) {
        byKey.set(fresh.key, { ...old, senderIds: [...old.senderIds, message.sender_id] });
        changed = true;
      }
      continue;
    }
    const senders = [message.sender_id, ...old.senderIds.filter((id) => id !== message.sender_id)];
    byKey.set(fresh.key, { ...fresh, senderIds: senders.slice(0, RECENT_SENDERS) });
    changed = true;
  }
  if (!changed) return state;
  const recent = [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
  return { ...state, recent };
}

/** Recent conversations built afresh from every message the tab has (a start or a re-register). */
export function rebuildRecent(state: ChatState): ChatState {
  const messages = [...state.messages.values()].filter((m) => !isLocalId(m.id));
  const rebuilt = noteRecent({ ...state, recent: [] }, messages);
  return { ...state, recent: rebuilt.recent };
}

/**
 * Recomputes the Recent entries of the conversations these (removed or
 * moved-away) messages were in, from the messages the tab still has.
 */
export function rebuildRecentFor(state: ChatState, messages: Message[]): ChatState {
  const keys = new Set(messages.map((m) => conversationKeyOf(m, state.ownUserId)));
  if (keys.size === 0) return state;
  const rebuilt = new Map<string, RecentConversation>();
  const remaining = [...state.messages.values()]
    .filter((m) => !isLocalId(m.id) && keys.has(conversationKeyOf(m, state.ownUserId)))
    .sort((a, b) => b.id - a.id);
  for (const message of remaining) {
    const key = conversationKeyOf(message, state.ownUserId);
    const entry = rebuilt.get(key);
    if (!entry) rebuilt.set(key, recentEntryFor(message, state.ownUserId));
    else if (
      !entry.senderIds.includes(message.sender_id) &&
      entry.senderIds.length < RECENT_SENDERS
    ) {
      entry.senderIds.push(message.sender_id);
    }
  }
  const recent = state.recent
    .filter((entry) => !keys.has(entry.key))
    .concat([...rebuilt.values()])
    .sort((a, b) => b.maxId - a.maxId);
  return { ...state, recent };
}

/** Keeps loaded topic lists (`GET …/topics`) current with new messages. */
function noteTopics(state: ChatState, messages: Message[]): ChatState {
  let topics = state.topics;
  for (const message of messages) {
    if (message.type !== 'stream' || isLocalId(message.id)) continue;
    const channelId = message.stream_id ?? -1;
    const list = topics.get(channelId);
    if (!list) continue;
    const lower = message.subject.toLowerCase();
    const old = list.find((t) => t.name.toLowerCase() === lower);
    if (old && old.maxId >= message.id) continue;
    const rest = list.filter((t) => t !== old);
    if (topics === state.topics) topics = new Map(topics);
    topics.set(
      channelId,
      [{ name: message.subject, maxId: message.id }, ...rest].sort((a, b) => b.maxId - a.maxId),
    );
  }
  return topics === state.topics ? state : { ...state, topics };
}
