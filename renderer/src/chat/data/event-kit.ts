import type { ChatState } from './model.js';
import type { UnreadBook } from './unread.js';

/** What every event handler shares: the event and effect shapes and map helpers. */

// biome-ignore lint/suspicious/noExplicitAny: events are Zulip's loosely typed JSON
export type ZulipEvent = { type: string; id: number } & Record<string, any>;

export interface EventEffects {
  /** The feed's list may now miss messages (moved in): refetch it, keeping what is shown. */
  refetchList: boolean;
  /** Channels whose loaded topic list changed in ways the events do not spell out. */
  reloadTopics: Set<number>;
  /** Typing notices: (re)start or stop each one's 15-second expiry. */
  typing: { key: string; userId: number; op: 'start' | 'stop' }[];
}

export function noEffects(): EventEffects {
  return { refetchList: false, reloadTopics: new Set(), typing: [] };
}

export interface EventContext {
  book: UnreadBook;
  effects: EventEffects;
  nowSecs: number;
}

export type Apply = (state: ChatState, event: ZulipEvent, ctx: EventContext) => ChatState;

export const mapWith = <K, V>(map: Map<K, V>, key: K, value: V) => new Map(map).set(key, value);
export const mapWithout = <K, V>(map: Map<K, V>, key: K) => {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
};
