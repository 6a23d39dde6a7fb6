/**
 * The chat's sidebar groups channels by folder (Zulip's "group channels by
 * folder"): folders in their order under their names, "Other channels"
 * after them, and a move to another folder shows at once (a stream
 * folder_id event). Screenshots at 1280 px, 360 px and in dark mode.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { ARTIFACTS, launchBrowser, openPage, screenshot, WAIT } from './browser.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let backend: number;
let random: number;
let social: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member } = t.accounts;
  backend = createChannel(t, { name: 'backend', subscribers: [owner.id, member.id] });
  random = createChannel(t, { name: 'random', subscribers: [owner.id, member.id] });
  createChannel(t, { name: 'misc', subscribers: [owner.id, member.id] });
  const engineering = await t
    .as('owner')
    .post('/channel_folders/create', { name: 'Engineering', description: '' });
  social = (
    await t.as('owner').post('/channel_folders/create', { name: 'Social', description: '' })
  ).body.channel_folder_id;
  await t
    .as('owner')
    .patch(`/streams/${backend}`, { folder_id: engineering.body.channel_folder_id });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const headings = () =>
  page.locator('.channel-folder-heading').evaluateAll((els) => els.map((e) => e.textContent));
const channelsUnder = (title: string) =>
  page
    .locator('.channel-folder', { has: page.getByRole('heading', { name: title, exact: true }) })
    .locator('.sidebar-label')
    .allTextContents();

async function logIn(p: Page) {
  await p.goto(`${t.url}/`);
  await p.getByLabel('E-mail').fill('member@example.com');
  await p.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await p.getByRole('button', { name: 'Log in' }).click();
  await p.locator('.channel-folder-heading').first().waitFor({ state: 'attached' });
}

describe('channel folders in the sidebar', { timeout: 60_000 }, () => {
  it('groups channels under their folders, the rest under Other channels', async () => {
    await logIn(page);
    expect(await headings()).toEqual(['Engineering', 'Other channels']);
    expect(await channelsUnder('Engineering')).toEqual(['backend']);
    expect(await channelsUnder('Other channels')).toEqual(['misc', 'random']);
    await screenshot(page, 'chat-folders-1280');
  });

  it('follows a channel moved into a folder', async () => {
    await t.as('owner').patch(`/streams/${random}`, { folder_id: social });
    await expect.poll(headings, WAIT).toEqual(['Engineering', 'Social', 'Other channels']);
    expect(await channelsUnder('Social')).toEqual(['random']);
    expect(errors).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`shows the folders at 360 px (${scheme})`, async () => {
      const narrow = await openPage(browser, {
        viewport: { width: 360, height: 740 },
        colorScheme: scheme,
      });
      await logIn(narrow.page);
      await expect.poll(() => narrow.page.locator('#view-title').textContent(), WAIT).toBe('Inbox');
      // On a phone the sidebar is a drawer behind a menu button.
      await narrow.page.getByRole('button', { name: 'Channels and views' }).click();
      const drawer = narrow.page.getByRole('navigation', { name: 'Views and channels' });
      // Open once it has slid in all the way.
      await expect.poll(async () => (await drawer.boundingBox())?.x, WAIT).toBe(0);
      // Not fullPage: resizing for a full-page shot closes the drawer.
      await narrow.page.screenshot({
        path: path.join(ARTIFACTS, `chat-folders-360-${scheme}.png`),
      });
      expect(narrow.errors).toEqual([]);
    });
  }
});
