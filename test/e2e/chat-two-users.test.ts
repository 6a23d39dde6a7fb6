/**
 * Two people chatting through the chat view, each in their own browser
 * context (their own storage and cookies), against the real server: a
 * message in a topic arrives live with its unread count, reading it drops
 * the count, a DM reply, a reaction, an edit, a search, a muted topic.
 * Each step is checked in the other person's page and through the REST API.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, WAIT } from './browser.js';
import { openCompose } from './chat-page.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `two-users-${name}.png`) });

let t: TestServer;
let browser: Browser;
/** Olivia (the owner) writes first; Mel (a member) reads and answers. */
let olivia: Page;
let mel: Page;
const errors: string[][] = [];
let general: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer();
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  await sendToChannel(t, 'owner', general, 'welcome', 'Hello, everyone.');
  // Mel has read the past; what follows is news.
  await t.as('member').post('/mark_all_as_read');
  browser = await launchBrowser();
  for (const who of ['olivia', 'mel'] as const) {
    const watched = await openPage(browser);
    errors.push(watched.errors);
    if (who === 'olivia') olivia = watched.page;
    else mel = watched.page;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function logIn(page: Page, email: string, hash = '') {
  await page.goto(`${t.url}/${hash}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Views and channels' }).waitFor();
}

const sidebarCount = async (page: Page, label: string) => {
  const count = page
    .getByRole('navigation', { name: 'Views and channels' })
    .locator('.sidebar-link')
    .filter({ has: page.getByText(label, { exact: true }) })
    .first()
    .locator('.unread-count');
  if ((await count.count()) === 0) return '';
  return count.evaluate((el) => el.firstChild?.textContent ?? '');
};

const message = (page: Page, text: string) => page.locator('.message').filter({ hasText: text });

/** Types into the open compose box and sends with its button. */
async function send(page: Page, text: string) {
  const box = page.getByRole('region', { name: 'Compose' });
  await box.getByLabel('Message', { exact: true }).fill(text);
  await box.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(() => message(page, text).count(), WAIT).toBe(1);
}

async function newestMessage(who: 'owner' | 'member') {
  const res = await t.as(who).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
  return res.body.messages[0] as { id: number; content: string; flags: string[] };
}

describe('two people in the chat view', { timeout: 90_000 }, () => {
  it('both log in', async () => {
    await logIn(olivia, 'owner@example.com', `#narrow/channel/${general}-general/topic/lunch`);
    await logIn(mel, 'member@example.com');
    await expect
      .poll(() => olivia.locator('#view-title').textContent(), WAIT)
      .toBe('#general > lunch');
    expect(await mel.title()).toBe('Inbox - Hearth');
  });

  it('a message sent in a topic reaches the other live, with its unread count', async () => {
    await olivia.getByRole('button', { name: /^Message #general > lunch/ }).click();
    await send(olivia, 'Tacos at noon?');
    await expect.poll(() => sidebarCount(mel, 'general'), WAIT).toBe('1');
    expect(await sidebarCount(mel, 'Inbox')).toBe('1');
    await expect.poll(() => mel.title(), WAIT).toBe('(1) Inbox - Hearth');
    await expect
      .poll(() => mel.getByRole('main').getByRole('link', { name: 'lunch' }).count(), WAIT)
      .toBe(1);
    await shot(mel, 'unread-arrived');
  });

  it('reading it drops the count, here and on the server', async () => {
    await mel.getByRole('main').getByRole('link', { name: 'lunch' }).click();
    await expect.poll(() => message(mel, 'Tacos at noon?').count(), WAIT).toBe(1);
    await expect.poll(() => sidebarCount(mel, 'general'), WAIT).toBe('');
    await expect.poll(() => mel.title(), WAIT).toBe('#general > lunch - Hearth');
    await expect.poll(async () => (await newestMessage('member')).flags, WAIT).toContain('read');
  });

  it('a reply by DM arrives as a DM with its count', async () => {
    const oliviaId = t.accounts.owner.id;
    await mel.goto(`${t.url}/#narrow/dm/${oliviaId}-Olivia-Owner`);
    await expect.poll(() => mel.locator('#view-title').textContent(), WAIT).toMatch(/Olivia Owner/);
    await mel.getByRole('button', { name: /^Message Olivia Owner/ }).click();
    await send(mel, 'Count me in!');
    await expect.poll(() => sidebarCount(olivia, 'Mel Member'), WAIT).toBe('1');
    await olivia
      .getByRole('navigation', { name: 'Views and channels' })
      .getByText('Mel Member', { exact: true })
      .click();
    await expect.poll(() => message(olivia, 'Count me in!').count(), WAIT).toBe(1);
    await expect.poll(() => sidebarCount(olivia, 'Mel Member'), WAIT).toBe('');
  });

  it('a reaction shows on both sides', async () => {
    const row = message(olivia, 'Count me in!');
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).first().click();
    await olivia.getByRole('menuitem', { name: 'Add emoji reaction' }).click();
    await olivia.getByLabel('Search emoji').fill('heart');
    await olivia.getByRole('button', { name: 'heart', exact: true }).first().click();
    await expect
      .poll(
        () => message(mel, 'Count me in!').locator('.reaction, [class*="reaction"] button').count(),
        WAIT,
      )
      .toBeGreaterThan(0);
    const dm = await newestMessage('member');
    const full = await t.as('member').get(`/messages/${dm.id}`);
    expect(full.body.message.reactions.map((r: { emoji_name: string }) => r.emoji_name)).toEqual([
      'heart',
    ]);
    await shot(mel, 'reaction');
  });

  it('an edit reaches the other page, marked as edited', async () => {
    const row = message(olivia, 'Tacos at noon?');
    await olivia.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch`);
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).first().click();
    await olivia.getByRole('menuitem', { name: 'Edit message' }).click();
    const form = olivia.getByRole('form', { name: 'Edit message' });
    const editor = form.getByLabel('Message', { exact: true });
    await expect.poll(() => editor.inputValue(), WAIT).toBe('Tacos at noon?');
    await editor.fill('Tacos at half past twelve?');
    await form.getByRole('button', { name: 'Save' }).click();
    await mel.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch`);
    const edited = message(mel, 'Tacos at half past twelve?');
    await expect.poll(() => edited.count(), WAIT).toBe(1);
    expect(await edited.locator('.edited-marker').textContent()).toBe('(edited)');
  });

  it('search finds the edited message', async () => {
    await mel.keyboard.press('/');
    await mel.locator('#search-input').fill('twelve');
    await mel.keyboard.press('Enter');
    await expect.poll(() => mel.locator('.message').count(), WAIT).toBe(1);
    expect(await mel.locator('.message').textContent()).toContain('half past twelve');
    await shot(mel, 'search');
  });

  it('shows who is typing under the conversation, in a topic and in a DM', async () => {
    const lunch = `${t.url}/#narrow/channel/${general}-general/topic/lunch`;
    await olivia.goto(lunch);
    await mel.goto(lunch);
    const notice = (page: Page) => page.locator('.typing-notice');
    const box = await openCompose(olivia);
    await box.getByLabel('Message', { exact: true }).fill('Shall we');
    await expect.poll(() => notice(mel).textContent(), WAIT).toBe('Olivia Owner is typing…');
    // Not in other conversations, nor to the typist.
    expect(await notice(olivia).textContent()).toBe('');
    await expect.poll(() => message(mel, 'half past twelve').isVisible(), WAIT).toBe(true);
    await shot(mel, 'typing-topic');
    await box.getByLabel('Message', { exact: true }).fill('Shall we book a table?');
    await box.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => message(mel, 'book a table').count(), WAIT).toBe(1);
    await expect.poll(() => notice(mel).textContent(), WAIT).toBe('');

    await mel.goto(`${t.url}/#narrow/dm/${t.accounts.owner.id}-Olivia-Owner`);
    await olivia.goto(`${t.url}/#narrow/dm/${t.accounts.member.id}-Mel-Member`);
    const melBox = await openCompose(mel);
    await melBox.getByLabel('Message', { exact: true }).fill('Sure');
    await expect.poll(() => notice(olivia).textContent(), WAIT).toBe('Mel Member is typing…');
    await expect.poll(() => message(olivia, 'Count me in!').isVisible(), WAIT).toBe(true);
    await shot(olivia, 'typing-dm');
    // Closing the box stops the notice.
    await melBox.getByLabel('Message', { exact: true }).fill('');
    await expect.poll(() => notice(olivia).textContent(), WAIT).toBe('');
    await melBox.getByRole('button', { name: 'Close the compose box' }).click();
  });

  it('a muted topic stops counting', async () => {
    await mel.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch`);
    await mel.getByRole('button', { name: 'Actions for topic lunch' }).first().click();
    await mel.getByRole('menuitem', { name: 'Mute topic' }).click();
    await expect
      .poll(async () => {
        const res = await t.as('member').post('/register', { event_types: '["user_topic"]' });
        return res.body.user_topics.map((u: { topic_name: string }) => u.topic_name);
      }, WAIT)
      .toEqual(['lunch']);
    await mel.goto(`${t.url}/#inbox`);
    await sendToChannel(t, 'owner', general, 'lunch', 'Anyone else?');
    await sendToChannel(t, 'owner', general, 'dinner', 'And dinner?');
    await expect.poll(() => sidebarCount(mel, 'general'), WAIT).toBe('1');
    expect(await mel.getByRole('main').getByRole('link', { name: 'lunch' }).count()).toBe(0);
    await shot(mel, 'muted-topic');
  });

  it('had no script errors or failed requests', () => {
    expect(errors.flat()).toEqual([]);
  });
});
