/**
 * Reading and sending in the chat, one person in headless Chromium against
 * the real server: views that are not conversations leave messages unread
 * (Zulip's rule), "Mark all as read" asks first, a message sent while
 * scrolled up says where it went and a reader at the bottom stays there,
 * sticky headers never stack, an empty search says so, a failed send offers
 * Retry, and two uploads at once stay apart. What the page shows is checked
 * against the REST API.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, WAIT } from './browser.js';
import {
  chatShot,
  logIn,
  messageRow,
  openChatPage,
  openCompose,
  sendFromCompose,
  sidebarCount,
} from './chat-page.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;

/** Ada's news (12) and Olivia's plans (11): Mel has 23 unread. */
const NEWS = 12;
const PLANS = 11;

const paragraph = (i: number) =>
  `Item ${i}: a message long enough to take a few lines of the feed.\n\nIts second paragraph.\n\n- a list\n- of things`;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  for (let i = 0; i < NEWS; i++) await sendToChannel(t, 'admin', general, 'news', paragraph(i));
  for (let i = 0; i < PLANS; i++) await sendToChannel(t, 'owner', general, 'plans', paragraph(i));
  browser = await launchBrowser();
  ({ page, errors } = await openChatPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const viewTitle = () => page.locator('#view-title').textContent();

async function serverUnread(): Promise<number> {
  const res = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
  });
  return res.body.messages.length;
}

async function search(text: string) {
  await page.locator('#search-input').fill(text);
  await page.locator('#search-input').press('Enter');
}

/** Long enough for the feed to have marked what it shows, had it been going to. */
async function dwell() {
  expect(await page.evaluate(() => document.hasFocus())).toBe(true);
  await page.waitForTimeout(1_500);
}

/** Whether the feed's scroll position held over five animation frames. */
const scrollerSettled = () =>
  page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
    const positions: number[] = [];
    for (let frame = 0; frame < 5; frame++) {
      positions.push(scroller.scrollTop, scroller.scrollHeight);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return positions.every((value, i) => value === positions[i % 2]);
  });

/** The feed's scroller and what of the newest message is inside it. */
const bottomGap = () =>
  page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
    const rows = scroller.querySelectorAll('.message');
    const last = rows[rows.length - 1]!.getBoundingClientRect();
    return Math.round(last.bottom - scroller.getBoundingClientRect().bottom);
  });

