/**
 * Finding and reading in the chat, in headless Chromium against the real
 * server: the search box's suggestions as you type (operators, channels,
 * topics of the chosen channel, people) with the keyboard and the mouse,
 * search results with their matches highlighted, code blocks' copy button
 * and playground links, the edit history's diff, and avatars in the user
 * list and the direct-message rows. Screenshots at 1280 px, 360 px and dark.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { logIn, messageRow, openChatPage, chatShot as pageShot } from './chat-page.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;
let drafted: number;

/** This file's screenshots, named apart from other chat tests' in the shared folder. */
const chatShot = (p: Page, name: string) => pageShot(p, `find-${name}`);

const PLAYGROUND = 'https://tutor.example/visualize#code={code}';
const CODE = 'print("hi & bye")\n';

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  createChannel(t, { name: 'design team', subscribers: [owner.id, member.id] });
  await sendToChannel(t, 'owner', general, 'lunch', 'Who is in for lunch?');
  await sendToChannel(t, 'owner', general, 'lunch', 'Tacos at noon.');
  await sendToChannel(t, 'admin', general, 'deploys', 'Deploy on Friday');
  await sendToChannel(t, 'owner', general, 'code', `\`\`\`python\n${CODE}\`\`\``);
  await sendDirect(t, 'admin', [member.id], 'A private word.');
  drafted = await sendToChannel(t, 'member', general, 'drafting', 'First draft of the plan');
  const edit = await t
    .as('member')
    .patch(`/messages/${drafted}`, { content: 'Second draft of the whole plan' });
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  const playground = await t.as('owner').post('/realm/playgrounds', {
    name: 'Python tutor',
    pygments_language: 'Python',
    url_template: PLAYGROUND,
  });
  expect(playground.status, JSON.stringify(playground.body)).toBe(200);
  browser = await launchBrowser();
  ({ page, errors } = await openChatPage(browser));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page, t.url, 'member@example.com');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const searchInput = (p: Page = page) => p.getByRole('combobox', { name: 'Search', exact: true });
const suggestions = (p: Page = page) => p.getByRole('listbox', { name: 'Search suggestions' });
const options = (p: Page = page) => suggestions(p).getByRole('option');
const optionTexts = (p: Page = page) =>
  options(p).locator('.search-suggestion-text').allTextContents();
const activeText = (p: Page = page) =>
  suggestions(p).locator('[aria-selected="true"] .search-suggestion-text').textContent();
const hash = (p: Page = page) => p.evaluate(() => location.hash);

