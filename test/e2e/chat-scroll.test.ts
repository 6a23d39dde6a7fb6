/**
 * A 5,000-message channel in the chat's virtualised feed, in headless
 * Chromium against the real server: scrolled from the newest message to the
 * very first and back, and from the first (a `near` link) down to the
 * newest, so it pages both ways. Along the way every message shows exactly
 * once and in order, the DOM holds a bounded number of rows whatever was
 * scrolled, and the page still answers keys afterwards. How smooth it is
 * (frame times) is measured by bench/chat.ts, not asserted here.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { logInBrowser } from '../helpers/browser-session.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

const MESSAGES = 5_000;
/**
 * Rows the feed may hold in the DOM at once: what fills the window plus the
 * list's margin above and below (600 px each), at the shortest row height.
 * Far below the 5,000 loaded.
 */
const MAX_ROWS = 80;

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let channelId: number;
/** The channel's message ids, oldest first. */
let ids: number[];

/** Some rows tall (several paragraphs, code), most one line, as in a real channel. */
function contentOf(i: number): string {
  if (i % 13 === 0) {
    return `<p>Build ${i}:</p>\n<div class="codehilite"><pre><span></span><code>step one\nstep two\nstep three</code></pre></div>`;
  }
  if (i % 7 === 0)
    return `<p>Message ${i}, a longer one.</p>\n<p>Second paragraph.</p>\n<p>Third.</p>`;
  return `<p>Message ${i}</p>`;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer();
  const { owner, admin, member } = t.accounts;
  const { ctx } = t.server;
  // Straight into the database: 5,000 sends over HTTP would take minutes.
  ids = ctx.transaction(() => {
    channelId = insertStream(ctx.db, {
      name: 'firehose',
      description: 'Everything',
      rendered_description: '<p>Everything</p>',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      date_created: 0,
      creator_id: null,
    });
    const senders = [owner.id, owner.id, admin.id, member.id];
    const start = Math.floor(Date.now() / 1000) - MESSAGES * 60;
    const made: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const html = contentOf(i);
      made.push(
        insertMessage(ctx.db, {
          sender_id: senders[Math.floor(i / 3) % senders.length]!,
          stream_id: channelId,
          dm_group_id: null,
          topic: `batch ${Math.floor(i / 40)}`,
          content: html.replace(/<[^>]+>/g, ''),
          rendered_content: html,
          date_sent: start + i * 60,
          sending_client: 'test',
        }),
      );
    }
    // Subscribed after: everything reads as read history, so the feed opens at the newest.
    insertSubscription(ctx.db, channelId, member.id, '#76ce90');
    return made;
  });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1200, height: 900 } }));
  // Logged in as the chat keeps it between visits: no log-in form.
  await logInBrowser(page.context(), t.url, member.email, FIXTURE_PASSWORD);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Pass {
  /** The message ids in the DOM after each step, in DOM order. */
  snapshots: number[][];
}

/**
 * Scrolls the feed three quarters of a window at a time towards
 * `direction` until `last` is shown at that end, noting the rows in the DOM
 * once the list has rendered each step. At the end of what is loaded it
 * waits for the next page to arrive.
 */
function scrollThrough(page: Page, direction: 'up' | 'down', last: number): Promise<Pass> {
  return page.evaluate(
    async ({ direction, last }) => {
      const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const snapshots: number[][] = [];
      const deadline = performance.now() + 150_000;
      const rendered = () =>
        Array.from(scroller.querySelectorAll<HTMLElement>('article.message'), (row) =>
          Number(row.dataset.messageId),
        );
      // Rendered rows reach past both edges of the scroller's box (or the list ends there).
      const covered = () => {
        const all = scroller.querySelectorAll<HTMLElement>('.feed-item');
        if (all.length === 0) return false;
        const box = scroller.getBoundingClientRect();
        const top = all[0]!.getBoundingClientRect().top;
        const bottom = all[all.length - 1]!.getBoundingClientRect().bottom;
        return (top <= box.top || scroller.scrollTop <= 0) && bottom >= box.bottom - 1;
      };
      for (;;) {
        // The list renders after the scroll event: wait until its rows stop changing and fill the box.
        let rows = rendered();
        for (let settled = 0, frames = 0; settled < 2 && frames < 60; frames++) {
          await frame();
          const now = rendered();
          const same = now.length === rows.length && now.every((id, i) => id === rows[i]);
          settled = same && covered() ? settled + 1 : 0;
          rows = now;
        }
        snapshots.push(rows);
        const atEnd =
          direction === 'up'
            ? scroller.scrollTop <= 0
            : scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1;
        if (atEnd && rows.includes(last)) return { snapshots };
        if (performance.now() > deadline) {
          const edges = Array.from(scroller.querySelectorAll('.feed-edge'), (e) => e.outerHTML);
          throw new Error(
            `stuck at ${rows[0]}…${rows[rows.length - 1]} scrolling ${direction} (top ${scroller.scrollTop} of ${scroller.scrollHeight}; ${edges.join(' ')})`,
          );
        }
        // Less than a window: each step's view overlaps the last one's.
        scroller.scrollTop += (direction === 'up' ? -0.75 : 0.75) * scroller.clientHeight;
      }
    },
    { direction, last },
  );
}

/**
 * Every snapshot in order without repeats, each overlapping or touching the
 * one before (nothing skipped between steps), all of them together exactly
 * the channel's messages, and the DOM bounded throughout.
 */
