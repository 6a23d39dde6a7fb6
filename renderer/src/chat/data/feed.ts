import type { Params } from './api.js';
import { FETCH_BATCH, firstWindowParams, MESSAGES_PARAMS } from './feed-window.js';
import type { ChatState, Message, MessageListState, Narrow } from './model.js';
import {
  addMessages,
  isLocalId,
  mergeIds,
  rebuildRecent,
  recountUnread,
  removeMessages,
} from './model-updates.js';
import { narrowFollowingMessage, nearOf, wireNarrow, withOf } from './narrow.js';
import type { Reading } from './reading.js';
import { errorText, type StoreCore } from './store-core.js';

export { FETCH_BATCH } from './feed-window.js';
/** Recent conversations at start: Zulip's web app loads the newest 400 messages. */
export const RECENT_FETCH = 400;
/** Longest wait for a quiet moment before Recent conversations' start-up load. */
const IDLE_WAIT_MAX_MS = 1_000;
/** GET /messages answers an anchor of "newest" with a number above every id. */
const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor?: boolean;
  anchor: number;
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

/**
 * Messages the tab holds that the answer's stretch (all the user received,
 * `narrow: []`) should have had but did not: deleted since the tab got
 * them, e.g. while it was offline. Messages newer than the answer arrived
 * after it.
 */
function missingFrom(answer: MessagesAnswer, state: ChatState): number[] {
  if (answer.messages.length === 0) return [];
  const fetched = new Set(answer.messages.map((m) => m.id));
  const newest = Math.max(...fetched);
  const oldest = answer.found_oldest ? 0 : Math.min(...fetched);
  const missing: number[] = [];
  for (const [id, message] of state.messages) {
    // A channel's history the user never received is not in the answer (`narrow: []`).
    if (isLocalId(id) || id < oldest || id > newest || fetched.has(id)) continue;
    if (!message.flags.includes('historical')) missing.push(id);
  }
  return missing;
}

/** Resolves when the page has a moment with nothing to do (at once outside a browser). */
function pageIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MAX_MS });
    } else setTimeout(resolve, 0);
  });
}

/**
 * The feed's list (`GET /messages` around the first unread or `near`,
 * extended either way) and the start-up load behind Recent conversations.
 */
export class Feed {
  /** Bumped by every new list: answers for an older one are dropped. */
  private generation = 0;
  /** The newest list's first load while it is in flight. */
  private showing: Promise<void> | null = null;

  constructor(
    private readonly core: StoreCore,
    private readonly reading: Reading,
  ) {}

  private async fetchMessages(params: Params): Promise<MessagesAnswer> {
    const answer = await this.core.api.call<MessagesAnswer>('GET', '/messages', {
      ...MESSAGES_PARAMS,
      ...params,
    });
    // Reads this tab has not sent yet must not come back as unread.
    const messages = answer.messages.map((m) =>
      this.reading.isUnsent(m.id) && !m.flags.includes('read')
        ? { ...m, flags: [...m.flags, 'read'] }
        : m,
    );
    return { ...answer, messages };
  }

  async loadRecent(): Promise<void> {
    const { core } = this;
    // The feed's first window is what the reader waits for; these 400 messages would
    // queue ahead of it on the server and in this tab. The views ask for the feed as
    // soon as register's state renders: give them that turn, then let the feed go first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const feedFirst = this.showing;
    await feedFirst?.catch(() => {});
    // Its answer only refreshes views off screen: not before the feed's first rows are drawn.
    if (feedFirst) await pageIdle();
    if (core.closed) return;
    try {
      const answer = await this.fetchMessages({
        anchor: 'newest',
        num_before: RECENT_FETCH,
        num_after: 0,
        narrow: [],
      });
      let next = addMessages(core.state, core.book, answer.messages, { live: false });
      next = removeMessages(next, core.book, missingFrom(answer, next));
      // Built afresh: after a re-register the old entries may name conversations deleted meanwhile.
      next = rebuildRecent(next);
      core.set(recountUnread({ ...next, recentLoaded: true }, core.book));
    } catch {
      // Recent conversations then fill from live messages only.
      core.set({ ...core.state, recentLoaded: true });
    }
  }

