/**
 * A guest's chat when whom they may see changes (can_access_all_users_group),
 * in headless Chromium against the real server: no event lists the users
 * that appear or vanish, so the chat registers afresh
 * (renderer/src/chat/data/fresh-register.ts) and its user list follows:
 * a user the guest shares nothing with becomes "Unknown user", and
 * comes back when everyone may be seen again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import type { Account } from '../helpers/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, WAIT } from './browser.js';
import { chatShot, logIn, openChatPage } from './chat-page.js';

let t: TestServer;
let browser: Browser;
let hal: Account;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  hal = await t.createMember('Hal Hidden');
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const userRowName = (page: Page, id: number) =>
  page
    .getByRole('complementary', { name: 'Users' })
    .locator(`.user-row[data-user-id="${id}"] .user-row-name`);

async function allowGuestsToSee(group: 'role:everyone' | 'role:members') {
  const groups = (await t.as('owner').get('/user_groups')).body.user_groups as {
    id: number;
    name: string;
  }[];
  const id = groups.find((g) => g.name === group)!.id;
  const res = await t.as('owner').patch('/realm', { can_access_all_users_group: { new: id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("a guest's chat when whom guests may see changes", () => {
  it('registers afresh: the user list shows who is hidden now, and who is back', async () => {
    const { page, errors } = await openChatPage(browser);
    try {
      await logIn(page, t.url, t.accounts.guest.email);
      await expect.poll(() => userRowName(page, hal.id).textContent(), WAIT).toBe('Hal Hidden');

      await allowGuestsToSee('role:members');
      await expect.poll(() => userRowName(page, hal.id).textContent(), WAIT).toBe('Unknown user');
      await chatShot(page, 'guest-access-limited');

      await allowGuestsToSee('role:everyone');
      await expect.poll(() => userRowName(page, hal.id).textContent(), WAIT).toBe('Hal Hidden');
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await allowGuestsToSee('role:everyone');
    }
  });

  it('does the same on a phone in dark mode, its user panel opened', async () => {
    const { page, errors } = await openChatPage(browser, { phone: true, dark: true });
    try {
      await logIn(page, t.url, t.accounts.guest.email);
      await page.getByRole('button', { name: 'Users', exact: true }).click();
      await expect.poll(() => userRowName(page, hal.id).textContent(), WAIT).toBe('Hal Hidden');
      await allowGuestsToSee('role:members');
      await expect.poll(() => userRowName(page, hal.id).textContent(), WAIT).toBe('Unknown user');
      await chatShot(page, 'guest-access-limited-phone-dark');
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await allowGuestsToSee('role:everyone');
    }
  });
});
