import { useEffect, useRef, useState } from 'react';

/** What of the feed is on screen, measured from the DOM (Virtuoso renders beyond the viewport). */
export interface FeedViewport {
  /** Messages at least partly inside the scroller's visible box, top to bottom. */
  visibleIds: number[];
  /**
   * The message whose conversation the top of the viewport is in, when that
   * conversation's own header has scrolled off (the sticky header shows it).
   */
  stickyId: number | null;
  /**
   * Pixels (zero or less) the sticky header moves up: the next
   * conversation's header pushes it out rather than sliding under it, so two
   * headers never stack.
   */
  stickyPush: number;
}

const NOTHING: FeedViewport = { visibleIds: [], stickyId: null, stickyPush: 0 };

/** The sticky header's height when none is drawn yet (chat.css's recipient header). */
const STICKY_HEIGHT_PX = 30;

function measure(scroller: HTMLElement): FeedViewport {
  const box = scroller.getBoundingClientRect();
  const sticky = scroller.parentElement?.querySelector('.sticky-recipient');
  const stickyHeight = sticky?.getBoundingClientRect().height || STICKY_HEIGHT_PX;
  const visibleIds: number[] = [];
  let stickyId: number | null = null;
  let stickyPush = 0;
  let topFound = false;
  for (const item of Array.from(scroller.querySelectorAll<HTMLElement>('.feed-item'))) {
    const rect = item.getBoundingClientRect();
    if (rect.bottom <= box.top || rect.top >= box.bottom) continue;
    const article = item.querySelector<HTMLElement>('[data-message-id]');
    if (!article) continue;
    const id = Number(article.dataset.messageId);
    const own = article.getBoundingClientRect();
    if (own.bottom > box.top && own.top < box.bottom) visibleIds.push(id);
    const header = item.querySelector('.recipient-header');
    if (!topFound) {
      topFound = true;
      // Any part of the conversation's own header in view: it needs no copy over it.
      const headerShown = header !== null && header.getBoundingClientRect().bottom > box.top;
      stickyId = headerShown ? null : id;
    } else if (stickyId !== null && header !== null && stickyPush === 0) {
      const gap = header.getBoundingClientRect().top - box.top;
      if (gap < stickyHeight) stickyPush = Math.min(0, Math.round(gap - stickyHeight));
    }
  }
  return { visibleIds, stickyId, stickyPush };
}

const same = (a: FeedViewport, b: FeedViewport) =>
  a.stickyId === b.stickyId &&
  a.stickyPush === b.stickyPush &&
  a.visibleIds.length === b.visibleIds.length &&
  a.visibleIds.every((id, i) => id === b.visibleIds[i]);

/** Scrolling measures at most this often (a timer rather than animation frames, which a
 * browser may hold back for a window it is not painting). */
const MEASURE_EVERY_MS = 80;
const RECHECK_MS = 1000;

/**
 * Follows the scroller's visible messages: measured on scroll (throttled),
 * on resize, and whenever `remeasureKey` changes (new rows rendered).
 */
export function useFeedViewport(scroller: HTMLElement | null, remeasureKey: unknown): FeedViewport {
  const [viewport, setViewport] = useState<FeedViewport>(NOTHING);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!scroller) return;
    const update = () => {
      timer.current = null;
      const next = measure(scroller);
      setViewport((current) => (same(current, next) ? current : next));
    };
    const schedule = () => {
      if (timer.current === null) timer.current = setTimeout(update, MEASURE_EVERY_MS);
    };
    update();
    scroller.addEventListener('scroll', schedule, { passive: true });
    // The scroller's size, and its content's: rows laid out, images loaded, a message edited.
    const resize = new ResizeObserver(schedule);
    resize.observe(scroller);
    for (const child of Array.from(scroller.children)) resize.observe(child);
    // And now and then regardless: a window can come back into view or focus unannounced.
    const every = setInterval(schedule, RECHECK_MS);
    return () => {
      scroller.removeEventListener('scroll', schedule);
      resize.disconnect();
      clearInterval(every);
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [scroller]);

  // Rows rendered or changed without a scroll (first paint, live messages, loads).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `remeasureKey` is the trigger
  useEffect(() => {
    if (!scroller) return;
    const id = setTimeout(() => {
      const next = measure(scroller);
      setViewport((current) => (same(current, next) ? current : next));
    }, 0);
    return () => clearTimeout(id);
  }, [scroller, remeasureKey]);

  return viewport;
}
