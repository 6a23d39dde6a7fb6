import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type ListRange, Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { Message, MessageListState } from '../../data/model.js';
import { narrowKey, narrowMarksRead } from '../../data/narrow.js';
import { useChat, useChatActions, useChatStore } from '../../data/store-context.js';
import { readingPaused, resumeReading } from '../../message-actions/mark-unread.js';
import { type FeedRowShape, feedRows } from './conversation.js';
import { emptyNarrowText } from './empty-narrow.js';
import { MessageRow } from './MessageRow.js';
import { RecipientHeader } from './RecipientHeader.js';
import { isKeywordSearch } from './search-highlight.js';
import { useFeedViewport } from './visibility.js';

/** Pixels: a one-line message, as chat.css draws it (measured rows then replace it). */
const DEFAULT_ROW_HEIGHT = 56;
/** Far above any list's length: prepending older messages lowers the first index from here. */
const FIRST_INDEX_BASE = 10_000_000;

interface MessageFeedProps {
  selectedId: number | null;
  onSelect: (id: number) => void;
}

/**
 * The narrow's messages, virtualised: opens at the list's anchor (the first
 * unread), loads older at the top and newer at the bottom, follows new
 * messages while at the bottom, and marks what is seen as read.
 */
export function MessageFeed({ selectedId, onSelect }: MessageFeedProps) {
  const list = useChat((s) => s.list);
  const messages = useChat((s) => s.messages);
  const actions = useChatActions();
  const store = useChatStore();
  const ids = list?.ids ?? EMPTY_IDS;
  const rows = useMemo(() => feedRows(ids, messages), [ids, messages]);
  const virtuoso = useRef<VirtuosoHandle>(null);

  // The message the first index is counted from: prepends then lower the first index by
  // exactly what they add, so the view stays where the reader was.
  const pivot = useRef<number | null>(null);
  let pivotIndex = pivot.current === null ? -1 : rows.findIndex((r) => r.id === pivot.current);
  if (pivotIndex === -1 && rows.length > 0) {
    pivot.current = rows[0]!.id;
    pivotIndex = 0;
  }
  const firstItemIndex = FIRST_INDEX_BASE - pivotIndex;

  const anchorIndex = useMemo(() => {
    if (!list || list.anchorId === null) return rows.length - 1;
    const index = rows.findIndex((r) => r.id >= list.anchorId!);
    return index === -1 ? rows.length - 1 : index;
  }, [list, rows]);

  // Whether the reader is at the bottom, as the list last said. Virtuoso treats any
  // followOutput other than `false` (even a function answering false) as leave to jump
  // to the last row whenever the content grows under a view it thinks is at the bottom:
  // the first window growing as its rows are measured, or a newer page arriving under a
  // fast downward scroll. So it only gets a value once the reader has settled there and
  // every message up to the newest is loaded.
  const [atBottom, setAtBottom] = useState(false);
  const followsNewest = atBottom && list?.foundNewest === true;

  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  // Stable: Virtuoso calls a new ref callback again, which would loop through setState.
  const takeScroller = useCallback(
    (element: HTMLElement | Window | null) =>
      setScroller(element instanceof HTMLElement ? element : null),
    [],
  );
  const sent = useOwnSends(rows, messages, atBottom, scroller);
  const [renderedRange, setRenderedRange] = useState<ListRange | null>(null);
  const drawn = useDrawn(renderedRange !== null);
  const remeasure = useMemo(() => ({ rows, renderedRange }), [rows, renderedRange]);
  const viewport = useFeedViewport(scroller, remeasure);
  useMarkSeenAsRead(list, viewport.visibleIds);
  const stickyMessage = viewport.stickyId === null ? undefined : messages.get(viewport.stickyId);

  // Keyboard selection (↑/↓/j/k) scrolls the selected message into view, once per
  // selection: pages loading above or below must not pull a reader who scrolled away
  // back to it (rows change with every page).
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (selectedId === null || scrolledTo.current === selectedId) return;
    const index = rows.findIndex((r) => r.id === selectedId);
    if (index === -1) return;
    scrolledTo.current = selectedId;
    virtuoso.current?.scrollIntoView({ index, behavior: 'auto' });
  }, [selectedId, rows]);

  const renderRow = useCallback(
    (_index: number, row: FeedRowShape) => (
      <MessageRow shape={row} selected={row.id === selectedId} onSelect={onSelect} />
    ),
    [selectedId, onSelect],
  );

  if (!list) return <p className="feed-status">Loading…</p>;
  if (list.error && rows.length === 0) {
    return (
      <p className="feed-status error" role="alert">
        {list.error}
      </p>
    );
  }
  if (rows.length === 0) {
    const loading = list.loadingOlder || list.loadingNewer || !list.foundNewest;
    return (
      <p className="feed-status" role="status">
        {loading ? 'Loading…' : emptyNarrowText(list.narrow, store.getState())}
      </p>
    );
  }
  return (
    <>
      {stickyMessage && (
        <div
          className="sticky-recipient"
          style={
            viewport.stickyPush < 0 ? { transform: `translateY(${viewport.stickyPush}px)` } : {}
          }
        >
          <RecipientHeader message={stickyMessage} keywordSearch={isKeywordSearch(list.narrow)} />
        </div>
      )}
      {sent.belowFold && (
        <div className="sent-notice" role="status">
          <span>Sent!</span>
          <button type="button" className="link-button" onClick={sent.scrollDown}>
            Scroll down to view your message
          </button>
          <button
            type="button"
            className="icon-button sent-notice-close"
            aria-label="Dismiss"
            onClick={sent.dismiss}
          >
            ×
          </button>
        </div>
      )}
      <Virtuoso
        ref={virtuoso}
        scrollerRef={takeScroller}
        className="feed-scroller"
        data={rows}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={
          anchorIndex >= rows.length - 1
            ? // All read: the newest, at the bottom.
              { index: Math.max(0, anchorIndex), align: 'end' }
            : // The first unread (or the linked message) a third of the way down, as
              // Zulip shows it: what led up to it above, what follows below.
              { index: anchorIndex, align: 'start', offset: -Math.round(window.innerHeight / 3) }
        }
        computeItemKey={(_index, row) => row.id}
        itemContent={renderRow}
        rangeChanged={setRenderedRange}
        startReached={() => {
          if (!list.foundOldest && !list.loadingOlder) actions.loadOlder();
        }}
        endReached={() => {
          if (!list.foundNewest && !list.loadingNewer) actions.loadNewer();
        }}
        // New messages keep the reader at the bottom only when they were already there.
        followOutput={followsNewest ? 'auto' : false}
        atBottomStateChange={setAtBottom}
        // Rows a little above the bottom still count as at it: a message just sent
        // grows as it is measured and rendered, which must not count as scrolling away.
        atBottomThreshold={AT_BOTTOM_PX}
        // Rows below the window wait for the first draw; those above place the anchor.
        increaseViewportBy={drawn ? OVERSCAN : FIRST_OVERSCAN}
        // A typical row's height: without one, the list first renders a row alone to
        // measure it, a whole extra render and layout before the first paint.
        defaultItemHeight={DEFAULT_ROW_HEIGHT}
        components={{ Header: FeedTop, Footer: FeedBottom }}
        context={list}
        aria-label="Messages"
      />
    </>
  );
}

