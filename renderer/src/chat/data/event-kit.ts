import type * as Api from '../../../../server/shared/zulip-api/index.js';
import type { ChatState } from './model.js';
import type { UnreadBook } from './unread.js';

/** What every event handler shares: the event and effect shapes and map helpers. */

/** An event of `GET /events`: the union the server's API types describe, by `type` (and `op`). */
export type ZulipEvent = Api.ZulipEvent;
export type EventType = Api.EventType;
/** The events of one type. */
export type EventOf<T extends EventType> = Api.EventOf<T>;

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

/**
 * Applies one event of type `T` to the state. `Sometimes` names the fields
 * Zulip sends only in some cases; the rest are always there (`Delivered`).
 */
export type Apply<T extends EventType = EventType, Sometimes extends string = never> = (
  state: ChatState,
  event: Api.Delivered<T, Sometimes>,
  ctx: EventContext,
) => ChatState;

/** Handlers by event type, each getting the events of its type. */
export type Handlers = {
  [T in EventType]?: (state: ChatState, event: Api.Delivered<T>, ctx: EventContext) => ChatState;
};

export const mapWith = <K, V>(map: Map<K, V>, key: K, value: V) => new Map(map).set(key, value);
export const mapWithout = <K, V>(map: Map<K, V>, key: K) => {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
};
