/**
 * What the chat's browser tests share: logging in through the form, the
 * sidebar's counts, finding and sending messages, and screenshots of the
 * chat at a desktop width, a 360 px phone and in dark mode.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { FIXTURE_PASSWORD } from '../helpers/server.js';
import { openPage, WAIT, type WatchedPage } from './browser.js';

/** Where the chat's screenshots go, kept after the run for a person to look at. */
export const CHAT_SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');

export const chatShot = (page: Page, name: string) => {
  mkdirSync(CHAT_SHOTS, { recursive: true });
  return page.screenshot({ path: path.join(CHAT_SHOTS, `${name}.png`) });
};

/** A phone's window, as the issue reports were made on. */
export const PHONE = { width: 360, height: 740 };

/** A page for one person: a desktop window unless told, light unless `dark`. */
export function openChatPage(
  browser: Browser,
  options: { phone?: boolean; dark?: boolean } = {},
): Promise<WatchedPage> {
  return openPage(browser, {
    viewport: options.phone ? PHONE : { width: 1280, height: 860 },
    colorScheme: options.dark ? 'dark' : 'light',
  });
}

/** Logs in through the chat's own form and waits for the app. */
export async function logIn(page: Page, baseUrl: string, email: string, hash = '') {
  await page.goto(`${baseUrl}/${hash}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Checking the password takes a while on a busy machine.
  // (The sidebar is a closed drawer on a phone: the app itself is the sign.)
  await page.locator('.chat-app').waitFor({ timeout: 20_000 });
}

/** The count beside a sidebar entry ('' when none). */
export async function sidebarCount(page: Page, label: string): Promise<string> {
  const count = page
    .getByRole('navigation', { name: 'Views and channels' })
    .locator('.sidebar-link')
    .filter({ has: page.getByText(label, { exact: true }) })
    .first()
    .locator('.unread-count');
  if ((await count.count()) === 0) return '';
  return count.evaluate((el) => el.firstChild?.textContent ?? '');
}

export const messageRow = (page: Page, text: string) =>
  page.locator('.message').filter({ hasText: text });

/** Opens the compose box on the narrow's conversation. */
export async function openCompose(page: Page) {
  const box = page.getByRole('region', { name: 'Compose' });
  if ((await box.getByLabel('Message', { exact: true }).count()) === 0) {
    await box.getByRole('button', { name: /^Message / }).click();
  }
  return box;
}

/** Types into the open compose box and sends with its button; waits for the message to show. */
export async function sendFromCompose(page: Page, text: string, options = { shown: true }) {
  const box = await openCompose(page);
  await box.getByLabel('Message', { exact: true }).fill(text);
  await box.getByRole('button', { name: 'Send', exact: true }).click();
  if (options.shown) await expect.poll(() => messageRow(page, text).count(), WAIT).toBe(1);
}
