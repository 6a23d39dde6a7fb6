/**
 * Emoji as pictures in the chat, in headless Chromium (which, like many
 * Linux machines and kiosks, has no emoji font: characters would be empty
 * boxes): messages, typed skin-toned emoji, reactions, statuses and the
 * picker draw from the server's Google sprite sheet; the picker has
 * Zulip's categories in Unicode's order, search, skin tones when composing,
 * and closes with one Escape. Light at a desktop width, dark on a phone.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { chatShot, logIn, messageRow, openChatPage, openCompose } from './chat-page.js';

let t: TestServer;
let browser: Browser;
let page: Page;
const errors: string[][] = [];
let general: number;
let party: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  party = await sendToChannel(t, 'owner', general, 'party', 'Done :tada: and typed 👍🏽 here');
  await t.as('admin').post(`/messages/${party}/reactions`, {
    emoji_name: 'heart',
    emoji_code: '2764',
    reaction_type: 'unicode_emoji',
  });
  await t.as('admin').post('/users/me/status', {
    status_text: 'Reviewing',
    emoji_name: 'eyes',
    emoji_code: '1f440',
    reaction_type: 'unicode_emoji',
  });
  browser = await launchBrowser();
  const watched = await openChatPage(browser);
  page = watched.page;
  errors.push(watched.errors);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/**
 * Whether an element shows a picture: drawn from the sprite sheet, sized,
 * its text hidden, and its pixels holding more than one colour (a box or
 * nothing at all would not).
 */