  /**
   * Loads `narrow` into the feed. `keepShown` leaves the current list on
   * screen until the answer replaces it (re-register, messages moved in).
   */
  show(narrow: Narrow, how: { keepShown: boolean }): Promise<void> {
    const showing = this.load(narrow, how);
    this.showing = showing;
    const done = () => {
      if (this.showing === showing) this.showing = null;
    };
    showing.then(done, done);
    return showing;
  }

  private async load(narrow: Narrow, how: { keepShown: boolean }): Promise<void> {
    const { core } = this;
    const generation = ++this.generation;
    const current = core.state.list;
    if (!how.keepShown || !current) core.set({ ...core.state, list: emptyList(narrow) });
    else {
      core.set({
        ...core.state,
        list: { ...current, narrow, loadingOlder: true, loadingNewer: true },
      });
    }
    // `near` and `with` both open at their message; `with` also follows it (below).
    const near = nearOf(narrow) ?? withOf(narrow);
    try {
      const answer = await this.fetchMessages(firstWindowParams(narrow));
      if (generation !== this.generation || core.closed) return;
      const ids = answer.messages.map((m) => m.id);
      let anchorId: number | null = near ?? answer.anchor;
      if (anchorId >= LARGER_THAN_MAX_MESSAGE_ID || !ids.includes(anchorId)) {
        anchorId = ids.find((id) => id >= (anchorId ?? 0)) ?? ids[ids.length - 1] ?? null;
      }
      const next = addMessages(core.state, core.book, answer.messages, { live: false });
      // Local echoes still waiting for their event stay at the end of the list.
      const echoes = (core.state.list?.ids ?? []).filter(
        (id) => isLocalId(id) && answer.found_newest && next.messages.has(id),
      );
      // A `with` link to a message moved since: the server answered with its
      // new conversation, and the list (and so the URL) goes there too.
      const target = answer.messages.find((m) => m.id === withOf(narrow));
      const list: MessageListState = {
        narrow: target ? narrowFollowingMessage(narrow, target, next) : narrow,
        ids: mergeIds(ids, echoes),
        foundOldest: answer.found_oldest,
        foundNewest: answer.found_newest,
        loadingOlder: false,
        loadingNewer: false,
        anchorId,
        error: null,
      };
      core.set(recountUnread({ ...next, list }, core.book));
    } catch (err) {
      const list = core.state.list;
      if (generation !== this.generation || core.closed || !list) return;
      core.set({
        ...core.state,
        list: { ...list, loadingOlder: false, loadingNewer: false, error: errorText(err) },
      });
    }
  }

  async extend(direction: 'older' | 'newer'): Promise<void> {
    const { core } = this;
    const list = core.state.list;
    if (!list) return;
    const older = direction === 'older';
    if (older ? list.foundOldest || list.loadingOlder : list.foundNewest || list.loadingNewer) {
      return;
    }
    const serverIds = list.ids.filter((id) => !isLocalId(id));
    const anchor = older ? serverIds[0] : serverIds[serverIds.length - 1];
    if (anchor === undefined) return;
    const generation = this.generation;
    const loading = older ? 'loadingOlder' : 'loadingNewer';
    core.set({ ...core.state, list: { ...list, [loading]: true } });
    try {
      const answer = await this.fetchMessages({
        anchor,
        include_anchor: false,
        num_before: older ? FETCH_BATCH : 0,
        num_after: older ? 0 : FETCH_BATCH,
        narrow: wireNarrow(list.narrow),
      });
      const current = core.state.list;
      if (generation !== this.generation || core.closed || !current) return;
      const next = addMessages(core.state, core.book, answer.messages, { live: false });
      const ids = mergeIds(
        current.ids,
        answer.messages.map((m) => m.id),
      );
      const found = older
        ? { foundOldest: answer.found_oldest }
        : { foundNewest: answer.found_newest };
      core.set(
        recountUnread(
          { ...next, list: { ...current, ids, error: null, [loading]: false, ...found } },
          core.book,
        ),
      );
    } catch (err) {
      const current = core.state.list;
      if (generation !== this.generation || !current) return;
      core.set({ ...core.state, list: { ...current, [loading]: false, error: errorText(err) } });
    }
  }
}
