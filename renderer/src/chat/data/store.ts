import { ApiError, type Params, type ZulipApi } from './api.js';
import { applyEvent, type EventEffects, noEffects, withTyping, type ZulipEvent } from './events.js';
import type {
  ChatState,
  ChatStore,
  ComposeTarget,
  ConnectionState,
  Message,
  MessageListState,
  Narrow,
} from './model.js';
import { addMessages, mergeIds, recountUnread, replaceMessages } from './model-updates.js';
import { canonicalOperatorOf, messageMatchesNarrow, narrowIsLocal } from './narrow.js';
import { closeImageSession, forgetCredentials, openImageSession } from './session.js';
import { initialChatState, type RegisterAnswer, stateFromRegister } from './state.js';
import { bookFromRegister, emptyBook, forget, type UnreadBook } from './unread.js';

/**
 * The chat's store: registers an event queue, applies its events, keeps the
 * unread counts and the feed's message list, and re-registers when the
 * queue is lost, keeping what is on screen until the new data arrives.
 */

/** What a modern Zulip client declares (server/events/queue.ts lists what Hearth knows). */
export const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: false,
  include_deactivated_groups: true,
  archived_channels: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

/** Messages per fetch of the feed (Zulip's web app fetches 50 either side at first). */
export const FETCH_BATCH = 50;
/** Recent conversations at start: Zulip's web app loads the newest 400 messages. */
export const RECENT_FETCH = 400;
/** A typing notice lapses after this long without renewal (Zulip's web app: 15 s). */
export const TYPING_EXPIRY_MS = 15_000;
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** mark-read requests wait this long to gather what the feed shows next. */
const MARK_READ_DELAY_MS = 100;
/** GET /messages answers an anchor of "newest" with a number above every id. */
const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export interface StoreOptions {
  /** Waits between retries (tests pass an instant one). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor?: boolean;
  anchor: number;
}

/** The narrow the server gets: `near` is the anchor, not a filter (as Zulip's web app sends it). */
function wireNarrow(narrow: Narrow): Narrow {
  return narrow.filter((term) => canonicalOperatorOf(term.operator) !== 'near');
}

function nearOf(narrow: Narrow): number | null {
  const term = narrow.find((t) => canonicalOperatorOf(t.operator) === 'near');
  const id = term ? Number(term.operand) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function createChatStore(api: ZulipApi, options: StoreOptions = {}): ChatStore {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimer ?? ((t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>));

  let state: ChatState = initialChatState();
  let book: UnreadBook = emptyBook();
  const listeners = new Set<() => void>();
  let queueId: string | null = null;
  let lastEventId = -1;
  let closed = false;
  let poll: AbortController | null = null;
  /** Bumped by every showNarrow: answers for an older list are dropped. */
  let listGeneration = 0;
  const typingTimers = new Map<string, unknown>();
  const pendingRead = new Set<number>();
  let readTimer: unknown = null;
  let readInFlight = false;
  let echoCounter = 0;

  function set(next: ChatState) {
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  }

  const setConnection = (connection: ConnectionState) => {
    if (state.connection !== connection) set({ ...state, connection });
  };

  // -------------------------------------------------------------------------
  // Register and the event loop

  async function register(): Promise<void> {
    const answer = await api.call<RegisterAnswer>('POST', '/register', {
      apply_markdown: true,
      client_gravatar: false,
      slim_presence: true,
      include_subscribers: false,
      client_capabilities: CLIENT_CAPABILITIES,
    });
    const previous = state;
    let next = stateFromRegister(answer, now() / 1000);
    book = bookFromRegister(answer.unread_msgs, next.ownUserId);
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
    next = recountUnread({ ...next, connection: 'connected' }, book);
    queueId = answer.queue_id;
    lastEventId = answer.last_event_id;
    set(next);
    void loadRecent();
    if (previous.list) void fetchList(previous.list.narrow, { keepShown: true });
    for (const channelId of previous.topics.keys()) loadTopics(channelId);
  }

  function backoffDelay(attempt: number): number {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** attempt);
    // Jitter spreads the reconnections of many tabs after a server restart.
    return base / 2 + random() * (base / 2);
  }

  async function run(): Promise<void> {
    await openImageSession(api);
    let failures = 0;
    while (!closed) {
      try {
        if (queueId === null) await register();
        poll = new AbortController();
        const answer = await api.call<{ events: ZulipEvent[] }>(
          'GET',
          '/events',
          { queue_id: queueId, last_event_id: lastEventId },
          poll.signal,
        );
        failures = 0;
        if (closed) return;
        setConnection('connected');
        applyEvents(answer.events);
      } catch (err) {
        if (closed) return;
        if (!(err instanceof ApiError)) {
          if (poll?.signal.aborted) continue;
          throw err;
        }
        if (err.code === 'BAD_EVENT_QUEUE_ID') {
          queueId = null;
          continue;
        }
        if (err.status === 401) {
          setConnection('logged-out');
          return;
        }
        setConnection(
          state.ownUserId === 0 && queueId === null && failures === 0
            ? 'connecting'
            : 'reconnecting',
        );
        await sleep(backoffDelay(failures));
        failures++;
      }
    }
  }

  function applyEvents(events: ZulipEvent[]) {
    if (events.length === 0) return;
    const effects: EventEffects = noEffects();
    let next = state;
    for (const event of events) {
      lastEventId = Math.max(lastEventId, event.id);
      next = applyEvent(next, event, { book, effects, nowSecs: now() / 1000 });
    }
    set(next);
    for (const notice of effects.typing) scheduleTypingExpiry(notice.key, notice.userId, notice.op);
    for (const channelId of effects.reloadTopics)
      if (state.topics.has(channelId)) loadTopics(channelId);
    if (effects.refetchList && state.list) void fetchList(state.list.narrow, { keepShown: true });
  }

  function scheduleTypingExpiry(key: string, userId: number, op: 'start' | 'stop') {
    const timerKey = `${key}\n${userId}`;
    const old = typingTimers.get(timerKey);
    if (old !== undefined) clearTimer(old);
    typingTimers.delete(timerKey);
    if (op === 'stop') return;
    typingTimers.set(
      timerKey,
      setTimer(() => {
        typingTimers.delete(timerKey);
        set(withTyping(state, key, userId, false));
      }, TYPING_EXPIRY_MS),
    );
  }

  // -------------------------------------------------------------------------
  // Messages: the feed's list and Recent conversations

  function fetchMessages(params: Params): Promise<MessagesAnswer> {
    return api.call<MessagesAnswer>('GET', '/messages', {
      apply_markdown: true,
      client_gravatar: false,
      ...params,
    });
  }

  async function loadRecent() {
    try {
      const answer = await fetchMessages({
        anchor: 'newest',
        num_before: RECENT_FETCH,
        num_after: 0,
        narrow: [],
      });
      const next = addMessages(state, book, answer.messages, { live: false });
      set(recountUnread({ ...next, recentLoaded: true }, book));
    } catch {
      // Recent conversations then fill from live messages only.
      set({ ...state, recentLoaded: true });
    }
  }

  function emptyList(narrow: Narrow): MessageListState {
    return {
      narrow,
      ids: [],
      foundOldest: false,
      foundNewest: false,
      loadingOlder: true,
      loadingNewer: true,
      anchorId: null,
      error: null,
    };
  }

  async function fetchList(narrow: Narrow, how: { keepShown: boolean }) {
    const generation = ++listGeneration;
    const current = state.list;
    if (!how.keepShown || !current) set({ ...state, list: emptyList(narrow) });
    else set({ ...state, list: { ...current, narrow, loadingOlder: true, loadingNewer: true } });
    const near = nearOf(narrow);
    try {
      const answer = await fetchMessages({
        anchor: near ?? 'first_unread',
        num_before: FETCH_BATCH,
        num_after: FETCH_BATCH,
        narrow: wireNarrow(narrow),
      });
      if (generation !== listGeneration || closed) return;
      const ids = answer.messages.map((m) => m.id);
      let anchorId: number | null = near ?? answer.anchor;
      if (anchorId >= LARGER_THAN_MAX_MESSAGE_ID || !ids.includes(anchorId)) {
        anchorId = ids.find((id) => id >= (anchorId ?? 0)) ?? ids[ids.length - 1] ?? null;
      }
      let next = addMessages(state, book, answer.messages, { live: false });
      // Local echoes still waiting for their event stay at the end of the list.
      const echoes = (state.list?.ids ?? []).filter(
        (id) => !Number.isInteger(id) && answer.found_newest && next.messages.has(id),
      );
      next = {
        ...next,
        list: {
          narrow,
          ids: mergeIds(ids, echoes),
          foundOldest: answer.found_oldest,
          foundNewest: answer.found_newest,
          loadingOlder: false,
          loadingNewer: false,
          anchorId,
          error: null,
        },
      };
      set(recountUnread(next, book));
    } catch (err) {
      if (generation !== listGeneration || closed || !state.list) return;
      set({
        ...state,
        list: { ...state.list, loadingOlder: false, loadingNewer: false, error: messageOf(err) },
      });
    }
  }

  async function extendList(direction: 'older' | 'newer') {
    const list = state.list;
    if (!list) return;
    const older = direction === 'older';
    if (older ? list.foundOldest || list.loadingOlder : list.foundNewest || list.loadingNewer)
      return;
    const serverIds = list.ids.filter((id) => Number.isInteger(id));
    const anchor = older ? serverIds[0] : serverIds[serverIds.length - 1];
    if (anchor === undefined) return;
    const generation = listGeneration;
    set({ ...state, list: { ...list, [older ? 'loadingOlder' : 'loadingNewer']: true } });
    try {
      const answer = await fetchMessages({
        anchor,
        include_anchor: false,
        num_before: older ? FETCH_BATCH : 0,
        num_after: older ? 0 : FETCH_BATCH,
        narrow: wireNarrow(list.narrow),
      });
      if (generation !== listGeneration || closed || !state.list) return;
      const next = addMessages(state, book, answer.messages, { live: false });
      const current = state.list;
      const ids = mergeIds(
        current.ids,
        answer.messages.map((m) => m.id),
      );
      const changes: Partial<MessageListState> = older
        ? { foundOldest: answer.found_oldest, loadingOlder: false }
        : { foundNewest: answer.found_newest, loadingNewer: false };
      set(recountUnread({ ...next, list: { ...current, ids, error: null, ...changes } }, book));
    } catch (err) {
      if (generation !== listGeneration || !state.list) return;
      const loading = older ? { loadingOlder: false } : { loadingNewer: false };
      set({ ...state, list: { ...state.list, ...loading, error: messageOf(err) } });
    }
  }

  // -------------------------------------------------------------------------
  // Reading

  function markRead(ids: number[]) {
    const unread = ids.filter((id) => Number.isInteger(id) && book.places.has(id));
    if (unread.length === 0) return;
    // At once on screen, as Zulip's web app does; the server's event confirms it.
    const changed: Message[] = [];
    for (const id of unread) {
      forget(book, id);
      pendingRead.add(id);
      const message = state.messages.get(id);
      if (message && !message.flags.includes('read'))
        changed.push({ ...message, flags: [...message.flags, 'read'] });
    }
    set(recountUnread(replaceMessages(state, changed), book));
    scheduleReadFlush();
  }

  function scheduleReadFlush() {
    if (readTimer !== null || readInFlight) return;
    readTimer = setTimer(() => {
      readTimer = null;
      void flushRead();
    }, MARK_READ_DELAY_MS);
  }

  async function flushRead() {
    if (pendingRead.size === 0 || closed) return;
    const messages = [...pendingRead];
    pendingRead.clear();
    readInFlight = true;
    try {
      await api.call('POST', '/messages/flags', { messages, op: 'add', flag: 'read' });
    } catch (err) {
      // Put them back for the next flush unless the session ended.
      if (err instanceof ApiError && err.status !== 401 && err.status !== 400) {
        for (const id of messages) pendingRead.add(id);
        await sleep(BACKOFF_FIRST_MS);
      }
    } finally {
      readInFlight = false;
    }
    if (pendingRead.size > 0) scheduleReadFlush();
  }

  async function markNarrowRead() {
    const list = state.list;
    if (!list) return;
    const terms = wireNarrow(list.narrow);
    const only = (ops: string[]) =>
      terms.length === ops.length &&
      terms.every((t, i) => !t.negated && canonicalOperatorOf(t.operator) === ops[i]);
    const channelId = (term: Narrow[number] | undefined) => {
      if (!term) return null;
      if (typeof term.operand === 'number') return term.operand;
      const name = String(term.operand).toLowerCase();
      return (
        [...state.channels.values()].find((c) => c.name.toLowerCase() === name)?.stream_id ?? null
      );
    };
    try {
      if (terms.length === 0 || (only(['in']) && terms[0]!.operand === 'home')) {
        await api.call('POST', '/mark_all_as_read');
        return;
      }
      const channel = channelId(terms[0]);
      if (only(['channel']) && channel !== null) {
        await api.call('POST', '/mark_stream_as_read', { stream_id: channel });
        return;
      }
      if (only(['channel', 'topic']) && channel !== null) {
        await api.call('POST', '/mark_topic_as_read', {
          stream_id: channel,
          topic_name: String(terms[1]!.operand),
        });
        return;
      }
      // Any other narrow: Zulip's batched flags/narrow, from the oldest on.
      let anchor: number | 'oldest' = 'oldest';
      let includeAnchor = true;
      for (;;) {
        const answer: { found_newest: boolean; last_processed_id: number | null } = await api.call(
          'POST',
          '/messages/flags/narrow',
          {
            anchor,
            include_anchor: includeAnchor,
            num_before: 0,
            num_after: 1000,
            narrow: terms,
            op: 'add',
            flag: 'read',
          },
        );
        if (answer.found_newest || answer.last_processed_id === null) return;
        anchor = answer.last_processed_id;
        includeAnchor = false;
      }
    } catch {
      // The unread counts stay as they are; the user can try again.
    }
  }

  // -------------------------------------------------------------------------
  // Sending

  function newestServerId(): number {
    let newest = 0;
    for (const id of state.messages.keys()) if (Number.isInteger(id) && id > newest) newest = id;
    return newest;
  }

  function echoOf(target: ComposeTarget, content: string, id: number, localId: string): Message {
    const me = state.users.get(state.ownUserId);
    const base = {
      id,
      sender_id: state.ownUserId,
      sender_full_name: me?.full_name ?? '',
      sender_email: me?.email ?? '',
      avatar_url: me?.avatar_url ?? null,
      // Shown as typed until the server renders it.
      content: `<p>${escapeHtml(content)}</p>`,
      timestamp: Math.floor(now() / 1000),
      flags: ['read'],
      reactions: [],
      submessages: [],
      local_id: localId,
    };
    if (target.kind === 'channel') {
      const name =
        state.subscriptions.get(target.channelId)?.name ??
        state.channels.get(target.channelId)?.name ??
        '';
      return {
        ...base,
        type: 'stream',
        stream_id: target.channelId,
        subject: target.topic,
        display_recipient: name,
      };
    }
    const recipients = [...new Set([state.ownUserId, ...target.userIds])].map((userId) => {
      const user = state.users.get(userId);
      return { id: userId, email: user?.email ?? '', full_name: user?.full_name ?? '' };
    });
    return { ...base, type: 'private', subject: '', display_recipient: recipients };
  }

  async function send(target: ComposeTarget, content: string): Promise<number> {
    echoCounter++;
    const id = newestServerId() + echoCounter / 1000;
    const localId = id.toFixed(3);
    const echo = echoOf(target, content, id, localId);
    let next = replaceMessages(state, [echo]);
    const list = next.list;
    if (
      list?.foundNewest &&
      narrowIsLocal(list.narrow) &&
      messageMatchesNarrow(echo, list.narrow, next)
    ) {
      next = { ...next, list: { ...list, ids: mergeIds(list.ids, [id]) } };
    }
    set(next);
    const params: Params =
      target.kind === 'channel'
        ? { type: 'stream', to: target.channelId, topic: target.topic, content }
        : { type: 'direct', to: target.userIds, content };
    try {
      const answer = await api.call<{ id: number }>('POST', '/messages', {
        ...params,
        read_by_sender: true,
        queue_id: queueId ?? undefined,
        local_id: localId,
      });
      return answer.id;
    } catch (err) {
      const current = state.messages.get(id);
      if (current) set(replaceMessages(state, [{ ...current, failed: true }]));
      throw err;
    }
  }

  // -------------------------------------------------------------------------
  // Topics

  function loadTopics(channelId: number) {
    api
      .call<{ topics: { name: string; max_id: number }[] }>('GET', `/users/me/${channelId}/topics`)
      .then((answer) => {
        const list = answer.topics.map((t) => ({ name: t.name, maxId: t.max_id }));
        set({ ...state, topics: new Map(state.topics).set(channelId, list) });
      })
      .catch(() => {
        // The sidebar shows the topics it has; opening the channel again retries.
      });
  }

  // -------------------------------------------------------------------------
  // Ending

  function close() {
    if (closed) return;
    closed = true;
    poll?.abort();
    for (const timer of typingTimers.values()) clearTimer(timer);
    typingTimers.clear();
    if (readTimer !== null) clearTimer(readTimer);
    if (queueId !== null) {
      api.call('DELETE', '/events', { queue_id: queueId }).catch(() => {});
      queueId = null;
    }
  }

  async function logOut() {
    // Send what was read before the key goes.
    if (readTimer !== null) clearTimer(readTimer);
    readTimer = null;
    await flushRead().catch(() => {});
    const queue = queueId;
    closed = true;
    poll?.abort();
    queueId = null;
    await Promise.all([
      queue !== null ? api.call('DELETE', '/events', { queue_id: queue }).catch(() => {}) : null,
      closeImageSession(api),
    ]);
    forgetCredentials();
    close();
    set({ ...state, connection: 'logged-out' });
  }

  const store: ChatStore = {
    api,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close,
    actions: {
      showNarrow: (narrow) => void fetchList(narrow, { keepShown: false }),
      loadOlder: () => void extendList('older'),
      loadNewer: () => void extendList('newer'),
      markRead,
      markNarrowRead: () => void markNarrowRead(),
      send,
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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
