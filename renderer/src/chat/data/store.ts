import { ApiError, type Params, type ZulipApi } from './api.js';
import { applyEvent, type EventEffects, noEffects, withTyping, type ZulipEvent } from './events.js';
import { Feed } from './feed.js';
import { needsFreshRegister } from './fresh-register.js';
import type { ChatState, ChatStore, ConnectionState, Narrow } from './model.js';
import { recountUnread } from './model-updates.js';
import { narrowKey } from './narrow.js';
import { Reading } from './reading.js';
import { REGISTER_PARAMS } from './register-params.js';
import { Sending } from './sending.js';
import { logOut as endSession } from './session.js';
import { presenceFrom, type RegisterAnswer, stateFromRegister } from './state.js';
import { type Clock, realClock, StoreCore } from './store-core.js';
import { bookFromRegister, forget } from './unread.js';

export { FETCH_BATCH, RECENT_FETCH } from './feed.js';
export { CLIENT_CAPABILITIES } from './register-params.js';

/**
 * The chat's store: registers an event queue, applies its events, keeps the
 * unread counts and the feed's message list, and re-registers when the
 * queue is lost or an event asks for it (`fresh-register.ts`), keeping what
 * is on screen until the new data arrives.
 */

/** A typing notice lapses after this long without renewal (Zulip's web app: 15 s). */
export const TYPING_EXPIRY_MS = 15_000;
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** How often the tab reports presence (Zulip's web app: every 50 s). */
export const PRESENCE_PING_MS = 50_000;

export interface StoreOptions extends Partial<Clock> {
  /** Whether the user is at the page now (presence reports active or idle). */
  userIsActive?: () => boolean;
  /**
   * The narrow the page opens on, once register's state can resolve its
   * address (channel names, the home view); null for a view with no feed.
   * Its messages are fetched as soon as register answers rather than when
   * the views, having rendered the whole shell, ask for them: that render
   * is most of the wait before the first messages show.
   */
  openingNarrow?: (state: ChatState) => Narrow | null;
}

/** Active while the page is shown and focused, as Zulip's web app reports it. */
function pageIsActive(): boolean {
  if (typeof document === 'undefined') return true;
  return document.visibilityState === 'visible' && document.hasFocus();
}

export function createChatStore(api: ZulipApi, options: StoreOptions = {}): ChatStore {
  const { userIsActive = pageIsActive, openingNarrow, ...clockOptions } = options;
  const clock: Clock = { ...realClock, ...clockOptions };
  const core = new StoreCore(api, clock);
  const reading = new Reading(core);
  const feed = new Feed(core, reading);
  const sending = new Sending(core);
  let lastEventId = -1;
  let poll: AbortController | null = null;
  const typingTimers = new Map<string, unknown>();
  let presenceTimer: unknown = null;
  /** Asked for by the first register and not yet by the views: their first ask is no reload. */
  let openedKey: string | null = null;
  let opening = openingNarrow;

  const setConnection = (connection: ConnectionState) => {
    if (core.state.connection !== connection) core.set({ ...core.state, connection });
  };

  // -------------------------------------------------------------------------
  // Register and the event loop

  async function register(): Promise<void> {
    const answer = await api.call<RegisterAnswer>('POST', '/register', REGISTER_PARAMS);
    if (core.closed) {
      // Closed while registering (a page leaving, a re-mount): drop the new queue too.
      api.call('DELETE', '/events', { queue_id: answer.queue_id }).catch(() => {});
      return;
    }
    const previous = core.state;
    let next = stateFromRegister(answer, clock.now() / 1000);
    core.book = bookFromRegister(answer.unread_msgs, next.ownUserId);
    // Reads not yet confirmed stay read on screen.
    for (const id of reading.unsent()) forget(core.book, id);
    // Keep the feed on screen (and the loaded topic lists) until fresh data replaces it.
    if (previous.list) {
      const messages = new Map(next.messages);
      for (const id of previous.list.ids) {
        const message = previous.messages.get(id);
        if (message) messages.set(id, message);
      }
      next = {
        ...next,
        messages,
        list: previous.list,
        topics: previous.topics,
        recent: previous.recent,
      };
    }
    // The chat always asks for a queue: register answers with one.
    core.queueId = answer.queue_id ?? null;
    lastEventId = answer.last_event_id ?? -1;
    core.set(recountUnread({ ...next, connection: 'connected' }, core.book));
    // Before anything else is asked of the server: this is what the reader waits for.
    const narrow = opening?.(core.state) ?? null;
    opening = undefined;
    if (narrow) {
      openedKey = narrowKey(narrow);
      void feed.show(narrow, { keepShown: false });
    }
    api.forgetHeadStarts();
    if (presenceTimer === null) void reportPresence();
    void feed.loadRecent();
    if (previous.list) void feed.show(previous.list.narrow, { keepShown: true });
    for (const channelId of previous.topics.keys()) loadTopics(channelId);
  }

  function backoffDelay(attempt: number): number {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** attempt);
    // Jitter spreads the reconnections of many tabs after a server restart.
    return base / 2 + clock.random() * (base / 2);
  }

  async function run(): Promise<void> {
    let failures = 0;
    // A poll that answers at once: the first after a (re-)register or a failure,
    // so the connection shows as back now rather than at the next event or heartbeat.
    let confirmNow = false;
    while (!core.closed) {
      try {
        if (core.queueId === null) {
          await register();
          confirmNow = true;
        }
        poll = new AbortController();
        const params: Params = {
          queue_id: core.queueId,
          last_event_id: lastEventId,
        };
        if (confirmNow) params.dont_block = true;
        const answer = await api.call<{ events: ZulipEvent[] }>(
          'GET',
          '/events',
          params,
          poll.signal,
        );
        failures = 0;
        confirmNow = false;
        if (core.closed) return;
        setConnection('connected');
        applyEvents(answer.events);
      } catch (err) {
        if (core.closed) return;
        if (!(err instanceof ApiError)) {
          if (poll?.signal.aborted) continue;
          throw err;
        }
        if (err.code === 'BAD_EVENT_QUEUE_ID') {
          core.queueId = null;
          continue;
        }
        if (err.status === 401) {
          setConnection('logged-out');
          return;
        }
        const starting = core.state.ownUserId === 0 && failures === 0;
        setConnection(starting ? 'connecting' : 'reconnecting');
        await clock.sleep(backoffDelay(failures));
        failures++;
        confirmNow = true;
      }
    }
  }

  function applyEvents(events: ZulipEvent[]) {
    if (events.length === 0) return;
    const effects: EventEffects = noEffects();
    let next = core.state;
    const nowSecs = clock.now() / 1000;
    for (const event of events) {
      lastEventId = Math.max(lastEventId, event.id!);
      next = applyEvent(next, event, { book: core.book, effects, nowSecs });
    }
    core.set(next);
    for (const notice of effects.typing) {
      scheduleTypingExpiry(notice.key, notice.userId, notice.op);
    }
    for (const channelId of effects.reloadTopics) {
      if (core.state.topics.has(channelId)) loadTopics(channelId);
    }
    const list = core.state.list;
    if (effects.refetchList && list) void feed.show(list.narrow, { keepShown: true });
    if (events.some((event) => needsFreshRegister(core.state, event))) startAfresh();
  }

  /** Drops the queue: the loop registers a new one next, keeping the screen as it is meanwhile. */
  function startAfresh() {
    const old = core.queueId;
    core.queueId = null;
    if (old !== null) api.call('DELETE', '/events', { queue_id: old }).catch(() => {});
  }

  function scheduleTypingExpiry(key: string, userId: number, op: 'start' | 'stop') {
    const timerKey = `${key}\n${userId}`;
    const old = typingTimers.get(timerKey);
    if (old !== undefined) clock.clearTimer(old);
    typingTimers.delete(timerKey);
    if (op === 'stop') return;
    const expire = () => {
      typingTimers.delete(timerKey);
      core.set(withTyping(core.state, key, userId, false));
    };
    typingTimers.set(timerKey, clock.setTimer(expire, TYPING_EXPIRY_MS));
  }

  // -------------------------------------------------------------------------
  // Presence and topics

  /**
   * Reports this tab's presence and takes everyone's back: the answer
   * refreshes statuses that would otherwise go stale between events.
   */
  async function reportPresence() {
    presenceTimer = clock.setTimer(() => void reportPresence(), PRESENCE_PING_MS);
    const active = userIsActive();
    try {
      const answer = await api.call<{
        presences?: Record<string, { active_timestamp?: number; idle_timestamp?: number }>;
      }>('POST', '/users/me/presence', {
        status: active ? 'active' : 'idle',
        new_user_input: active,
        slim_presence: true,
      });
      if (core.closed || !answer.presences) return;
      const nowSecs = clock.now() / 1000;
      const presence = new Map(core.state.presence);
      for (const [id, times] of Object.entries(answer.presences)) {
        if (/^\d+$/.test(id)) presence.set(Number(id), presenceFrom(times, nowSecs));
      }
      core.set({ ...core.state, presence });
    } catch {
      // The next ping tries again; the event loop reports the connection.
    }
  }

  function loadTopics(channelId: number) {
    api
      .call<{ topics: { name: string; max_id: number }[] }>(
        'GET',
        `/users/me/${channelId}/topics`,
        {
          allow_empty_topic_name: true,
        },
      )
      .then((answer) => {
        const list = answer.topics.map((t) => ({ name: t.name, maxId: t.max_id }));
        core.set({ ...core.state, topics: new Map(core.state.topics).set(channelId, list) });
      })
      .catch(() => {
        // The sidebar shows the topics it has; opening the channel again retries.
      });
  }

  // -------------------------------------------------------------------------
  // Ending

  /** Stops polling and every timer; returns the queue to delete, if any. */
  function stop(): string | null {
    core.closed = true;
    poll?.abort();
    for (const timer of typingTimers.values()) clock.clearTimer(timer);
    typingTimers.clear();
    reading.stop();
    if (presenceTimer !== null) clock.clearTimer(presenceTimer);
    const queue = core.queueId;
    core.queueId = null;
    return queue;
  }

  function close() {
    if (core.closed) return;
    const queue = stop();
    if (queue !== null) api.call('DELETE', '/events', { queue_id: queue }).catch(() => {});
  }

  async function logOut() {
    // Send what was read, and drop the queue, before the session ends.
    await reading.flush().catch(() => {});
    const queue = stop();
    if (queue !== null) await api.call('DELETE', '/events', { queue_id: queue }).catch(() => {});
    await endSession(api);
    core.set({ ...core.state, connection: 'logged-out' });
  }

  const store: ChatStore = {
    api,
    getState: () => core.state,
    subscribe: (listener) => core.subscribe(listener),
    close,
    actions: {
      showNarrow: (narrow) => {
        const opened = openedKey;
        openedKey = null;
        if (opened !== null && opened === narrowKey(narrow)) return;
        void feed.show(narrow, { keepShown: false });
      },
      loadOlder: () => void feed.extend('older'),
      loadNewer: () => void feed.extend('newer'),
      markRead: (ids) => reading.markRead(ids),
      markNarrowRead: () => {
        const list = core.state.list;
        if (list) void reading.markNarrowRead(list.narrow);
      },
      send: (target, content) => sending.send(target, content),
      retrySend: (echoId) => sending.retry(echoId),
      discardFailed: (echoId) => sending.discard(echoId),
      loadTopics,
      logOut,
    },
  };

  run().catch((err) => {
    // A bug, not a network problem: show it as a lost connection rather than a frozen page.
    console.error('chat event loop stopped', err);
    setConnection('reconnecting');
  });
  return store;
}
