/**
 * The chat view in headless Chromium against the real server: log in,
 * the sidebar's counts, a channel's and a topic's feed, search, Zulip's
 * keyboard shortcuts, phone width and dark mode. What the page shows is
 * checked against what the REST API says.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, scrollsSideways, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;
let random: number;
let quiet: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  random = createChannel(t, { name: 'random', subscribers: [owner.id, member.id] });
  quiet = createChannel(t, { name: 'quiet', subscribers: [owner.id, member.id] });
  // Muted: its messages count nowhere and it is dimmed.
  await t.as('member').post('/users/me/subscriptions/properties', {
    subscription_data: JSON.stringify([{ stream_id: quiet, property: 'is_muted', value: true }]),
  });
  await sendToChannel(t, 'owner', general, 'lunch', 'Who is in for **lunch**?');
  await sendToChannel(t, 'owner', general, 'lunch', 'Tacos at noon.');
  await sendToChannel(t, 'admin', general, 'lunch', `I am in, @**Mel Member**!`);
  await sendToChannel(
    t,
    'owner',
    general,
    'markup',
    [
      '```python',
      'def greet(name):',
      '    return f"hello {name}"',
      '```',
      '',
      '> a quote',
      '',
      '```spoiler Plot twist',
      'It was the butler.',
      '```',
      '',
      ':smile: and $$e^{i\\pi} + 1 = 0$$',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      'See #**general>lunch**.',
    ].join('\n'),
  );
  await sendToChannel(t, 'owner', random, 'weekend', 'Any plans?');
  await sendToChannel(t, 'owner', quiet, 'noise', 'muted chatter');
  await sendDirect(t, 'admin', [member.id], 'A private word.');
  await t.as('owner').patch('/realm', { description: 'Where the **tests** talk.' });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const sidebar = () => page.getByRole('navigation', { name: 'Views and channels' });
const sidebarLink = (label: string) =>
  sidebar()
    .locator('.sidebar-link')
    .filter({ has: page.getByText(label, { exact: true }) })
    .first();
/** The count beside a sidebar entry ('' when none). */
const sidebarCount = async (label: string) => {
  const count = sidebarLink(label).locator('.unread-count');
  if ((await count.count()) === 0) return '';
  return count.evaluate((el) => el.firstChild?.textContent ?? '');
};
const viewTitle = () => page.locator('#view-title').textContent();

