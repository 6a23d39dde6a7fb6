/**
 * Zulip's keyboard shortcuts on the selected message, in headless Chromium
 * against the real server: Ctrl+S stars and `*` opens Starred, `+` gives
 * and takes back a thumbs-up, `:` the emoji picker, `i` the actions menu,
 * `e` edit, `>` quote, Shift+R a DM to the sender, `@` a mention, Shift+M
 * mutes and unmutes the topic, `s` goes between topic and channel, `v`
 * shows the pictures, Esc goes to the home view, and `?` lists them all.
 * Every change is checked through the REST API.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { chatShot, logIn, messageRow, openChatPage } from './chat-page.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;
let pictureId: number;
let questionId: number;
let mineId: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  const png = await sharp({
    create: { width: 320, height: 200, channels: 3, background: '#d35400' },
  })
    .png()
    .toBuffer();
  const upload = await t.as('owner').post(
    '/user_uploads',
    { file: new File([png], 'sunset.png', { type: 'image/png' }) },
    {
      encoding: 'multipart',
    },
  );
  pictureId = await sendToChannel(t, 'owner', general, 'lunch', `[sunset.png](${upload.body.url})`);
  questionId = await sendToChannel(t, 'owner', general, 'lunch', 'Soup or salad?');
  mineId = await sendToChannel(t, 'member', general, 'lunch', 'Soup, plaese');
  browser = await launchBrowser();
  ({ page, errors } = await openChatPage(browser));
  await logIn(
    page,
    t.url,
    t.accounts.member.email,
    `#narrow/channel/${general}-general/topic/lunch`,
  );
  await messageRow(page, 'Soup, plaese').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const compose = () => page.getByRole('region', { name: 'Compose' });
const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
const flagsOf = async (id: number) =>
  (await t.as('member').get(`/messages/${id}`)).body.message.flags as string[];
const reactionsOf = async (id: number) =>
  (await t.as('member').get(`/messages/${id}`)).body.message.reactions as {
    emoji_code: string;
    user_id: number;
  }[];

/** Selects a message as a click on it does, leaving the focus on the page. */
async function select(id: number) {
  await page
    .locator(`.message[data-message-id="${id}"] .rendered-markdown`)
    .first()
    .click({ position: { x: 2, y: 2 } });
  await expect
    .poll(
      () => page.locator(`.message[data-message-id="${id}"]`).getAttribute('aria-current'),
      WAIT,
    )
    .toBe('true');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Leaves the compose box and closes it, as Esc twice does. */
async function leaveCompose() {
  await page.keyboard.press('Escape');
  const cancel = compose().getByRole('button', { name: /^(Cancel|Close)/ });
  if ((await cancel.count()) > 0) await cancel.first().click();
}

describe('keyboard shortcuts', { timeout: 60_000 }, () => {
  it('+ gives a thumbs-up and takes it back', async () => {
    await select(questionId);
    await page.keyboard.press('+');
    const mine = async () =>
      (await reactionsOf(questionId)).filter(
        (r) => r.user_id === t.accounts.member.id && r.emoji_code === '1f44d',
      ).length;
    await expect.poll(mine, WAIT).toBe(1);
    await expect
      .poll(() => messageRow(page, 'Soup or salad?').locator('.reaction.mine').count(), WAIT)
      .toBe(1);
    await page.keyboard.press('+');
    await expect.poll(mine, WAIT).toBe(0);
  });

  it('Ctrl+S stars the selected message; * opens Starred', async () => {
    await select(questionId);
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await flagsOf(questionId)).includes('starred'), WAIT).toBe(true);
    await page.keyboard.press('*');
    await expect.poll(hash, WAIT).toBe('#narrow/is/starred');
    await expect.poll(() => page.locator('.message').count(), WAIT).toBe(1);
    await page.goBack();
    await messageRow(page, 'Soup or salad?').waitFor();
    await select(questionId);
    await page.keyboard.press('Control+s');
    await expect
      .poll(async () => (await flagsOf(questionId)).includes('starred'), WAIT)
      .toBe(false);
  });

  it(': opens the emoji picker on the selected message, i its actions menu', async () => {
    await select(questionId);
    await page.keyboard.press(':');
    const picker = page.getByRole('dialog', { name: 'Add a reaction' });
    await expect.poll(() => picker.isVisible(), WAIT).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.count(), WAIT).toBe(0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('i');
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await expect.poll(() => menu.isVisible(), WAIT).toBe(true);
    expect(await menu.getByRole('menuitem').first().textContent()).toBe('Add emoji reaction');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count(), WAIT).toBe(0);
  });

  it('e edits your own message', async () => {
    await select(mineId);
    await page.keyboard.press('e');
    // In place, as Zulip's web app edits.
    const editor = page.getByRole('form', { name: 'Edit message' });
    await expect.poll(() => editor.isVisible(), WAIT).toBe(true);
    const text = editor.getByLabel('Message');
    await expect.poll(() => text.inputValue(), WAIT).toBe('Soup, plaese');
    await text.fill('Soup, please');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () => (await t.as('member').get(`/messages/${mineId}`)).body.message.content,
        WAIT,
      )
      .toBe('<p>Soup, please</p>');
  });

  it('> quotes the selected message into a reply', async () => {
    await select(questionId);
    await page.keyboard.press('>');
    const box = compose().getByLabel('Message', { exact: true });
    await expect.poll(() => box.inputValue(), WAIT).toContain('Soup or salad?');
    expect(await box.inputValue()).toMatch(/^@_\*\*Olivia Owner\|\d+\*\* \[said\]/);
    await box.fill('');
    await leaveCompose();
  });

  it('Shift+R writes to the sender directly; @ mentions them in a reply', async () => {
    await select(questionId);
    await page.keyboard.press('Shift+R');
    await expect
      .poll(() => compose().locator('.compose-dm-recipients .chip').allTextContents(), WAIT)
      .toEqual([expect.stringContaining('Olivia Owner')]);
    await leaveCompose();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await select(questionId);
    await page.keyboard.press('@');
    const box = compose().getByLabel('Message', { exact: true });
    await expect.poll(() => box.inputValue(), WAIT).toBe('@**Olivia Owner** ');
    expect(await compose().getByLabel('Topic').inputValue()).toBe('lunch');
    await box.fill('');
    await leaveCompose();
  });

  it('Shift+M mutes the topic, and again unmutes it', async () => {
    await select(questionId);
    await page.keyboard.press('Shift+M');
    const policy = async () => {
      const res = await t.as('member').post('/register', { fetch_event_types: '["user_topic"]' });
      const entry = (
        res.body.user_topics as { topic_name: string; visibility_policy: number }[]
      ).find((u) => u.topic_name === 'lunch');
      return entry?.visibility_policy ?? 0;
    };
    await expect.poll(policy, WAIT).toBe(1);
    // The toggle reads the chat's own state: press again once its event has come.
    await expect.poll(() => page.locator('[title="Muted topic"]').count(), WAIT).toBeGreaterThan(0);
    await page.keyboard.press('Shift+M');
    await expect.poll(policy, WAIT).toBe(0);
  });

  it('s goes from the topic to its channel and back', async () => {
    await select(questionId);
    await page.keyboard.press('s');
    await expect.poll(hash, WAIT).toBe(`#narrow/channel/${general}-general`);
    await messageRow(page, 'Soup or salad?').waitFor();
    await select(questionId);
    await page.keyboard.press('s');
    await expect.poll(hash, WAIT).toBe(`#narrow/channel/${general}-general/topic/lunch`);
  });

  it('v shows the pictures of the selected message', async () => {
    await messageRow(page, 'Soup or salad?').waitFor();
    await select(pictureId);
    await page.keyboard.press('v');
    const viewer = page.getByRole('dialog', { name: 'sunset.png' });
    await expect.poll(() => viewer.isVisible(), WAIT).toBe(true);
    const picture = viewer.getByRole('img', { name: 'sunset.png' });
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT)
      .toBe(320);
    await chatShot(page, 'shortcuts-image-viewer');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await scrollsSideways(page)).toBe(false);
    await chatShot(page, 'shortcuts-image-viewer-phone-dark');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count(), WAIT).toBe(0);
  });

  it('Esc closes an open menu first, and with nothing open goes to the home view', async () => {
    const before = await hash();
    await page.locator('.user-menu-button').click();
    await expect.poll(() => page.getByRole('menu', { name: 'Account' }).count(), WAIT).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu', { name: 'Account' }).count(), WAIT).toBe(0);
    expect(await hash()).toBe(before);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await expect.poll(hash, WAIT).toBe('#inbox');
  });

  it('? lists the shortcuts by group, on a desktop, a phone and in dark mode', async () => {
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect.poll(() => help.isVisible(), WAIT).toBe(true);
    expect(await help.locator('caption').allTextContents()).toEqual([
      'Navigation',
      'Composing',
      'The selected message',
    ]);
    const text = await help.innerText();
    for (const key of [
      'Ctrl+S',
      'Shift+R',
      'Shift+M',
      '>',
      '@',
      ':',
      '+',
      '*',
      'v',
      'i',
      'e',
      's',
    ]) {
      expect(text).toContain(key);
    }
    await chatShot(page, 'shortcuts-help');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await scrollsSideways(page)).toBe(false);
    await chatShot(page, 'shortcuts-help-phone-dark');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.isVisible(), WAIT).toBe(false);
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('had no script errors or failed requests', () => {
    expect(errors).toEqual([]);
  });
});
