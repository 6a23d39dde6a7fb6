/**
 * Passwords in the chat, in headless Chromium against the real server:
 * changing your own in Personal settings (the rule under the field, the
 * server's refusals under the field they are about) and the log-in page once failed attempts hold
 * an account up from this address.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, scrollsSideways, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `password-${name}.png`) });
const NEW_PASSWORD = 'violet kettle marmalade';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer({ rateLimit: true });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const dialog = () => page.getByRole('form', { name: 'Change password' });
const fieldOf = (label: string) =>
  dialog().locator('.chat-field', { has: page.getByLabel(label, { exact: true }) });
const errorOf = (label: string) => fieldOf(label).locator('.chat-field-error');

async function logIn(email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Personal settings, at Account & privacy, where the password form is. */
async function openPasswordForm() {
  await page.locator('.user-menu-button').click();
  await page.getByRole('menuitem', { name: 'Personal settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Personal settings' });
  await settings.getByRole('button', { name: 'Account & privacy', exact: true }).click();
  await expect.poll(() => dialog().isVisible(), WAIT).toBe(true);
}

async function submit() {
  await dialog().getByRole('button', { name: 'Change password' }).click();
  // The answer is in once the button is back from "Changing…".
  await expect
    .poll(() => dialog().getByRole('button', { name: 'Changing…' }).count(), WAIT)
    .toBe(0);
}

describe('passwords in the chat', { timeout: 60_000 }, () => {
  it('changes your password from the account menu, with the rule and refusals in place', async () => {
    await page.goto(`${t.url}/`);
    await logIn(t.accounts.member.email, FIXTURE_PASSWORD);
    const menuButton = page.locator('.user-menu-button');
    await expect.poll(() => menuButton.count(), WAIT).toBe(1);
    await openPasswordForm();
    expect(await fieldOf('New password').locator('.chat-field-hint').textContent()).toMatch(
      /^6 to 100 characters, and hard to guess/,
    );
    await shot(page, 'dialog');

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await submit();
    await expect
      .poll(() => errorOf('Current password').textContent(), WAIT)
      .toBe('Wrong password!');
    expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(await errorOf('New password').count()).toBe(0);

    await page.getByLabel('Current password').fill(FIXTURE_PASSWORD);
    await page.getByLabel('New password').fill(t.accounts.member.email);
    await submit();
    await expect
      .poll(() => errorOf('New password').textContent(), WAIT)
      .toBe('New password is too weak!');
    expect(await errorOf('Current password').count()).toBe(0);
    await shot(page, 'too-weak');

    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await submit();
    await expect
      .poll(
        () =>
          dialog()
            .getByText(/^Password changed\./)
            .count(),
        WAIT,
      )
      .toBe(1);
    expect(await page.getByLabel('New password').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count(), WAIT).toBe(0);
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: t.accounts.member.email, password: NEW_PASSWORD });
    expect(login.status).toBe(200);
  });

  it('fits a phone, in dark mode', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    // The session that changed the password lives on, as Zulip keeps it: no new log-in.
    await openPasswordForm();
    await page.getByLabel('Current password').fill('still not it');
    await page.getByLabel('New password').fill('123456');
    await submit();
    await expect.poll(() => errorOf('Current password').count(), WAIT).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'dialog-phone-dark');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('says for how long a held-up log-in waits', async () => {
    const { page: login } = await openPage(browser);
    await login.goto(`${t.url}/`);
    const guest = t.accounts.guest.email;
    for (let i = 0; i < 5; i++) {
      const res = await t
        .anonymous()
        .post('/fetch_api_key', { username: guest, password: `x${i}` });
      expect(res.status).toBe(401);
    }
    await login.getByLabel('E-mail').fill(guest);
    await login.getByLabel('Password').fill(FIXTURE_PASSWORD);
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect
      .poll(() => login.locator('#login-error').textContent(), WAIT)
      .toBe('Too many failed attempts for this account from here. Try again in 30 minutes.');
    await login.screenshot({ path: path.join(SHOTS, 'password-login-held-up.png') });
    await login.close();
  });

  it('had no script errors or failed requests but the refusals the test provoked', () => {
    const provoked = errors.filter((e) => /^400 .*\/api\/v1\/settings$/.test(e));
    expect(provoked).toHaveLength(3);
    expect(errors.filter((e) => !provoked.includes(e))).toEqual([]);
  });
});