describe('the chat page', { timeout: 60_000 }, () => {
  it('introduces the organization on the log-in page: icon, name, description', async () => {
    await page.goto(`${t.url}/`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Log in to Test Org');
    const description = page.locator('.login-description');
    expect(await description.innerHTML()).toBe('<p>Where the <strong>tests</strong> talk.</p>');
    await expect
      .poll(
        () => page.locator('.login-icon').evaluate((img: HTMLImageElement) => img.naturalWidth),
        WAIT,
      )
      .toBeGreaterThan(0);
    await shot(page, 'login');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'login-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('refuses a wrong password with the server’s message, then logs in', async () => {
    await page.goto(`${t.url}/`);
    await page.getByLabel('E-mail').fill('member@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toMatch(/\S/);
    await shot(page, 'login-error');
    await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => sidebar().isVisible(), WAIT).toBe(true);
  });

  it('shows unread counts in the sidebar and the title', async () => {
    // 4 in general, 1 in random, 1 DM; the muted channel counts nowhere.
    await expect.poll(() => sidebarCount('general'), WAIT).toBe('4');
    expect(await sidebarCount('random')).toBe('1');
    expect(await sidebarCount('quiet')).toBe('');
    expect(await sidebarCount('Inbox')).toBe('6');
    expect(await sidebarCount('Mentions')).toBe('1');
    expect(await sidebarCount('Ada Admin')).toBe('1');
    expect(await page.title()).toBe('(6) Inbox - Hearth');
    // Muted channels are dimmed, pinned-then-alphabetical order.
    const names = await sidebar().locator('.channel-item .sidebar-label').allTextContents();
    expect(names).toEqual(['general', 'quiet', 'random']);
    expect(await sidebar().locator('.channel-item.muted .sidebar-label').textContent()).toBe(
      'quiet',
    );
    await shot(page, 'inbox');
  });

  it('lists unread conversations in the Inbox', async () => {
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: 'Ada Admin' }).count()).toBe(1);
    expect(await main.getByRole('link', { name: 'lunch' }).count()).toBe(1);
    expect(await main.getByRole('link', { name: 'markup' }).count()).toBe(1);
    expect(await main.getByRole('link', { name: 'noise' }).count()).toBe(0);
  });

  it('opens a channel: grouped by topic, one name per run of a sender', async () => {
    await sidebarLink('general').click();
    await expect.poll(viewTitle, WAIT).toBe('#general');
    expect(new URL(page.url()).hash).toMatch(/^#narrow\/channel\/\d+-general$/);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBe(4);
    const headers = await page.locator('.recipient-title').allTextContents();
    expect(headers.map((h) => h.replace(/\s+/g, ' ').replace(' topic ', ' '))).toEqual([
      '#general > lunch',
      '#general > markup',
    ]);
    // Olivia's two lunch messages share one name; Ada's starts a new run.
    const senders = await page.locator('.sender-name').allTextContents();
    expect(senders).toEqual(['Olivia Owner', 'Ada Admin', 'Olivia Owner']);
    // The topics of the open channel are listed, with their counts.
    await expect
      .poll(() => sidebar().locator('.topic-list .sidebar-label').allTextContents(), WAIT)
      .toEqual(expect.arrayContaining(['lunch', 'markup']));
    await shot(page, 'channel');
  });

  it('renders Zulip’s markup: code, mention of me, spoiler, emoji, math, table', async () => {
    const markup = page.locator('.message').filter({ hasText: 'def greet' });
    expect(await markup.locator('.codehilite .k').first().textContent()).toBe('def');
    expect(await markup.locator('blockquote').textContent()).toContain('a quote');
    expect(await markup.locator('.katex').count()).toBeGreaterThan(0);
    expect(await markup.locator('table td').allTextContents()).toEqual(['1', '2']);
    // Zulip's emoji markup kept: the name as text, drawn from the sprite sheet by its class.
    const smile = markup.locator('span.emoji.emoji-1f642');
    expect(await smile.textContent()).toBe(':smile:');
    await expect
      .poll(() => smile.evaluate((el) => getComputedStyle(el).backgroundImage), WAIT)
      .toContain('sheet-google-32.png');
    const spoiler = markup.locator('.spoiler-header');
    expect(await markup.locator('.spoiler-content').isVisible()).toBe(false);
    await spoiler.click();
    expect(await markup.locator('.spoiler-content').isVisible()).toBe(true);
    expect(await spoiler.getAttribute('aria-expanded')).toBe('true');
    const mention = page.locator('.message.mentioned .user-mention');
    expect(await mention.getAttribute('class')).toContain('self-mention');
  });

  it('follows channel and topic links inside the app', async () => {
    const link = page.locator('.message a.stream-topic', { hasText: 'general > lunch' });
    expect(await link.getAttribute('target')).toBeNull();
    await link.click();
    await expect.poll(viewTitle, WAIT).toBe('#general > lunch');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goBack();
    await expect.poll(viewTitle, WAIT).toBe('#general');
  });

  it('marks what was seen as read; the counts drop', async () => {
    await page.bringToFront();
    await expect.poll(() => sidebarCount('general'), WAIT).toBe('');
    const unread = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channel', operand: general }]),
    });
    expect(
      unread.body.messages.filter((m: { flags: string[] }) => !m.flags.includes('read')),
    ).toEqual([]);
    expect(await page.title()).toBe('(2) #general - Hearth');
  });

  it('opens a topic and goes back with the browser', async () => {
    await page.locator('.recipient-title a', { hasText: 'markup' }).click();
    await expect.poll(viewTitle, WAIT).toBe('#general > markup');
    await expect.poll(() => page.locator('.message').count(), WAIT).toBe(1);
    await page.goBack();
    await expect.poll(viewTitle, WAIT).toBe('#general');
    await page.goForward();
    await expect.poll(viewTitle, WAIT).toBe('#general > markup');
  });

  it('searches with Zulip’s syntax and shows the narrow as text', async () => {
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    expect(await page.locator('#search-input').inputValue()).toBe('channel:general topic:markup');
    await page.locator('#search-input').fill('tacos');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.message').first().textContent(), WAIT)
      .toContain('Tacos at noon.');
    expect(await page.locator('.message').count()).toBe(1);
    expect(new URL(page.url()).hash).toBe('#narrow/search/tacos');
  });

  it('follows Zulip’s keyboard shortcuts', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    await expect.poll(viewTitle, WAIT).toBe('#general');
    await page.locator('.message').first().waitFor();
    // Unread elsewhere, for n and p to go to (the open channel reads its own at once).
    await sendToChannel(t, 'owner', random, 'weekend', 'Hiking?');
    await sendToChannel(t, 'owner', quiet, 'noise', 'more muted chatter');
    await sendDirect(t, 'admin', [t.accounts.member.id], 'Another word.');
    await expect.poll(() => sidebarCount('random'), WAIT).toBe('2');
    // j/k and the arrows move the selection.
    const selected = () => page.locator('.message.selected').getAttribute('data-message-id');
    await page.locator('main').focus();
    const first = await selected();
    await page.keyboard.press('k');
    const before = await selected();
    await page.keyboard.press('j');
    expect(await selected()).toBe(first);
    expect(Number(before)).toBeLessThan(Number(first));
    // n: the next unread topic (random > weekend; the muted channel's are skipped).
    await page.keyboard.press('n');
    await expect.poll(viewTitle, WAIT).toBe('#random > weekend');
    // p: the next unread DM.
    await page.keyboard.press('p');
    await expect.poll(viewTitle, WAIT).toMatch(/Ada Admin/);
    // ?: the help dialog; Esc closes it.
    await page.keyboard.press('?');
    await expect
      .poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible(), WAIT)
      .toBe(true);
    await shot(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0);
    // r: reply to the selected message (Ada's DM), typing straight away.
    await page.keyboard.press('r');
    const compose = page.getByRole('region', { name: 'Compose' });
    await expect
      .poll(() => compose.getByRole('button', { name: 'Remove Ada Admin' }).count(), WAIT)
      .toBe(1);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe('Message');
    // Letters typed in a field are text, not shortcuts.
    await page.keyboard.type('n?');
    expect(await compose.getByLabel('Message', { exact: true }).inputValue()).toBe('n?');
    expect(await viewTitle()).toMatch(/Ada Admin/);
    await page.keyboard.press('Escape');
    // c: a new message in the narrow's conversation.
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch`);
    await expect.poll(viewTitle, WAIT).toBe('#general > lunch');
    await page.locator('main').focus();
    await page.keyboard.press('c');
    await expect.poll(() => compose.getByLabel('Topic').inputValue(), WAIT).toBe('lunch');
    await page.keyboard.press('Escape');
  });

  it('fits a 360 px phone: one column, the sidebar behind a menu button', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    await page.locator('.message').first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await sidebar().isVisible()).toBe(false);
    await shot(page, 'phone-feed');
    const menu = page.getByRole('button', { name: 'Channels and views' });
    await menu.click();
    // Open once it has slid in all the way.
    await expect.poll(async () => (await sidebar().boundingBox())?.x, WAIT).toBe(0);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await shot(page, 'phone-sidebar');
    await sidebarLink('Recent conversations').click();
    await expect.poll(viewTitle, WAIT).toBe('Recent conversations');
    await expect.poll(() => sidebar().isVisible(), WAIT).toBe(false);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'phone-recent');
    // The user list is a panel behind its own button; Esc closes it.
    const usersButton = page.getByRole('button', { name: 'Users' });
    const users = page.getByRole('complementary', { name: 'Users' });
    expect(await users.isVisible()).toBe(false);
    await usersButton.click();
    await expect.poll(() => users.isVisible(), WAIT).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'phone-users');
    await page.keyboard.press('Escape');
    await expect.poll(() => users.isVisible(), WAIT).toBe(false);
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('follows the system’s dark mode', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    await page.locator('.message').first().waitFor();
    const background = await page
      .locator('.chat-main')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(31, 34, 39)');
    await shot(page, 'dark-channel');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('keeps a long channel virtualised, loading older and newer as one scrolls', async () => {
    const archive = createChannel(t, {
      name: 'archive',
      subscribers: [t.accounts.owner.id, t.accounts.member.id],
    });
    const ids: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const sent = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          sendToChannel(t, 'owner', archive, `t${batch % 3}`, `number ${batch * 30 + i + 1}`),
        ),
      );
      ids.push(...sent);
    }
    ids.sort((a, b) => a - b);
    // In the middle: the first screen shows that message, neither end.
    // Made behind the server's back (no events): a reload picks the channel up.
    await page.goto(`${t.url}/#narrow/channel/${archive}-archive/near/${ids[150]}`);
    await page.reload();
    await expect.poll(() => page.locator(`[data-message-id="${ids[150]}"]`).count(), WAIT).toBe(1);
    const rendered = await page.locator('.message').count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(80);
    // Unread beyond what was seen: "Mark all as read" reads the whole channel.
    expect(await sidebarCount('archive')).not.toBe('');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page
      .getByRole('dialog', { name: 'Mark #archive as read?' })
      .getByRole('button', { name: 'Mark as read' })
      .click();
    await expect.poll(() => sidebarCount('archive'), WAIT).toBe('');
    expect(await page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    // Inside a conversation, its header stays on top.
    const scroller = page.locator('.feed-scroller');
    await scroller.evaluate((el) => el.scrollBy({ top: 400 }));
    await expect
      .poll(() => page.locator('.sticky-recipient .recipient-title').textContent(), WAIT)
      .toMatch(/^#archive\s*>\s*(topic )?t\d$/);
    await shot(page, 'sticky-header');
    // Scrolling up loads older messages until the first one.
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
          return page.locator(`[data-message-id="${ids[0]}"]`).count();
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBe(1);
    expect(await page.locator('.message').count()).toBeLessThan(80);
    // And down, loading newer ones until the last.
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          return page.locator(`[data-message-id="${ids[299]}"]`).count();
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBe(1);
    expect(await page.locator('.message').count()).toBeLessThan(80);
    const unread = await t.as('member').get('/messages', {
      anchor: 'newest',
      num_before: 300,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channel', operand: archive }]),
    });
    expect(unread.body.messages.every((m: { flags: string[] }) => m.flags.includes('read'))).toBe(
      true,
    );
  });

  it('says so when a narrow is empty', async () => {
    await sidebarLink('Starred').click();
    await expect.poll(viewTitle, WAIT).toMatch(/Starred/);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'starred' }).textContent(), WAIT)
      .toBe('You have no starred messages.');
  });

  it('counts starred messages beside Starred, as the user’s setting says', async () => {
    const [tacos] = (
      await t.as('member').get('/messages', {
        anchor: 'newest',
        num_before: 20,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'search', operand: 'tacos' }]),
      })
    ).body.messages as { id: number }[];
    const star = (op: 'add' | 'remove') =>
      t.as('member').post('/messages/flags', {
        messages: JSON.stringify([tacos!.id]),
        op,
        flag: 'starred',
      });
    const shown = () => page.locator(`[data-message-id="${tacos!.id}"]`).count();
    await star('add');
    await expect.poll(() => sidebarCount('Starred'), WAIT).toBe('1');
    // The Starred view, open since the last test, takes it in.
    await expect.poll(shown, WAIT).toBe(1);
    await shot(page, 'starred-count');
    await t.as('member').patch('/settings', { starred_message_counts: false });
    await expect.poll(() => sidebarCount('Starred'), WAIT).toBe('');
    await t.as('member').patch('/settings', { starred_message_counts: true });
    await expect.poll(() => sidebarCount('Starred'), WAIT).toBe('1');
    await star('remove');
    await expect.poll(() => sidebarCount('Starred'), WAIT).toBe('');
    await expect.poll(shown, WAIT).toBe(0);
  });

  it('opens a with/ link at its message, following it to the topic it was moved to', async () => {
    const planned = await sendToChannel(t, 'owner', general, 'plans', 'Offsite in May.');
    await t.as('owner').patch(`/messages/${planned}`, {
      topic: 'offsite plans',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/plans/with/${planned}`);
    const followed = `#narrow/channel/${general}-general/topic/offsite.20plans/with/${planned}`;
    await expect.poll(() => page.evaluate(() => location.hash), WAIT).toBe(followed);
    await expect.poll(viewTitle, WAIT).toBe('#general > offsite plans');
    await expect.poll(() => page.locator(`[data-message-id="${planned}"]`).count(), WAIT).toBe(1);
  });

  it('drops from Recent conversations what was deleted while the queue was lost', async () => {
    const doomed = await sendToChannel(t, 'owner', random, 'doomed', 'Soon gone.');
    await page.goto(`${t.url}/#recent`);
    const recent = page.getByRole('main');
    await expect.poll(() => recent.getByRole('link', { name: 'doomed' }).count(), WAIT).toBe(1);
    // Offline: the poll in flight takes one last event, the next ones are refused.
    await page.route('**/api/v1/events?*', (route) => route.abort('connectionrefused'));
    await sendToChannel(t, 'owner', random, 'weekend', 'Last word before the outage.');
    await expect.poll(() => page.locator('.connection-banner').isVisible(), WAIT).toBe(true);
    // The deletion reaches the old queue, which the tab never reads again.
    await t.as('owner').delete(`/messages/${doomed}`);
    // The server forgot the queue meanwhile (garbage-collected): the tab registers anew.
    const registered = page.waitForRequest((r) => r.url().endsWith('/api/v1/register'), {
      timeout: 40_000,
    });
    await page.unroute('**/api/v1/events?*');
    await page.route('**/api/v1/events?*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          result: 'error',
          code: 'BAD_EVENT_QUEUE_ID',
          msg: 'Bad event queue ID',
        }),
      }),
    );
    await registered;
    await page.unroute('**/api/v1/events?*');
    await expect.poll(() => recent.getByRole('link', { name: 'doomed' }).count(), WAIT).toBe(0);
    expect(await recent.getByRole('link', { name: 'weekend' }).count()).toBe(1);
  });

  it('shows the lost connection and recovers', async () => {
    await page.goto(`${t.url}/#inbox`);
    await sidebar().waitFor();
    // The long-poll fails as when the server goes away.
    await page.route('**/api/v1/events?*', (route) => route.abort('connectionrefused'));
    await page.route('**/api/v1/register', (route) => route.abort('connectionrefused'));
    // An event answers the long-poll in flight; the next one is refused.
    await sendToChannel(t, 'owner', random, 'weekend', 'Still there?');
    const banner = page.locator('.connection-banner');
    await expect.poll(() => banner.isVisible(), WAIT).toBe(true);
    expect(await banner.textContent()).toMatch(/Reconnecting/);
    await shot(page, 'reconnecting');
    await page.unroute('**/api/v1/events?*');
    await page.unroute('**/api/v1/register');
    // The retry does not wait for an event or a heartbeat: it asks not to block.
    await page.waitForRequest(
      (r) => r.url().includes('/api/v1/events?') && r.url().includes('dont_block=true'),
      {
        timeout: 40_000,
      },
    );
    await expect.poll(() => banner.isVisible(), WAIT).toBe(false);
  });

  it('asks for notifications only from a click, then notifies DMs while away', async () => {
    // The browser's own prompt stands in for a person who has not been asked
    // yet and accepts when asked (headless Chromium denies every prompt).
    await page.addInitScript(() => {
      let permission: NotificationPermission = 'default';
      let asks = 0;
      Object.defineProperty(Notification, 'permission', { get: () => permission });
      Notification.requestPermission = async () => {
        asks++;
        permission = 'granted';
        return permission;
      };
      Object.assign(window, { permissionAsks: () => asks });
    });
    const asks = () =>
      page.evaluate(() => (window as unknown as { permissionAsks(): number }).permissionAsks());
    // A new page load, where the script runs first.
    await page.goto('about:blank');
    await page.goto(`${t.url}/#inbox`);
    await sidebar().waitFor();
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(await asks()).toBe(0);
    await page.getByRole('button', { name: 'Mel Member', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Enable desktop notifications' }).click();
    expect(await asks()).toBe(1);
    await page.getByRole('button', { name: 'Mel Member', exact: true }).click();
    expect(await page.getByRole('menuitem', { name: 'Enable desktop notifications' }).count()).toBe(
      0,
    );
    await page.keyboard.press('Escape');
    // Record notifications instead of showing them, and look away from the window.
    await page.evaluate(() => {
      const shown: { title: string; body: string; click: () => void }[] = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      class Recorder {
        static permission = 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string, options: { body: string }) {
          shown.push({ title, body: options.body, click: () => this.onclick?.() });
        }
        close() {}
      }
      Object.assign(window, { Notification: Recorder });
      document.hasFocus = () => false;
    });
    await sendToChannel(t, 'owner', random, 'weekend', 'Just chatter, no mention.');
    await sendDirect(t, 'admin', [t.accounts.member.id], 'Are you there?');
    const shown = () =>
      page.evaluate(() =>
        (window as unknown as { shown: { title: string; body: string }[] }).shown.map(
          ({ title, body }) => ({ title, body }),
        ),
      );
    await expect.poll(shown, WAIT).toEqual([{ title: 'Ada Admin', body: 'Are you there?' }]);
    // Clicking it opens the conversation.
    await page.evaluate(() =>
      (window as unknown as { shown: { click(): void }[] }).shown[0]!.click(),
    );
    await expect.poll(viewTitle, WAIT).toMatch(/Ada Admin/);
  });

  it('logs out from the user menu', async () => {
    await page.getByRole('button', { name: 'Mel Member', exact: true }).click();
    expect(await page.getByRole('menuitem', { name: 'Administration' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect.poll(() => page.getByLabel('E-mail').isVisible(), WAIT).toBe(true);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('had no script errors or failed requests', () => {
    // The wrong password's refusal is the one this test provokes.
    // And the requests the lost-connection tests broke on purpose (a refused
    // poll, a queue the server "forgot").
    expect(
      errors.filter(
        (e) =>
          !/^40[13] .*\/chat\/session$/.test(e) &&
          !/net::ERR_CONNECTION_REFUSED/.test(e) &&
          !/^400 .*\/api\/v1\/events\?/.test(e),
      ),
    ).toEqual([]);
  });
});
