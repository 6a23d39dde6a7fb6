/**
 * Personal settings in the chat, in headless Chromium against the real
 * server: opened from the account menu, every section changes the server
 * at once, and a second tab of the same person follows each change through
 * its events (theme, font size, 24-hour time, name, status, alert words,
 * muted users). Checked through the REST API a Zulip client uses;
 * screenshots at a desktop width, on a phone and in dark mode.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { chatShot, logIn, openChatPage } from './chat-page.js';

let t: TestServer;
let browser: Browser;
/** Mel in two tabs: `page` changes settings, `other` only watches. */
let page: Page;
let other: Page;
const errors: string[][] = [];
let pronounsId: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  await sendToChannel(t, 'owner', general, 'lunch', 'Soup at noon :tada:');
  const field = await t.as('owner').post('/realm/profile_fields', {
    name: 'Pronouns',
    field_type: 8,
    hint: 'What others call you',
  });
  pronounsId = field.body.id;
  browser = await launchBrowser();
  for (const which of ['page', 'other'] as const) {
    const opened = await openChatPage(browser);
    errors.push(opened.errors);
    await logIn(opened.page, t.url, t.accounts.member.email, '#feed');
    if (which === 'page') page = opened.page;
    else other = opened.page;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const overlay = (p: Page = page) => p.getByRole('dialog', { name: 'Personal settings' });

async function openSettings(p: Page, section?: string) {
  await p.locator('.user-menu-button').click();
  await p.getByRole('menuitem', { name: 'Personal settings' }).click();
  await expect.poll(() => overlay(p).isVisible(), WAIT).toBe(true);
  if (section) {
    await overlay(p).getByRole('button', { name: section, exact: true }).click();
    await expect
      .poll(() => overlay(p).locator('.settings-panel-title').textContent(), WAIT)
      .toBe(section);
  }
}

async function closeSettings(p: Page) {
  await overlay(p).getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => overlay(p).count(), WAIT).toBe(0);
}

async function userSettings(): Promise<Record<string, unknown>> {
  const res = await t.as('member').post('/register', { fetch_event_types: '["user_settings"]' });
  return res.body.user_settings;
}

const rootAttr = (p: Page, name: string) =>
  p.evaluate((n) => document.documentElement.getAttribute(n), name);
const rootFontSize = (p: Page) =>
  p.evaluate(() => getComputedStyle(document.documentElement).fontSize);
const background = (p: Page) =>
  p.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