const EMPTY_IDS: number[] = [];
/** To the very end, the list's footer included: the scroller itself, which the browser clamps. */
const toBottom = (scroller: HTMLElement | null) => {
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
};

/** How many frames a jump to the bottom keeps following the list as its rows measure. */
const SETTLE_FRAMES = 30;

/** Pixels from the bottom that still count as at the bottom. */
const AT_BOTTOM_PX = 24;

/**
 * What follows a message sent from this tab (a local echo appended to the
 * list), as Zulip's web app does: a reader at the bottom stays there, however
 * many are sent in a row and however they grow as the server's copies replace
 * the echoes; a reader scrolled up gets "Sent! Scroll down to view your
 * message" with a way down. Stuck to the bottom until the reader scrolls.
 */
function useOwnSends(
  rows: FeedRowShape[],
  messages: Map<number, Message>,
  atBottom: boolean,
  scroller: HTMLElement | null,
) {
  const [belowFold, setBelowFold] = useState(false);
  const known = useRef<Set<number> | null>(null);
  const stuck = useRef(false);
  const atBottomNow = useRef(atBottom);
  atBottomNow.current = atBottom;

  const scrollDown = useCallback(() => {
    stuck.current = true;
    setBelowFold(false);
    // A jump from far up lands on estimated heights; the rows drawn there then
    // measure differently, so follow for a few frames until the end holds.
    let frames = SETTLE_FRAMES;
    const follow = () => {
      if (!scroller || !stuck.current) return;
      toBottom(scroller);
      const gap = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      if (gap > 1 && --frames > 0) requestAnimationFrame(follow);
    };
    follow();
  }, [scroller]);

  useLayoutEffect(() => {
    const before = known.current;
    known.current = new Set(rows.map((r) => r.id));
    if (before === null) return;
    const last = rows[rows.length - 1];
    const sentNow = rows.some(
      (r) => !before.has(r.id) && messages.get(r.id)?.local_id !== undefined,
    );
    if (sentNow) {
      if (atBottomNow.current || stuck.current) stuck.current = true;
      else setBelowFold(true);
    }
    // Every change under a reader stuck at the bottom (an echo replaced, a row measured) keeps them there.
    if (stuck.current && last !== undefined && !before.has(last.id)) toBottom(scroller);
  }, [rows, messages, scroller]);

  // Reaching the bottom answers the notice.
  useEffect(() => {
    if (atBottom) setBelowFold(false);
  }, [atBottom]);

  // Rows growing under a stuck reader (an echo replaced by the server's rendering, an
  // image loaded) keep them at the bottom too.
  // (The list's own parts: its header, rows and footer inside the viewport it fills.)
  useEffect(() => {
    if (!scroller) return;
    const follow = new ResizeObserver(() => {
      if (stuck.current) toBottom(scroller);
    });
    for (const part of Array.from(scroller.querySelectorAll(':scope > * > *')))
      follow.observe(part);
    return () => follow.disconnect();
  }, [scroller]);

  // The reader scrolling (wheel, touch, keys, a move up) is the only thing that unsticks.
  useEffect(() => {
    if (!scroller) return;
    const unstick = () => {
      stuck.current = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (['ArrowUp', 'PageUp', 'Home', 'k'].includes(event.key)) unstick();
    };
    // Scrolled up by any other means (the scrollbar, a script, find in page): rows
    // growing never move the top up, so a clear move up is the reader's.
    let lastTop = scroller.scrollTop;
    const onScroll = () => {
      const top = scroller.scrollTop;
      if (top < lastTop - AT_BOTTOM_PX) unstick();
      lastTop = top;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    scroller.addEventListener('wheel', unstick, { passive: true });
    scroller.addEventListener('touchmove', unstick, { passive: true });
    scroller.addEventListener('pointerdown', unstick, { passive: true });
    window.addEventListener('keydown', onKey);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('wheel', unstick);
      scroller.removeEventListener('touchmove', unstick);
      scroller.removeEventListener('pointerdown', unstick);
      window.removeEventListener('keydown', onKey);
    };
  }, [scroller]);

  return {
    belowFold,
    scrollDown,
    dismiss: () => setBelowFold(false),
  };
}
/** Pixels of rows kept drawn beyond the window either way, for smooth scrolling. */
const OVERSCAN = { top: 600, bottom: 600 };
/** Until the first rows are on screen: none below the window, less to draw before them. */
const FIRST_OVERSCAN = { top: 600, bottom: 0 };

