/**
 * The Linkifiers and Invitations pages and the Channels page's default
 * channels, in headless Chromium against the real server; each action is
 * checked through the REST API, and an invitation link is followed to the
 * sign-up page it opens. Screenshots at 1280 px, 360 px and in dark mode.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-admin-invitations-token-abcdefg';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let lobby: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN });
  lobby = createChannel(t, { name: 'lobby', subscribers: [t.accounts.owner.id] });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } }));
  await page.goto(`${t.url}/admin/#token=${TOKEN}`);
  await page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = () => page.getByRole('heading', { level: 1 }).textContent();
const goTo = async (label: string) => {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  await expect.poll(heading, WAIT).toBe(label);
};
const linkifiers = async () =>
  (await t.as('member').get('/realm/linkifiers')).body.linkifiers as Array<{
    id: number;
    pattern: string;
    url_template: string;
  }>;

describe('Linkifiers', { timeout: 60_000 }, () => {
  it('adds, reorders and removes linkifiers; shows the server’s errors', async () => {
    await goTo('Linkifiers');
    const form = page.locator('#add-linkifier-form');
    await form.getByLabel('Pattern').fill('#(?P<id>[0-9]+)');
    await form.getByLabel('URL template').fill('https://tracker.example/issues/{id}');
    await form.getByRole('button', { name: 'Add linkifier' }).click();
    await expect.poll(() => form.locator('.alert-success').textContent(), WAIT).toContain('Added');
    await expect.poll(async () => (await linkifiers()).length, WAIT).toBe(1);

    await form.getByLabel('Pattern').fill('T-(?P<id>[0-9]+)');
    await form.getByLabel('URL template').fill('https://tracker.example/{ticket}');
    await form.getByRole('button', { name: 'Add linkifier' }).click();
    await expect
      .poll(() => form.locator('.field-error, .alert-error').first().textContent(), WAIT)
      .toContain("Group 'ticket' in URL template is not present in linkifier pattern.");
    await form.getByLabel('URL template').fill('https://tracker.example/t/{id}');
    await form.getByRole('button', { name: 'Add linkifier' }).click();
    await expect.poll(async () => (await linkifiers()).length, WAIT).toBe(2);
    await screenshot(page, 'linkifiers-1280');

    const [first, second] = await linkifiers();
    await page.getByRole('button', { name: `Up ${second!.pattern}` }).click();
    await expect
      .poll(async () => (await linkifiers()).map((l) => l.id), WAIT)
      .toEqual([second!.id, first!.id]);
    await page.getByRole('button', { name: `Remove ${first!.pattern}` }).click();
    await expect
      .poll(async () => (await linkifiers()).map((l) => l.id), WAIT)
      .toEqual([second!.id]);
    expect(await page.locator('#linkifiers li').count()).toBe(1);
  });
});

/** Register's realm_default_streams, as a member's client sees them. */
const defaultChannels = async () =>
  (await t.as('member').post('/register', { fetch_event_types: ['default_streams'] })).body
    .realm_default_streams;

describe('Channels: default channels', { timeout: 60_000 }, () => {
  it('ticks a channel as default for new people', async () => {
    await goTo('Channels');
    const box = page.getByLabel('Default for new people: #lobby');
    await box.click();
    await expect.poll(defaultChannels, WAIT).toEqual([lobby]);
    await box.click();
    await expect.poll(defaultChannels, WAIT).toEqual([]);
    await box.click();
  });
});

describe('Invitations', { timeout: 90_000 }, () => {
  it('creates a link to copy, which opens a sign-up page that makes the account', async () => {
    await goTo('Invitations');
    const form = page.locator('#invite-link-form');
    await form.getByLabel('Joins as').selectOption('300');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('#invitations li').count(), WAIT).toBe(1);
    const url = (await page.locator('#invitations li code').first().textContent())!;
    expect(url).toMatch(new RegExp(`^${t.url}/join/[a-z2-7]{24}/$`));
    expect(await page.locator('#invitations li').first().textContent()).toContain('Moderator');
    await screenshot(page, 'invitations-1280');

    const signup = await openPage(browser, { viewport: { width: 360, height: 740 } });
    await signup.page.goto(url);
    await signup.page.getByRole('heading', { name: 'Join Test Org' }).waitFor();
    expect(await scrollsSideways(signup.page)).toBe(false);
    await screenshot(signup.page, 'signup-360');
    await signup.page.getByLabel('Email').fill('newcomer@example.com');
    await signup.page.getByLabel('Name').fill('Nia Newcomer');
    await signup.page.getByLabel('Password').fill('a long enough password');
    await signup.page.getByRole('button', { name: 'Create account' }).click();
    await signup.page.getByRole('heading', { name: 'Welcome to Test Org!' }).waitFor();
    await screenshot(signup.page, 'signup-done-360');
    const key = await t.anonymous().post('/fetch_api_key', {
      username: 'newcomer@example.com',
      password: 'a long enough password',
    });
    expect(key.status).toBe(200);
    const users = (await t.as('owner').get('/users')).body.members;
    expect(users.find((u: { full_name: string }) => u.full_name === 'Nia Newcomer').role).toBe(300);
    // Joined the default channel ticked above.
    const subs = await t.as('owner').get(`/users/${key.body.user_id}/subscriptions/${lobby}`);
    expect(subs.body.is_subscribed).toBe(true);
    expect(signup.errors).toEqual([]);
  });

  it('invites by address, shows each link, and revokes', async () => {
    const form = page.locator('#invite-email-form');
    await form.getByLabel('Addresses').fill('pat@example.com, sam@example.com');
    await form.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => page.locator('#invitations li').count(), WAIT).toBe(3);
    const text = await page.locator('#invitations').textContent();
    expect(text).toContain('pat@example.com');
    expect(text).toContain('/accounts/do_confirm/');
    await page
      .locator('#invitations li', { hasText: 'pat@example.com' })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await expect.poll(() => page.locator('#invitations li').count(), WAIT).toBe(2);
    const open = (await t.as('owner').get('/invites')).body.invites;
    expect(open.map((i: { email?: string }) => i.email ?? 'link').sort()).toEqual([
      'link',
      'sam@example.com',
    ]);
    expect(errors).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits 360 px (${scheme})`, async () => {
      const narrow = await openPage(browser, {
        viewport: { width: 360, height: 800 },
        colorScheme: scheme,
      });
      await narrow.page.goto(`${t.url}/admin/#token=${TOKEN}`);
      await expect
        .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
        .toBe('Organization');
      for (const [where, title] of [
        ['/invitations', 'Invitations'],
        ['/linkifiers', 'Linkifiers'],
        ['/channels', 'Channels'],
      ] as const) {
        await narrow.page.goto(`${t.url}/admin${where}`);
        await expect
          .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
          .toBe(title);
        await narrow.page.waitForLoadState('networkidle');
        expect(await scrollsSideways(narrow.page), `${where} (${scheme})`).toBe(false);
        await screenshot(narrow.page, `360px-${scheme}-${where.slice(1)}`);
      }
      expect(narrow.errors).toEqual([]);
    });
  }
});