describe('personal settings', { timeout: 60_000 }, () => {
  it('opens from the account menu on the profile, with the sections beside it', async () => {
    await openSettings(page);
    expect(await overlay().locator('.settings-nav-item').allTextContents()).toEqual([
      'Profile',
      'Account & privacy',
      'Preferences',
      'Notifications',
      'Muted users',
      'Alert words',
    ]);
    expect(await overlay().getByLabel('Name', { exact: true }).inputValue()).toBe('Mel Member');
    await chatShot(page, 'settings-profile');
  });

  it('changes your name, and the other tab shows the new one', async () => {
    await overlay().getByLabel('Name', { exact: true }).fill('Mel Marvel');
    await overlay().getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () => (await t.as('owner').get(`/users/${t.accounts.member.id}`)).body.user.full_name,
        WAIT,
      )
      .toBe('Mel Marvel');
    await expect
      .poll(() => other.locator('.user-menu-name').textContent(), WAIT)
      .toBe('Mel Marvel');
  });

  it('uploads a picture and deletes it again', async () => {
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#2a7ab0' },
    })
      .png()
      .toBuffer();
    await overlay()
      .locator('input[type="file"]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    const source = async () =>
      (await t.as('member').post('/register', { fetch_event_types: '["realm_user"]' })).body
        .avatar_source;
    await expect.poll(source, WAIT).toBe('U');
    const remove = overlay().getByRole('button', { name: 'Delete picture' });
    await expect.poll(() => remove.count(), WAIT).toBe(1);
    await remove.click();
    await expect.poll(source, WAIT).toBe('G');
    await expect.poll(() => remove.count(), WAIT).toBe(0);
  });

  it('fills in pronouns, a custom profile field', async () => {
    const input = overlay().getByLabel('Pronouns');
    await expect.poll(() => input.count(), WAIT).toBe(1);
    await input.fill('they/them');
    await overlay().getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(async () => {
        const res = await t.as('owner').get(`/users/${t.accounts.member.id}`, {
          include_custom_profile_fields: true,
        });
        return res.body.user.profile_data?.[pronounsId]?.value;
      }, WAIT)
      .toBe('they/them');
  });

  it('sets your status from the profile; the other tab shows it', async () => {
    await overlay().getByRole('button', { name: 'Set status' }).click();
    const form = page.getByRole('dialog', { name: 'Set status' });
    await expect.poll(() => form.isVisible(), WAIT).toBe(true);
    await form.getByRole('button', { name: /In a meeting/ }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), WAIT).toBe(0);
    // The settings stay open under it, showing the new status.
    await expect
      .poll(() => overlay().locator('.settings-status-now').textContent(), WAIT)
      .toContain('In a meeting');
    expect(
      (await t.as('owner').get(`/users/${t.accounts.member.id}/status`)).body.status,
    ).toMatchObject({ status_text: 'In a meeting', emoji_name: 'calendar' });
    await openSettings(other);
    await expect
      .poll(() => overlay(other).locator('.settings-status-now').textContent(), WAIT)
      .toContain('In a meeting');
    await closeSettings(other);
  });

  it('marks you away, and the other tab sees it', async () => {
    const away = async () =>
      (await t.as('owner').get(`/users/${t.accounts.member.id}/status`)).body.status.away ?? false;
    await overlay().getByLabel('Away (others see you as away)').check();
    await expect.poll(away, WAIT).toBe(true);
    await openSettings(other);
    await expect
      .poll(() => overlay(other).getByLabel('Away (others see you as away)').isChecked(), WAIT)
      .toBe(true);
    await closeSettings(other);
    await overlay().getByLabel('Away (others see you as away)').uncheck();
    await expect.poll(away, WAIT).toBe(false);
  });

  it('switches to the dark theme, a bigger font and 24-hour time; the other tab follows', async () => {
    await overlay().getByRole('button', { name: 'Preferences', exact: true }).click();
    const lightBackground = await background(other);
    expect(await rootAttr(other, 'data-color-scheme')).toBe('light');
    await overlay().getByLabel('Theme').selectOption({ label: 'Dark' });
    await overlay().getByLabel('Font size').selectOption({ label: '20 px' });
    await overlay().getByLabel('Show times in 24-hour format').check();
    await overlay().getByLabel('Emoji', { exact: true }).selectOption({ label: 'Plain text' });
    await expect.poll(async () => (await userSettings()).color_scheme, WAIT).toBe(2);
    for (const p of [page, other]) {
      await expect.poll(() => rootAttr(p, 'data-color-scheme'), WAIT).toBe('dark');
      await expect.poll(() => rootFontSize(p), WAIT).toBe('18.75px');
      await expect.poll(() => rootAttr(p, 'data-emojiset'), WAIT).toBe('text');
    }
    expect(await background(other)).not.toBe(lightBackground);
    const settings = await userSettings();
    expect(settings).toMatchObject({
      web_font_size_px: 20,
      twenty_four_hour_time: true,
      emojiset: 'text',
    });
    // The message's time is in 24-hour form in the other tab ("13:05", no AM or PM).
    await expect
      .poll(() => other.locator('.message-time').first().textContent(), WAIT)
      .toMatch(/^\d{2}:\d{2}$/);
    // The emoji is its name, as Zulip's plain-text set shows it.
    const emoji = other.locator('.message .emoji').first();
    expect(await emoji.evaluate((el) => getComputedStyle(el).backgroundImage)).toBe('none');
    await chatShot(page, 'settings-preferences-dark');
    await chatShot(other, 'settings-feed-dark-text-emoji');
    // A reload keeps the theme from the first paint.
    await other.reload();
    expect(await rootAttr(other, 'data-color-scheme')).toBe('dark');
    await other.locator('.chat-app').waitFor();
  });

  it('turns Enter-to-send on, and back to light, default size and Google emoji', async () => {
    await overlay()
      .getByLabel(/^Enter sends the message/)
      .check();
    await expect.poll(async () => (await userSettings()).enter_sends, WAIT).toBe(true);
    await overlay().getByLabel('Theme').selectOption({ label: 'Light' });
    await overlay().getByLabel('Font size').selectOption({ label: '16 px (default)' });
    await overlay().getByLabel('Emoji', { exact: true }).selectOption({ label: 'Google' });
    for (const p of [page, other]) {
      await expect.poll(() => rootAttr(p, 'data-color-scheme'), WAIT).toBe('light');
      await expect.poll(() => rootFontSize(p), WAIT).toBe('15px');
      await expect.poll(() => rootAttr(p, 'data-emojiset'), WAIT).toBe(null);
    }
  });

  it('sets which messages notify and sound; the other tab shows the same', async () => {
    await overlay().getByRole('button', { name: 'Notifications', exact: true }).click();
    const sounds = overlay()
      .getByRole('group', { name: 'Sounds' })
      .getByLabel('Direct messages and mentions');
    expect(await sounds.isChecked()).toBe(true);
    await sounds.uncheck();
    await overlay().getByLabel('Notify me of @all, @everyone and @channel mentions').uncheck();
    await overlay()
      .getByRole('group', { name: 'Desktop notifications' })
      .getByLabel('All messages in channels')
      .check();
    await expect
      .poll(async () => {
        const s = await userSettings();
        return [s.enable_sounds, s.wildcard_mentions_notify, s.enable_stream_desktop_notifications];
      }, WAIT)
      .toEqual([false, false, true]);
    await openSettings(other, 'Notifications');
    await expect
      .poll(
        () =>
          overlay(other)
            .getByRole('group', { name: 'Sounds' })
            .getByLabel('Direct messages and mentions')
            .isChecked(),
        WAIT,
      )
      .toBe(false);
    await chatShot(page, 'settings-notifications');
  });

  it('adds and removes alert words; the other tab lists them too', async () => {
    await overlay().getByRole('button', { name: 'Alert words', exact: true }).click();
    await overlay(other).getByRole('button', { name: 'Alert words', exact: true }).click();
    const word = overlay().getByLabel('New alert word');
    await word.fill('deploy');
    await word.press('Enter');
    await word.fill('Outage');
    await overlay().getByRole('button', { name: 'Add', exact: true }).click();
    const words = async () =>
      (await t.as('member').get('/users/me/alert_words')).body.alert_words as string[];
    await expect
      .poll(async () => (await words()).sort((a, b) => a.localeCompare(b)), WAIT)
      .toEqual(['deploy', 'Outage']);
    const listed = (p: Page) =>
      overlay(p).getByRole('list', { name: 'Your alert words' }).locator('.settings-list-name');
    await expect.poll(() => listed(other).allTextContents(), WAIT).toEqual(['deploy', 'Outage']);
    await chatShot(page, 'settings-alert-words');
    await overlay().getByRole('button', { name: 'Remove deploy' }).click();
    await expect.poll(words, WAIT).toEqual(['Outage']);
    await expect.poll(() => listed(other).allTextContents(), WAIT).toEqual(['Outage']);
  });

  it('lists muted users and unmutes them; the other tab follows', async () => {
    await t.as('member').post(`/users/me/muted_users/${t.accounts.admin.id}`);
    await overlay().getByRole('button', { name: 'Muted users', exact: true }).click();
    await overlay(other).getByRole('button', { name: 'Muted users', exact: true }).click();
    const rows = (p: Page) => overlay(p).locator('.settings-list-row');
    await expect.poll(() => rows(page).allTextContents(), WAIT).toEqual(['Ada AdminUnmute']);
    await chatShot(page, 'settings-muted-users');
    await rows(page).getByRole('button', { name: 'Unmute' }).click();
    await expect
      .poll(
        async () =>
          (await t.as('member').post('/register', { fetch_event_types: '["muted_users"]' })).body
            .muted_users,
        WAIT,
      )
      .toEqual([]);
    await expect.poll(() => rows(other).count(), WAIT).toBe(0);
    expect(await overlay(other).getByText('You have not muted anyone.').count()).toBe(1);
    await closeSettings(other);
  });

  it('changes the password in Account & privacy', async () => {
    await overlay().getByRole('button', { name: 'Account & privacy', exact: true }).click();
    await overlay().getByLabel('Current password').fill('not it');
    await overlay().getByLabel('New password').fill('violet kettle marmalade');
    await overlay().getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => overlay().locator('.chat-field-error').textContent(), WAIT)
      .toBe('Wrong password!');
    await chatShot(page, 'settings-account');
  });

  it('fits a phone and dark mode, every section', async () => {
    await closeSettings(page);
    await t.as('member').patch('/settings', { color_scheme: 1 });
    const { page: phone, errors: phoneErrors } = await openChatPage(browser, {
      phone: true,
      dark: true,
    });
    errors.push(phoneErrors);
    await logIn(phone, t.url, t.accounts.member.email);
    await openSettings(phone);
    // Automatic follows the system, here dark.
    expect(await rootAttr(phone, 'data-color-scheme')).toBe('dark');
    for (const section of [
      'Profile',
      'Account & privacy',
      'Preferences',
      'Notifications',
      'Muted users',
      'Alert words',
    ]) {
      await overlay(phone).getByRole('button', { name: section, exact: true }).click();
      await expect
        .poll(() => overlay(phone).locator('.settings-panel-title').textContent(), WAIT)
        .toBe(section);
      expect(await scrollsSideways(phone)).toBe(false);
      await chatShot(phone, `settings-phone-dark-${section.replace(/\W+/g, '-').toLowerCase()}`);
    }
    await phone.close();
  });

  it('had no script errors or failed requests but the refusal the test provoked', () => {
    const all = errors.flat();
    const provoked = all.filter((e) => /^400 .*\/api\/v1\/settings$/.test(e));
    expect(provoked).toHaveLength(1);
    expect(all.filter((e) => !provoked.includes(e))).toEqual([]);
  });
});