describe('reading and sending', { timeout: 90_000 }, () => {
  it('logs in with 23 unread', async () => {
    await logIn(page, t.url, 'member@example.com', '#inbox');
    await expect.poll(() => sidebarCount(page, 'Inbox'), WAIT).toBe('23');
  });

  it("a sender's messages (sender:) are a search: opening them leaves them unread", async () => {
    await search('sender:admin@example.com');
    await expect.poll(viewTitle, WAIT).toMatch(/Ada Admin/);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBeGreaterThan(3);
    await dwell();
    expect(await sidebarCount(page, 'Inbox')).toBe('23');
    expect(await serverUnread()).toBe(NEWS + PLANS);
  });

  it('so is "View messages sent" on a user card', async () => {
    await page.goto(`${t.url}/#inbox`);
    await page
      .getByRole('complementary', { name: 'Users' })
      .locator(`.user-row[data-user-id="${t.accounts.owner.id}"] .user-row-button`)
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'View messages sent' }).click();
    await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#narrow\/sender\//);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBeGreaterThan(3);
    await dwell();
    expect(await sidebarCount(page, 'Inbox')).toBe('23');
    expect(await serverUnread()).toBe(NEWS + PLANS);
  });

  it('"Mark all as read" asks first; Cancel keeps everything unread', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/news`);
    // Opening the topic reads what it shows: a conversation view does mark read.
    await expect.poll(async () => Number(await sidebarCount(page, 'Inbox')), WAIT).toBeLessThan(23);
    await page.goto(`${t.url}/#feed`);
    await expect.poll(viewTitle, WAIT).toBe('Combined feed');
    // The feed reads what it shows (a conversation view, as Zulip's web app
    // has it), and the topic's reads may still be on their way: let both land.
    await dwell();
    await expect
      .poll(async () => (await sidebarCount(page, 'Inbox')) === String(await serverUnread()), WAIT)
      .toBe(true);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark all messages as read?' });
    await expect.poll(() => dialog.isVisible(), WAIT).toBe(true);
    expect(await dialog.textContent()).toMatch(/\d+ unread messages will be marked as read/);
    await chatShot(page, 'reading-mark-all-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
    // Cancel marked nothing: what the feed has not shown stays unread.
    expect(Number(await sidebarCount(page, 'Inbox'))).toBeGreaterThan(0);
    expect(await serverUnread()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await dialog.getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(() => sidebarCount(page, 'Inbox'), WAIT).toBe('');
    expect(await serverUnread()).toBe(0);
  });

  it('says where a message sent while scrolled up went, and goes there', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/plans`);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBeGreaterThan(3);
    // Scrolled up before the list has placed its opening view, the reader
    // would be put back at the bottom (a person cannot scroll that soon).
    await expect.poll(() => scrollerSettled(), WAIT).toBe(true);
    await page.locator('.feed-scroller').evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => bottomGap(), WAIT).toBeGreaterThan(200);
    await expect.poll(() => scrollerSettled(), WAIT).toBe(true);
    expect(await bottomGap()).toBeGreaterThan(200);
    await sendFromCompose(page, 'Sent from up here', { shown: false });
    const notice = page.getByRole('status').filter({ hasText: 'Sent!' });
    await expect.poll(() => notice.isVisible(), WAIT).toBe(true);
    await chatShot(page, 'reading-sent-notice');
    await notice.getByRole('button', { name: 'Scroll down to view your message' }).click();
    await expect.poll(() => messageRow(page, 'Sent from up here').isVisible(), WAIT).toBe(true);
    await expect.poll(() => bottomGap(), WAIT).toBeLessThanOrEqual(1);
    await expect.poll(() => notice.count(), WAIT).toBe(0);
  });

  it('keeps a reader at the bottom there through ten sends in a row', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/plans`);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBeGreaterThan(3);
    await page.locator('.feed-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => bottomGap(), WAIT).toBeLessThanOrEqual(1);
    const box = await openCompose(page);
    const field = box.getByLabel('Message', { exact: true });
    const gaps: number[] = [];
    for (let i = 1; i <= 10; i++) {
      await field.fill(`Quick ${i}\n\nwith a second paragraph`);
      await field.press('Control+Enter');
      await expect.poll(() => messageRow(page, `Quick ${i}`).count(), WAIT).toBe(1);
      gaps.push(await bottomGap());
    }
    // Each new message inside the window once it has settled, the last one at the bottom.
    await expect.poll(() => bottomGap(), WAIT).toBeLessThanOrEqual(1);
    expect(gaps.filter((gap) => gap > 60)).toEqual([]);
    expect(await page.getByRole('status').filter({ hasText: 'Sent!' }).count()).toBe(0);
  });

  it('never stacks the sticky header on another header', async () => {
    await sendToChannel(t, 'admin', general, 'news', 'One more for news');
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    await expect.poll(() => page.locator('.recipient-header').count(), WAIT).toBeGreaterThan(1);
    const overlaps = await page.evaluate(async () => {
      const scroller = document.querySelector<HTMLElement>('.feed-scroller')!;
      const wait = () => new Promise((resolve) => setTimeout(resolve, 120));
      const found: number[] = [];
      for (let y = 0; y < scroller.scrollHeight; y += 17) {
        scroller.scrollTop = y;
        await wait();
        const sticky = document.querySelector('.sticky-recipient .recipient-header');
        if (!sticky) continue;
        const s = sticky.getBoundingClientRect();
        for (const header of Array.from(scroller.querySelectorAll('.recipient-header'))) {
          const h = header.getBoundingClientRect();
          if (h.bottom > s.top + 1 && h.top < s.bottom - 1) found.push(y);
        }
      }
      return found;
    });
    expect(overlaps).toEqual([]);
  });

  it('says "No search results." for an empty combined search, not that a conversation is empty', async () => {
    await search('dm:admin@example.com is:unread');
    await expect
      .poll(() => page.locator('.feed-status').textContent(), WAIT)
      .toBe('No search results.');
    await page.goto(`${t.url}/#narrow/dm/${t.accounts.admin.id}-Ada-Admin`);
    await expect
      .poll(() => page.locator('.feed-status').textContent(), WAIT)
      .toBe('You have no direct messages with Ada Admin yet.');
  });

  it('offers Retry for a send that failed, and Retry sends it', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/plans`);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBeGreaterThan(3);
    let refused = 0;
    await page.route('**/api/v1/messages', (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      refused++;
      return route.abort('connectionrefused');
    });
    await sendFromCompose(page, 'Through a bad line', { shown: false });
    const row = messageRow(page, 'Through a bad line');
    await expect.poll(() => row.locator('.failed-send').textContent(), WAIT).toMatch(/Not sent/);
    // Kept in the feed to retry, not put back in the compose box to send twice.
    const compose = page.getByRole('region', { name: 'Compose' });
    expect(await compose.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    expect(await compose.getByRole('alert').textContent()).toMatch(/retry it from there/);
    const marker = await row.locator('.failed-marker').boundingBox();
    // On one line, inside the message (not squeezed into the time's margin).
    expect(marker!.height).toBeLessThan(30);
    await chatShot(page, 'reading-failed-send');
    await page.unroute('**/api/v1/messages');
    expect(refused).toBe(1);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => row.locator('.failed-send').count(), WAIT).toBe(0);
    await expect
      .poll(async () => {
        const res = await t.as('member').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
        });
        return res.body.messages[0].content;
      }, WAIT)
      .toBe('<p>Through a bad line</p>');
  });

  it('keeps two uploads made at once apart', async () => {
    const box = await openCompose(page);
    const field = box.getByLabel('Message', { exact: true });
    await field.fill('');
    await box.locator('input[type="file"]').setInputFiles([
      { name: 'pasted.txt', mimeType: 'text/plain', buffer: Buffer.from('one') },
      { name: 'dropped.txt', mimeType: 'text/plain', buffer: Buffer.from('two') },
    ]);
    await expect.poll(() => field.inputValue(), WAIT).not.toContain('Uploading');
    const text = await field.inputValue();
    expect(text).toMatch(
      /^\[pasted\.txt\]\(\/user_uploads\/[^)]+\)\n\[dropped\.txt\]\(\/user_uploads\/[^)]+\)\n?$/,
    );
  });

  it('had no script errors or failed requests', () => {
    expect(errors.filter((e) => !e.includes('/api/v1/messages'))).toEqual([]);
  });
});
