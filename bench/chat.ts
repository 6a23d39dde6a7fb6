/**
 * The browser chat as a person meets it, in headless Chromium against the
 * compiled server (as `npm start` runs it) on an organization of 100,000
 * messages (--quick: 20,000):
 *
 * - first paint: from navigation start to the first frame that shows the
 *   feed's messages, opening the measured user's busiest unread channel
 *   already logged in (fresh browser profile each run: cold HTTP cache).
 *   Target < 1 s; the ceiling is the log-in page's first paint (the same
 *   bundle with no data), in the same run.
 * - scrolling the 5,000-message channel (--quick: 1,000), all of it loaded,
 *   from the first message to the last: the share of frames longer than
 *   50 ms and the 95th percentile of the frame interval (rAF timing).
 * - typing in the compose box with that feed loaded: key press to the next
 *   frame, p50 and p95.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { logInBrowser } from '../test/helpers/browser-session.js';
import { CHROMIUM_ARGS, findChromium } from '../test/helpers/chromium.js';
import { cachedDataDir } from './lib/cache.js';
import { buildChatOrg, CHAT_ORG_VERSION, type ChatOrgFacts, FACTS_FILE } from './lib/chat-org.js';
import { buildIfStale, startCompiledServer } from './lib/compiled-server.js';
import { percentile, quick, record } from './lib/report.js';

const shape = {
  users: quick ? 60 : 200,
  channels: quick ? 20 : 40,
  messages: quick ? 20_000 : 100_000,
  scrollEvery: 20,
};
const FIRST_PAINT_RUNS = quick ? 3 : 7;
/** Pixels per frame while scrolling: a brisk fling, about 10,000 px/s at 60 frames a second. */
const SCROLL_STEP = 160;
/**
 * tsx compiles this file keeping function names through a `__name` helper
 * that the page does not have: functions passed to the page need it there.
 */
const NAME_HELPER = 'globalThis.__name = globalThis.__name || ((f) => f);';

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

buildIfStale();

const { dataDir, cleanup } = await cachedDataDir(
  `chat-${shape.messages}m-${shape.users}u-${shape.channels}c-o${CHAT_ORG_VERSION}`,
  (dir) => buildChatOrg(dir, shape),
);
const facts = JSON.parse(readFileSync(path.join(dataDir, FACTS_FILE), 'utf8')) as ChatOrgFacts;
console.log(
  `  ${shape.messages} messages; the measured user has ${facts.unread} unread, ${facts.busiest.unread} in #${facts.busiest.name}`,
);

const server = await startCompiledServer(dataDir, ['--no-rate-limit']);
const { executablePath, env } = await findChromium();
const browser = await chromium.launch({
  executablePath,
  args: CHROMIUM_ARGS,
  env: { ...process.env, ...env },
});

/** A context logged in as the measured user, as after the chat's login page (so no log-in form). */
const logInMeasured = (context: BrowserContext) =>
  logInBrowser(context, server.url, facts.email, facts.password);

try {
  await measureFirstPaint(browser);
  await measureScrollAndTyping(browser);
} finally {
  await browser.close();
  await server.stop();
  cleanup();
}

/**
 * Run in the page before its own scripts: notes the first frame after
 * `selector` appears: the rAF callback runs just before that frame is
 * painted, and a task queued from it runs once the frame is out.
 */
function watchFirstPaint({ selector, count }: { selector: string; count: number }) {
  const w = window as unknown as { benchPainted?: number };
  const observer = new MutationObserver(() => {
    if (document.querySelectorAll(selector).length < count) return;
    observer.disconnect();
    requestAnimationFrame(() =>
      setTimeout(() => {
        w.benchPainted = performance.now();
      }, 0),
    );
  });
  observer.observe(document, { childList: true, subtree: true });
}

interface PaintRun {
  painted: number;
  /** Where the time went: each request's end, from navigation start. */
  resources: Array<{ name: string; start: number; end: number; bytes: number }>;
}

async function firstPaint(browser: Browser, hash: string, loggedIn: boolean): Promise<PaintRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    if (loggedIn) await logInMeasured(context);
    const page = await context.newPage();
    await page.addInitScript(NAME_HELPER);
    await page.addInitScript(watchFirstPaint, {
      // Several rows: the virtual list first renders one alone, to measure it.
      selector: loggedIn ? '.feed-scroller article.message' : 'form button',
      count: loggedIn ? 3 : 1,
    });
    await page.goto(`${server.url}/${hash}`);
    await page.waitForFunction(() => (window as { benchPainted?: number }).benchPainted, null, {
      timeout: 30_000,
      polling: 50,
    });
    return await page.evaluate(() => ({
      painted: (window as unknown as { benchPainted: number }).benchPainted,
      resources: performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        const url = new URL(r.name);
        return {
          name: url.pathname + (url.pathname.endsWith('/messages') ? url.search.slice(0, 60) : ''),
          start: r.startTime,
          end: r.responseEnd,
          bytes: r.encodedBodySize,
        };
      }),
    }));
  } finally {
    await context.close();
  }
}

