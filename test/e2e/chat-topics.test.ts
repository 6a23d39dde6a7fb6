/**
 * How topics look in the chat's lists, in headless Chromium against the real
 * server: a muted topic dimmed with a grey count and a followed one marked
 * (sidebar, Inbox, the feed's header), and Recent conversations with every
 * topic name shown and its columns lined up however long the participant
 * lists are. At a desktop width in light mode and on a 360 px phone in dark
 * mode.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { chatShot, logIn, openChatPage } from './chat-page.js';

let t: TestServer;
let browser: Browser;
const errors: string[][] = [];
let general: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin, moderator, guest } = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [owner.id, member.id, admin.id, moderator.id],
  });
  for (const topic of ['lunch', 'plans', 'news']) {
    await sendToChannel(t, 'owner', general, topic, `About ${topic}`);
    await sendToChannel(t, 'admin', general, topic, `More on ${topic}`);
  }
  // Many participants: their names must not push the topic out of its column.
  for (const who of ['owner', 'admin', 'moderator', 'member'] as const) {
    await sendToChannel(t, who, general, 'a crowded one', `${who} was here`);
  }
  await sendDirect(t, 'owner', [member.id, admin.id, moderator.id, guest.id], 'Group hello');
  const policy = (topic: string, visibility_policy: number) =>
    t.as('member').post('/user_topics', { stream_id: general, topic, visibility_policy });
  await policy('lunch', 1);
  await policy('plans', 3);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const topicItem = (page: Page, name: string) =>
  page.locator('.topic-item').filter({ has: page.getByText(name, { exact: true }) });

/** Whether a count is drawn as a filled badge (its background is not transparent). */
const filledBadge = (page: Page, name: string) =>
  topicItem(page, name)
    .locator('.unread-count')
    .evaluate((el) => getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)');

describe('topics in the lists', { timeout: 90_000 }, () => {
  let page: Page;

  it('dims a muted topic with a grey count and marks a followed one, in the sidebar', async () => {
    const watched = await openChatPage(browser);
    page = watched.page;
    errors.push(watched.errors);
    // From the Inbox, so that nothing is read yet.
    await logIn(page, t.url, 'member@example.com', '#inbox');
    await page.getByRole('button', { name: 'Show topics of general' }).click();
    await expect.poll(() => topicItem(page, 'lunch').count(), WAIT).toBe(1);
    expect(await topicItem(page, 'lunch').getAttribute('class')).toContain('topic-muted');
    expect(await filledBadge(page, 'lunch')).toBe(false);
    expect(await filledBadge(page, 'news')).toBe(true);
    expect(await topicItem(page, 'lunch').getByTitle('Muted topic').count()).toBe(1);
    expect(await topicItem(page, 'plans').getByTitle('Followed topic').count()).toBe(1);
    expect(await topicItem(page, 'news').locator('.topic-policy-mark').count()).toBe(0);
    // So does the Inbox.
    const inboxRow = page
      .getByRole('main')
      .locator('.conversation-row')
      .filter({ hasText: 'plans' });
    expect(await inboxRow.getByTitle('Followed topic').count()).toBe(1);
    await chatShot(page, 'topics-sidebar');
    // And the feed's header for the followed topic.
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/plans`);
    const header = page.locator('.recipient-header').filter({ hasText: 'plans' }).first();
    await expect.poll(() => header.getByTitle('Followed topic').count(), WAIT).toBe(1);
  });

  it('lines up Recent conversations and keeps every topic name in view', async () => {
    await page.goto(`${t.url}/#recent`);
    const rows = page.locator('.recent-list .conversation-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(3);
    const layout = await rows.evaluateAll((items) =>
      items.map((row) => {
        const box = (selector: string) => row.querySelector(selector)!.getBoundingClientRect();
        return {
          text: row.querySelector('.recent-what')!.textContent,
          what: Math.round(box('.recent-what').left),
          whatWidth: Math.round(box('.recent-what a').width),
          who: Math.round(box('.recent-who').left),
          when: Math.round(box('.recent-when').left),
        };
      }),
    );
    // Muted topics stay out, as in Zulip's default view.
    expect(layout.map((r) => r.text)).not.toContain('lunch');
    expect(layout.map((r) => r.text)).toContain('a crowded one');
    for (const column of ['what', 'who', 'when'] as const) {
      expect(new Set(layout.map((r) => r[column])).size, column).toBe(1);
    }
    for (const row of layout) expect(row.whatWidth, row.text ?? '').toBeGreaterThan(30);
    await chatShot(page, 'topics-recent');
  });

  it('on a phone in dark mode, too', async () => {
    const watched = await openChatPage(browser, { phone: true, dark: true });
    errors.push(watched.errors);
    const phone = watched.page;
    await logIn(phone, t.url, 'member@example.com', '#recent');
    const rows = phone.locator('.recent-list .conversation-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(3);
    const widths = await rows
      .locator('.recent-what a')
      .evaluateAll((links) => links.map((a) => a.getBoundingClientRect().width));
    expect(widths.every((w) => w > 30)).toBe(true);
    expect(await scrollsSideways(phone)).toBe(false);
    await chatShot(phone, 'topics-recent-phone-dark');
    await phone.getByRole('button', { name: 'Channels and views' }).click();
    await phone.goto(`${t.url}/#narrow/channel/${general}-general`);
    await phone.getByRole('button', { name: 'Channels and views' }).click();
    await expect.poll(() => topicItem(phone, 'lunch').isVisible(), WAIT).toBe(true);
    await chatShot(phone, 'topics-sidebar-phone-dark');
  });

  it('had no script errors or failed requests', () => {
    expect(errors.flat()).toEqual([]);
  });
});