function expectEveryMessageOnceInOrder(pass: Pass) {
  const position = new Map(ids.map((id, i) => [id, i]));
  const seen = new Set<number>();
  let previous: { from: number; to: number } | null = null;
  for (const rows of pass.snapshots) {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(MAX_ROWS);
    const at = rows.map((id) => position.get(id));
    expect(at).not.toContain(undefined);
    const indexes = at as number[];
    // Consecutive messages, each once: a strictly increasing run without gaps.
    indexes.forEach((index, i) => {
      if (i > 0) expect(index).toBe(indexes[i - 1]! + 1);
    });
    const span = { from: indexes[0]!, to: indexes[indexes.length - 1]! };
    if (previous) {
      expect(span.from).toBeLessThanOrEqual(previous.to + 1);
      expect(span.to).toBeGreaterThanOrEqual(previous.from - 1);
    }
    previous = span;
    for (const id of rows) seen.add(id);
  }
  expect(seen.size).toBe(ids.length);
}

/** Where message `id`'s row is, as fractions of the feed's visible height (0 top, 1 bottom). */
function rowPlacement(page: Page, id: number) {
  return page.evaluate((id) => {
    const scroller = document.querySelector<HTMLElement>('.feed-scroller');
    const row = document.querySelector<HTMLElement>(`article[data-message-id="${id}"]`);
    if (!scroller || !row) return null;
    const box = scroller.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    return {
      top: (at.top - box.top) / box.height,
      bottom: (at.bottom - box.top) / box.height,
    };
  }, id);
}

/** Polls until message `id`'s row is wholly inside the feed's visible box. */
async function expectRowInView(page: Page, id: number) {
  await expect
    .poll(async () => {
      const at = await rowPlacement(page, id);
      return at !== null && at.top >= 0 && at.bottom <= 1;
    }, WAIT)
    .toBe(true);
}

describe('a 5,000-message feed', { timeout: 240_000 }, () => {
  it('opens a link near a message in the middle with that message in view', async () => {
    const linked = ids[2_500]!;
    await page.goto(`${t.url}/#narrow/channel/${channelId}-firehose/near/${linked}`);
    await expectRowInView(page, linked);
    // Read from its top down, with what came before it above: not at the window's edge.
    const at = await rowPlacement(page, linked);
    expect(at!.top).toBeGreaterThan(0.1);
    expect(at!.top).toBeLessThan(0.5);
    // It stays there once the list has settled (no late jump to either end;
    // measuring rows may still move it by a fraction of a pixel).
    await page.waitForTimeout(500);
    const settled = await rowPlacement(page, linked);
    expect(settled!.top).toBeCloseTo(at!.top, 2);
    expect(settled!.bottom).toBeCloseTo(at!.bottom, 2);
    await shot(page, 'scroll-near-middle');
  });

  it('opens at the newest message and scrolls to the very first, loading older pages', async () => {
    await page.goto(`${t.url}/#narrow/channel/${channelId}-firehose`);
    await expect
      .poll(() => page.locator(`article[data-message-id="${ids[ids.length - 1]}"]`).count(), WAIT)
      .toBe(1);
    await shot(page, 'scroll-newest');
    const up = await scrollThrough(page, 'up', ids[0]!);
    expectEveryMessageOnceInOrder(up);
    // Each fetch brings 50: reaching the first took many pages.
    expect(up.snapshots.length).toBeGreaterThan(MESSAGES / 50);
    await expect.poll(() => page.locator('.feed-start').count(), WAIT).toBe(1);
    await shot(page, 'scroll-first');
  });

  it('scrolls back down to the newest through what is loaded', async () => {
    const down = await scrollThrough(page, 'down', ids[ids.length - 1]!);
    expectEveryMessageOnceInOrder(down);
    await shot(page, 'scroll-back-at-newest');
  });

  it('opens a link near the first message and pages newer down to the newest', async () => {
    await page.goto(`${t.url}/#narrow/channel/${channelId}-firehose/near/${ids[0]}`);
    // The first page around the link: the oldest end of the channel, not its newest.
    await expect.poll(() => page.locator('.feed-start').count(), WAIT).toBe(1);
    await expect.poll(() => page.locator('article.message').count(), WAIT).toBeGreaterThan(5);
    const shown = await page
      .locator('article.message')
      .evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.messageId)));
    expect(Math.max(...shown)).toBeLessThan(ids[200]!);
    await expectRowInView(page, ids[0]!);
    const up = await scrollThrough(page, 'up', ids[0]!);
    expect(up.snapshots.flat()).toContain(ids[0]);
    const down = await scrollThrough(page, 'down', ids[ids.length - 1]!);
    // Every message on the way, in order: newer pages arriving below must not move the view.
    expectEveryMessageOnceInOrder(down);
    expect(down.snapshots.length).toBeGreaterThan(MESSAGES / 50);
    await page.locator('.feed-scroller').evaluate((scroller) => {
      scroller.scrollTop = scroller.scrollHeight / 2;
    });
    await page.waitForTimeout(300);
    await shot(page, 'scroll-middle');
  });

  it('keeps the DOM small whatever was scrolled', async () => {
    // After three passes over 5,000 loaded messages the DOM holds a window's worth.
    const rows = await page.locator('article.message').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(
      await page.evaluate(() => document.querySelectorAll('.feed-scroller *').length),
    ).toBeLessThan(MAX_ROWS * 40);
  });

  it('still answers the keyboard: c opens the compose box and typing shows', async () => {
    await page.locator('main').focus();
    await page.keyboard.press('c');
    // The compose box opens with the cursor in its message field.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe('Message');
    await page.keyboard.type('still responsive');
    const message = page.locator('textarea[aria-label="Message"]');
    await expect.poll(() => message.inputValue(), WAIT).toBe('still responsive');
    await shot(page, 'scroll-compose');
    expect(errors).toEqual([]);
  });
});