async function measureFirstPaint(browser: Browser): Promise<void> {
  const hash = `#narrow/channel/${facts.busiest.id}-${facts.busiest.name}`;
  // One unmeasured run: the server's and the disk's caches warm as on any used server.
  await firstPaint(browser, hash, true);
  const runs: PaintRun[] = [];
  const logins: number[] = [];
  for (let i = 0; i < FIRST_PAINT_RUNS; i++) {
    const run = await firstPaint(browser, hash, true);
    runs.push(run);
    logins.push((await firstPaint(browser, '', false)).painted);
    const parts = run.resources
      .filter((r) => r.name.includes('/api/') || r.name.endsWith('.js'))
      .map((r) => `${r.name.replace('/api/v1', '')} ${r.start.toFixed(0)}-${r.end.toFixed(0)}`);
    console.log(`  run ${i + 1}: painted at ${run.painted.toFixed(0)} ms (${parts.join(', ')})`);
  }
  const painted = runs.map((r) => r.painted);
  const register = runs[0]!.resources.find((r) => r.name.endsWith('/register'));
  const note = `${shape.messages} messages, ${facts.unread} unread; load ${load()}`;
  record({
    name: 'chat first paint p50',
    value: percentile(painted, 50),
    unit: 'ms',
    target: 1000,
    ceiling: percentile(logins, 50),
    note,
  });
  record({
    name: 'chat first paint worst',
    value: Math.max(...painted),
    unit: 'ms',
    target: 1000,
    ceiling: Math.max(...logins),
    note,
  });
  if (register) {
    record({ name: 'chat register answer', value: register.bytes / 1e6, unit: 'MB', note });
  }
}

async function measureScrollAndTyping(browser: Browser): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logInMeasured(context);
  const page = await context.newPage();
  await page.addInitScript(NAME_HELPER);
  await page.addInitScript(watchFirstPaint, {
    selector: '.feed-scroller article.message',
    count: 3,
  });
  await page.goto(`${server.url}/#narrow/channel/${facts.scroll.id}-${facts.scroll.name}`);
  await page.waitForSelector('article.message', { timeout: 30_000 });
  const loadStarted = performance.now();
  await loadWholeFeed(page);
  console.log(
    `  loaded all ${facts.scroll.messages} messages of #${facts.scroll.name} in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );
  const scroll = await page.evaluate(scrollToEnd, SCROLL_STEP);
  if (scroll.seen < facts.scroll.messages) {
    throw new Error(`scrolled past ${scroll.seen} of ${facts.scroll.messages} messages`);
  }
  const intervals = scroll.intervals;
  const long = intervals.filter((ms) => ms > 50).length;
  const note = `${facts.scroll.messages} messages, ${intervals.length} frames, at most ${scroll.maxRows} rows in the DOM; load ${load()}`;
  console.log(`  ${note}`);
  record({
    name: 'chat scroll: frames over 50 ms',
    value: (100 * long) / intervals.length,
    unit: '%',
    target: 5,
    note,
  });
  record({
    name: 'chat scroll: frame interval p95',
    value: percentile(intervals, 95),
    unit: 'ms',
    target: 33,
    note,
  });

  // Shortcuts go to the page, not to the feed's scroller.
  await page.locator('main').focus();
  await page.keyboard.press('c');
  // The compose box opens with the cursor in its message field.
  await page.waitForFunction(
    () => document.activeElement?.getAttribute('aria-label') === 'Message',
    null,
    { timeout: 10_000 },
  );
  await page.evaluate(() => {
    const w = window as unknown as { benchKeys: number[] };
    w.benchKeys = [];
    document.addEventListener(
      'keydown',
      (event) => {
        const pressed = event.timeStamp;
        requestAnimationFrame(() =>
          setTimeout(() => w.benchKeys.push(performance.now() - pressed), 0),
        );
      },
      { capture: true },
    );
  });
  const text = 'Typing a reply while five thousand messages sit in the feed above. '.repeat(2);
  await page.keyboard.type(text, { delay: 40 });
  await page.waitForTimeout(200);
  const keys = await page.evaluate(() => (window as unknown as { benchKeys: number[] }).benchKeys);
  const typingNote = `${keys.length} key presses, ${facts.scroll.messages} messages in the feed; load ${load()}`;
  record({
    name: 'chat typing: key to next frame p50',
    value: percentile(keys, 50),
    unit: 'ms',
    target: 25,
    note: typingNote,
  });
  record({
    name: 'chat typing: key to next frame p95',
    value: percentile(keys, 95),
    unit: 'ms',
    target: 50,
    note: typingNote,
  });
  await context.close();
}

/** Scrolls to the top until the feed has its oldest message (each stop loads 50 older). */
async function loadWholeFeed(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const deadline = performance.now() + 300_000;
    while (!document.querySelector('.feed-start')) {
      if (performance.now() > deadline) throw new Error('the feed never reached its oldest');
      scroller.scrollTop = 0;
      await frame();
    }
    // The newest end is loaded already (the channel is all read: it opened at the newest).
    scroller.scrollTop = 0;
    await frame();
    await frame();
  });
}

/** In the page: scrolls down by `step` each frame to the end, timing the frames. */
function scrollToEnd(
  step: number,
): Promise<{ intervals: number[]; seen: number; maxRows: number }> {
  const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
  const seen = new Set<string>();
  const intervals: number[] = [];
  let maxRows = 0;
  let last = 0;
  let stillAtEnd = 0;
  return new Promise((resolve) => {
    const tick = (now: number) => {
      if (last) intervals.push(now - last);
      last = now;
      const rows = scroller.querySelectorAll('article.message');
      maxRows = Math.max(maxRows, rows.length);
      rows.forEach((row) => {
        seen.add(row.getAttribute('data-message-id')!);
      });
      const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      stillAtEnd = atEnd ? stillAtEnd + 1 : 0;
      if (stillAtEnd >= 10) {
        resolve({ intervals, seen: seen.size, maxRows });
        return;
      }
      scroller.scrollTop += step;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