/** True once rows have been rendered and a frame has shown them. */
function useDrawn(rendered: boolean): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (!rendered || drawn) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A task queued from an animation frame runs once that frame is out.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setDrawn(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [rendered, drawn]);
  return drawn;
}

function FeedTop({ context }: { context?: MessageListState }) {
  if (!context) return null;
  if (context.loadingOlder) return <p className="feed-edge">Loading older messages…</p>;
  if (context.foundOldest) return <div className="feed-edge feed-start" />;
  return <div className="feed-edge" />;
}

function FeedBottom({ context }: { context?: MessageListState }) {
  if (!context) return null;
  if (context.loadingNewer) return <p className="feed-edge">Loading newer messages…</p>;
  return <div className="feed-edge feed-end" />;
}

/**
 * Marks what is on screen as read while the window has focus, as Zulip's web
 * app does, in views of whole conversations only (`narrowMarksRead`): a
 * sender's messages, search results, mentions and the like stay unread.
 */
function useMarkSeenAsRead(list: MessageListState | null, visibleIds: number[]) {
  const actions = useChatActions();
  const messages = useChat((s) => s.messages);
  // Bumped when attention may have come back, to look again; the check itself is made
  // when marking (a window can gain focus without telling this page).
  const [attention, setAttention] = useState(0);

  useEffect(() => {
    const update = () => setAttention((n) => n + 1);
    // Some browsers (and headless ones) change focus without an event: look every second.
    let had = hasAttention();
    const every = setInterval(() => {
      if (hasAttention() !== had) {
        had = !had;
        update();
      }
    }, 1000);
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      clearInterval(every);
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);

  // "Mark as unread from here" pauses reading in its view until the view changes.
  const listKey = list === null ? null : narrowKey(list.narrow);
  // biome-ignore lint/correctness/useExhaustiveDependencies: leaving a narrow (its key) resumes
  useEffect(() => resumeReading, [listKey]);
  const readable = list !== null && narrowMarksRead(list.narrow) && !readingPaused(list.narrow);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attention` is the re-check trigger
  useEffect(() => {
    if (!readable || !hasAttention()) return;
    const unread = visibleIds.filter((id) => {
      const message = messages.get(id);
      return message && !message.flags.includes('read') && message.local_id === undefined;
    });
    if (unread.length > 0) actions.markRead(unread);
  }, [readable, attention, visibleIds, messages, actions]);
}

const hasAttention = () => document.visibilityState === 'visible' && document.hasFocus();