describe('search and reading in the chat', { timeout: 60_000 }, () => {
  it('suggests operators and channels, completing with Tab and going with Enter', async () => {
    await page.keyboard.press('/');
    await searchInput().pressSequentially('chan');
    await expect.poll(() => optionTexts(), WAIT).toEqual(['chan', 'channel:', 'channels:']);
    // The text as typed is highlighted first: Enter alone would search it.
    expect(await activeText()).toBe('chan');
    expect(await searchInput().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await activeText()).toBe('channel:');
    await page.keyboard.press('Tab');
    expect(await searchInput().inputValue()).toBe('channel:');
    // Focus stays in the box, which now offers the channels.
    await searchInput().pressSequentially('gen');
    await expect.poll(() => optionTexts(), WAIT).toEqual(['channel:gen', 'channel:general']);
    await chatShot(page, 'search-suggestions');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(), WAIT).toBe(`#narrow/channel/${general}-general`);
    await expect.poll(() => messageRow(page, 'Deploy on Friday').count(), WAIT).toBe(1);
    expect(await suggestions().count()).toBe(0);
  });

  it('offers the topics of the chosen channel, newest first', async () => {
    await page.keyboard.press('/');
    await expect.poll(() => searchInput().inputValue(), WAIT).toBe('channel:general');
    await page.keyboard.press('End');
    await searchInput().pressSequentially(' topic:');
    await expect
      .poll(() => optionTexts(), WAIT)
      .toEqual([
        'channel:general topic:',
        'channel:general topic:drafting',
        'channel:general topic:code',
        'channel:general topic:deploys',
        'channel:general topic:lunch',
      ]);
    await searchInput().pressSequentially('lu');
    await expect
      .poll(() => optionTexts(), WAIT)
      .toEqual(['channel:general topic:lu', 'channel:general topic:lunch']);
    // ↑ wraps from the first suggestion to the last.
    await page.keyboard.press('ArrowUp');
    expect(await activeText()).toBe('channel:general topic:lunch');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(), WAIT).toBe(`#narrow/channel/${general}-general/topic/lunch`);
    await expect.poll(() => messageRow(page, 'Tacos at noon.').count(), WAIT).toBe(1);
  });

  it('offers people by name and e-mail, with their avatars, chosen by the mouse', async () => {
    await searchInput().click();
    await searchInput().fill('');
    await searchInput().pressSequentially('sender:ada');
    const ada = options().filter({ hasText: 'Sent by Ada Admin' });
    await expect.poll(() => ada.count(), WAIT).toBe(1);
    expect(await ada.locator('.search-suggestion-text').textContent()).toBe(
      'sender:admin@example.com',
    );
    expect(await ada.locator('img.avatar').getAttribute('src')).toContain(
      `/user_avatars/${t.accounts.admin.id}`,
    );
    // By e-mail too.
    await searchInput().fill('dm:moderator@');
    await expect
      .poll(() => optionTexts(), WAIT)
      .toEqual(['dm:moderator@', 'dm:moderator@example.com']);
    await searchInput().fill('sender:ada');
    await ada.click();
    await expect.poll(() => hash(), WAIT).toBe(`#narrow/sender/${t.accounts.admin.id}`);
    await expect.poll(() => messageRow(page, 'Deploy on Friday').count(), WAIT).toBe(1);
  });

  it('closes the list with Escape, then puts back the narrow’s text', async () => {
    await page.keyboard.press('/');
    await searchInput().fill('is:');
    await expect.poll(() => options().count(), WAIT).toBeGreaterThan(3);
    await page.keyboard.press('Escape');
    expect(await suggestions().count()).toBe(0);
    expect(await searchInput().inputValue()).toBe('is:');
    await page.keyboard.press('Escape');
    expect(await searchInput().inputValue()).toBe('sender:admin@example.com');
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('search-input');
  });

  it('highlights the words a search found, in the text and the topic', async () => {
    await page.keyboard.press('/');
    await searchInput().fill('lunch');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(), WAIT).toBe('#narrow/search/lunch');
    const found = messageRow(page, 'Who is in for lunch?');
    await expect.poll(() => found.locator('.rendered-markdown .highlight').count(), WAIT).toBe(1);
    expect(await found.locator('.highlight').textContent()).toBe('lunch');
    const header = page.locator('.feed-item .recipient-header').first();
    expect(await header.locator('.highlight').textContent()).toBe('lunch');
    await chatShot(page, 'search-highlights');
    // The same message outside a search shows no highlight.
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch`);
    await messageRow(page, 'Who is in for lunch?').waitFor();
    expect(await page.locator('.rendered-markdown .highlight').count()).toBe(0);
  });

  it('gives code blocks a copy button and the playground’s link', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/code`);
    const block = page.locator('.message .codehilite').first();
    await block.waitFor();
    const link = block.getByRole('link', { name: 'View in Python tutor' });
    expect(await link.getAttribute('href')).toBe(
      `https://tutor.example/visualize#code=${encodeURIComponent(CODE).replaceAll('(', '%28').replaceAll(')', '%29')}`,
    );
    expect(await link.getAttribute('target')).toBe('_blank');
    await block.hover();
    await chatShot(page, 'code-buttons');
    await block.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => block.getByRole('status').textContent(), WAIT).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  });

  it('edits a message’s text in place, Escape leaving it as it was', async () => {
    const mine = await sendToChannel(t, 'member', general, 'inline', 'Meet at nine');
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/inline`);
    const row = page.locator(`article[data-message-id="${mine}"]`);
    await row.waitFor();
    const edit = async () => {
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit message', exact: true }).click();
    };
    await edit();
    const form = row.getByRole('form', { name: 'Edit message' });
    const text = form.getByLabel('Message', { exact: true });
    await expect.poll(() => text.inputValue(), WAIT).toBe('Meet at nine');
    // No dialog: the text is edited where it stands, focused at its end.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLTextAreaElement).value))
      .toBe('Meet at nine');
    await page.keyboard.type(' sharp');
    await page.keyboard.press('Escape');
    await expect.poll(() => form.count(), WAIT).toBe(0);
    expect(await row.locator('.rendered-markdown').textContent()).toBe('Meet at nine');
    await edit();
    await expect.poll(() => text.inputValue(), WAIT).toBe('Meet at nine');
    await text.fill('Meet at **ten**');
    await chatShot(page, 'inline-edit');
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(() => row.locator('.rendered-markdown strong').textContent(), WAIT)
      .toBe('ten');
    const saved = await t.as('member').get(`/messages/${mine}`, { apply_markdown: false });
    expect(saved.body.message.content).toBe('Meet at **ten**');
    // Only the text changed: the topic stays.
    expect(saved.body.message.subject).toBe('inline');
  });

  it('shows an edit in the history as added and deleted words', async () => {
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/drafting`);
    const row = page.locator(`article[data-message-id="${drafted}"]`);
    await row.waitFor();
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'View edit history', exact: true }).click();
    const history = page.getByRole('dialog', { name: 'Message edit history' });
    await expect.poll(() => history.locator('.edit-version').count(), WAIT).toBe(2);
    const edit = history.locator('.edit-version').nth(1);
    expect(await edit.locator('.highlight_text_inserted').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Second')]),
    );
    expect((await edit.locator('.highlight_text_deleted').allTextContents()).join(' ')).toContain(
      'First',
    );
    // The original is shown as it was, without marks.
    const original = history.locator('.edit-version').first();
    expect(await original.locator('.rendered-markdown').textContent()).toBe(
      'First draft of the plan',
    );
    await chatShot(page, 'history-diff');
    await history.getByRole('button', { name: 'Close' }).click();
  });

  it('draws avatars in the user list and the direct-message rows', async () => {
    const users = page.getByRole('complementary', { name: 'Users' });
    const adaRow = users.locator(`.user-row[data-user-id="${t.accounts.admin.id}"]`);
    const picture = adaRow.locator('.user-row-avatar img');
    await expect.poll(() => picture.count(), WAIT).toBe(1);
    expect(await picture.getAttribute('src')).toContain(`/user_avatars/${t.accounts.admin.id}`);
    // The server's generated picture loads.
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
      .toBeGreaterThan(0);
    // Presence still shows, on the picture's corner.
    expect(await adaRow.locator('.user-row-avatar .presence-dot').count()).toBe(1);
    const dm = page
      .getByRole('navigation', { name: 'Views and channels' })
      .locator('.sidebar-link')
      .filter({ hasText: 'Ada Admin' });
    expect(await dm.locator('img.avatar').getAttribute('src')).toContain(
      `/user_avatars/${t.accounts.admin.id}`,
    );
    await chatShot(page, 'avatars');
    expect(errors).toEqual([]);
  });

  it('fits a phone and dark mode', async () => {
    for (const look of [{ phone: true }, { dark: true }, { phone: true, dark: true }]) {
      const name = `${look.phone ? 'phone' : 'desktop'}${look.dark ? '-dark' : ''}`;
      const watched = await openChatPage(browser, look);
      const p = watched.page;
      await logIn(p, t.url, 'member@example.com', `#narrow/channel/${general}-general/topic/code`);
      await p.locator('.message .codehilite').first().waitFor();
      await chatShot(p, `code-buttons-${name}`);
      await searchInput(p).click();
      await searchInput(p).fill('');
      await searchInput(p).pressSequentially('sender:a');
      await expect.poll(() => options(p).count(), WAIT).toBeGreaterThan(1);
      expect(await scrollsSideways(p)).toBe(false);
      const box = await suggestions(p).boundingBox();
      const width = p.viewportSize()!.width;
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await chatShot(p, `search-suggestions-${name}`);
      await p.keyboard.press('Escape');
      await p.keyboard.press('Escape');
      await searchInput(p).fill('tacos');
      await p.keyboard.press('Enter');
      await messageRow(p, 'Tacos at noon.').locator('.highlight').waitFor();
      await chatShot(p, `search-highlights-${name}`);
      await p.goto(`${t.url}/#narrow/channel/${general}-general/topic/drafting`);
      const row = p.locator(`article[data-message-id="${drafted}"]`);
      await row.waitFor();
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await p.getByRole('menuitem', { name: 'View edit history', exact: true }).click();
      await p.locator('.highlight_text_inserted').first().waitFor();
      await chatShot(p, `history-diff-${name}`);
      await p.keyboard.press('Escape');
      await expect.poll(() => p.getByRole('dialog').count(), WAIT).toBe(0);
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await p.getByRole('menuitem', { name: 'Edit message', exact: true }).click();
      const text = row.getByRole('form', { name: 'Edit message' }).getByLabel('Message');
      await expect.poll(() => text.inputValue(), WAIT).not.toBe('');
      expect(await scrollsSideways(p)).toBe(false);
      await chatShot(p, `inline-edit-${name}`);
      await p.keyboard.press('Escape');
      if (look.phone) {
        await p.getByRole('button', { name: 'Channels and views' }).click();
        const drawer = p.getByRole('navigation', { name: 'Views and channels' });
        // Once it has slid in all the way.
        await expect.poll(async () => (await drawer.boundingBox())?.x, WAIT).toBe(0);
        await drawer.locator('.sidebar-link img.avatar').first().waitFor();
        await chatShot(p, `sidebar-avatars-${name}`);
        await p.keyboard.press('Escape');
        await p.getByRole('button', { name: 'Users' }).click();
        await chatShot(p, `user-list-avatars-${name}`);
      } else {
        await chatShot(p, `avatars-${name}`);
      }
      expect(watched.errors).toEqual([]);
      await p.context().close();
    }
  });
});