async function drawn(emoji: Locator): Promise<{ sprite: boolean; colours: number }> {
  await emoji.scrollIntoViewIfNeeded();
  const sprite = await emoji.evaluate((el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return (
      style.backgroundImage.includes('sheet-google-32.png') &&
      style.color === 'rgba(0, 0, 0, 0)' &&
      box.width >= 14 &&
      box.height >= 14
    );
  });
  const { data, info } = await sharp(await emoji.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const colours = new Set<string>();
  for (let i = 0; i < data.length; i += info.channels) {
    colours.add(`${data[i]! >> 4},${data[i + 1]! >> 4},${data[i + 2]! >> 4}`);
  }
  return { sprite, colours: colours.size };
}

const picker = (name: string | RegExp = /Add a reaction|Add an emoji/) =>
  page.getByRole('dialog', { name });

describe('emoji drawn without an emoji font', { timeout: 90_000 }, () => {
  it('draws the emoji of a message, typed ones too, from the sprite sheet', async () => {
    await logIn(
      page,
      t.url,
      'member@example.com',
      `#narrow/channel/${general}-general/topic/party`,
    );
    const row = messageRow(page, 'typed');
    await expect.poll(() => row.count(), WAIT).toBe(1);
    // Zulip's markup is kept: the name is the text, the code the class.
    const tada = row.locator('.rendered-markdown span.emoji.emoji-1f389');
    expect(await tada.textContent()).toBe(':tada:');
    await expect.poll(async () => (await drawn(tada)).sprite, WAIT).toBe(true);
    // Once the sheet has loaded, the picture is there.
    await expect.poll(async () => (await drawn(tada)).colours, WAIT).toBeGreaterThan(8);
    const thumbs = row.locator('.rendered-markdown span.emoji.emoji-1f44d-1f3fd');
    expect(await thumbs.textContent()).toBe('👍🏽');
    expect((await drawn(thumbs)).sprite).toBe(true);
    expect((await drawn(thumbs)).colours).toBeGreaterThan(8);
  });

  it('draws reactions and statuses from it too', async () => {
    const heart = messageRow(page, 'typed').locator('.reaction .emoji-2764');
    expect((await drawn(heart)).sprite).toBe(true);
    await page
      .getByRole('complementary', { name: 'Users' })
      .locator(`.user-row[data-user-id="${t.accounts.admin.id}"] .user-row-button`)
      .click();
    const eyes = page.getByRole('dialog', { name: 'Ada Admin' }).locator('.emoji-1f440');
    expect((await drawn(eyes)).sprite).toBe(true);
    await page.keyboard.press('Escape');
    await chatShot(page, 'emoji-message');
  });

  it("opens a picker with Zulip's categories in Unicode's order, and closes with one Escape", async () => {
    const row = messageRow(page, 'typed');
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Add emoji reaction' }).click();
    const dialog = picker();
    await expect.poll(() => dialog.locator('.emoji-cell').count(), WAIT).toBeGreaterThan(1500);
    expect(
      await dialog
        .getByRole('navigation', { name: 'Emoji categories' })
        .getByRole('button')
        .allInnerTexts(),
    ).toHaveLength(10);
    const titles = await dialog.locator('.emoji-section-title').allTextContents();
    expect(titles).toEqual([
      'Smileys & Emotion',
      'People & Body',
      'Animals & Nature',
      'Food & Drink',
      'Activities',
      'Travel & Places',
      'Objects',
      'Symbols',
      'Flags',
      // The organization's own, with :zulip:.
      'Custom',
    ]);
    const first = await dialog
      .locator('.emoji-cell')
      .evaluateAll((cells) => cells.slice(0, 24).map((c) => c.getAttribute('aria-label')));
    expect(first.slice(0, 3)).toEqual(['grinning', 'smiley', 'big smile']);
    expect(first).not.toContain('tm');
    expect((await drawn(dialog.locator('.emoji-cell .emoji').first())).sprite).toBe(true);
    // Reactions carry no skin tone in Zulip: no choice of one here.
    expect(await dialog.getByRole('button', { name: 'Medium skin tone' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Flags', exact: true }).click();
    await chatShot(page, 'emoji-picker');
    await dialog.getByLabel('Search emoji').fill('octo');
    await expect
      .poll(() => dialog.locator('.emoji-cell').first().getAttribute('aria-label'), WAIT)
      .toBe('octopus');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
  });

  it('reacts with a searched emoji', async () => {
    const row = messageRow(page, 'typed');
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Add emoji reaction' }).click();
    await picker().getByLabel('Search emoji').fill('octopus');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.locator('.reaction .emoji-1f419').count(), WAIT).toBe(1);
    const reactions = (await t.as('member').get(`/messages/${party}`)).body.message.reactions;
    expect(reactions.map((r: { emoji_name: string }) => r.emoji_name)).toContain('octopus');
  });

  it('types a skin-toned emoji from the compose box, and the feed draws it', async () => {
    const box = await openCompose(page);
    await box.getByRole('button', { name: 'Add emoji' }).click();
    const dialog = picker('Add an emoji');
    await expect.poll(() => dialog.locator('.emoji-cell').count(), WAIT).toBeGreaterThan(1500);
    await dialog.getByRole('button', { name: 'Medium skin tone' }).click();
    await dialog.getByLabel('Search emoji').fill('thumbs_up');
    // Searching keeps the skin tone out (names have none); the grid shows it.
    await dialog.getByLabel('Search emoji').fill('');
    const thumbs = dialog.getByRole('button', { name: 'thumbs up', exact: true });
    expect(await thumbs.locator('.emoji').getAttribute('class')).toContain('emoji-1f44d-1f3fd');
    await thumbs.click();
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
    const field = box.getByLabel('Message', { exact: true });
    expect(await field.inputValue()).toBe('👍🏽 ');
    await field.fill(`${await field.inputValue()}for the launch :tada:`);
    await box.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = messageRow(page, 'for the launch');
    // The server's rendering (its :tada: markup) has replaced the local echo.
    await expect.poll(() => sent.locator('.emoji-1f389').count(), WAIT).toBe(1);
    expect(await sent.locator('.emoji-1f44d-1f3fd').count()).toBe(1);
    expect((await drawn(sent.locator('.emoji-1f44d-1f3fd'))).sprite).toBe(true);
  });

  it('on a phone in dark mode, too', async () => {
    const watched = await openChatPage(browser, { phone: true, dark: true });
    errors.push(watched.errors);
    const phone = watched.page;
    await logIn(
      phone,
      t.url,
      'owner@example.com',
      `#narrow/channel/${general}-general/topic/party`,
    );
    const row = messageRow(phone, 'typed');
    await expect.poll(() => row.count(), WAIT).toBe(1);
    await expect
      .poll(async () => (await drawn(row.locator('.rendered-markdown .emoji-1f389'))).sprite, WAIT)
      .toBe(true);
    await (await openCompose(phone)).getByRole('button', { name: 'Add emoji' }).click();
    await expect
      .poll(() => phone.getByRole('dialog').locator('.emoji-cell').count(), WAIT)
      .toBeGreaterThan(1500);
    expect(await scrollsSideways(phone)).toBe(false);
    await chatShot(phone, 'emoji-picker-phone-dark');
  });

  it('had no script errors or failed requests', () => {
    expect(errors.flat()).toEqual([]);
  });
});
