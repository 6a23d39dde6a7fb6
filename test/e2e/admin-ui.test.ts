/**
 * The admin UI in headless Chromium against the real server: built from
 * renderer/, served under /admin/, talking tRPC over HTTP with the admin token.
 * The browser is the system's Chromium or the one packaged in
 * @sparticuz/chromium (see helpers/chromium.ts).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { CHROMIUM_ARGS, findChromium } from '../helpers/chromium.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

const TOKEN = 'e2e-admin-token-abcdefghijklmnop';
const SCREENSHOT = '/tmp/hearth-admin.png';

let t: TestServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  // Throws rather than skipping when there is no browser: never pass silently.
  const { executablePath, source, env } = await findChromium();
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN });
  browser = await chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
    env: { ...process.env, ...env },
  });
  console.log(`admin UI e2e: ${source} Chromium ${browser.version()} at ${executablePath}`);
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  // Failed loads are checked by status below: 400s from /trpc are the domain errors provoked here.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      pageErrors.push(msg.text());
    }
  });
  page.on('response', (response) => {
    const expected =
      response.status() === 400 && new URL(response.url()).pathname.startsWith('/trpc/');
    if (response.status() >= 400 && !expected) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const rows = () => page.locator('#users-table tbody tr');
const row = (name: string) => rows().filter({ hasText: name });
const text = async (locator: Locator) => (await locator.textContent()) ?? '';
/** The status and type columns of a user's row. */
const statusOf = (name: string) => text(row(name).locator('td').nth(3));
const typeOf = (name: string) => text(row(name).locator('td').nth(4));

describe('serving /admin/', () => {
  it('serves the built page, its script and stylesheet with a strict CSP', async () => {
    const index = await fetch(`${t.url}/admin/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await index.text()).toContain('<script src="app.js"');
    const script = await fetch(`${t.url}/admin/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${t.url}/admin/styles.css`)).status).toBe(200);
  });

  it('redirects /admin to /admin/ and serves nothing outside the build', async () => {
    const bare = await fetch(`${t.url}/admin`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/admin/');
    for (const bad of [
      '/admin/nope.js',
      '/admin/..%2Fpackage.json',
      '/admin/.hidden',
      '/admin/.build-inputs.json',
    ]) {
      expect((await fetch(t.url + bad)).status, bad).toBe(404);
    }
  });
});

describe('the admin UI in a browser', () => {
  it('shows the organization and the users table', async () => {
    await page.goto(`${t.url}/admin/#token=${TOKEN}`);
    await expect.poll(() => rows().count()).toBe(6);
    // The token leaves the address bar once read.
    expect(new URL(page.url()).hash).toBe('');
    await expect.poll(() => text(page.locator('#organization'))).toContain('Test Org');
    const org = await text(page.locator('#organization'));
    expect(org).toContain(t.url);
    expect(org).toContain('owner@example.com');
    expect(org).toContain('import zulip');
    expect(await typeOf('Test Bot')).toBe('Generic bot');
    expect(await typeOf('Gus Guest')).toBe('Human');
    expect(await statusOf('Gus Guest')).toBe('Active');
    expect(await row('Gus Guest').locator('select').inputValue()).toBe('600');
  });

  it('creates a user through the form, with a role, visible over the HTTP API', async () => {
    await page.click('#add-user');
    await page.fill('#add-user-form input[name=full_name]', 'Uma Interface');
    await page.fill('#add-user-form input[name=email]', 'uma@example.com');
    await page.fill('#add-user-form input[name=password]', 'a password for uma');
    await page.selectOption('#add-user-form select[name=role]', '300');
    await page.click('#add-user-form button[type=submit]');
    await expect.poll(() => row('Uma Interface').count()).toBe(1);
    await expect.poll(() => text(page.locator('.alert-success'))).toContain('Created');

    const http = await t.as('admin').get('/users');
    const uma = http.body.members.find(
      (u: { full_name: string }) => u.full_name === 'Uma Interface',
    );
    expect(uma).toMatchObject({ role: 300, is_active: true, delivery_email: 'uma@example.com' });
    const login = await t.anonymous().post('/fetch_api_key', {
      username: 'uma@example.com',
      password: 'a password for uma',
    });
    expect(login.status).toBe(200);
  });

  it("shows the domain's message inline when creation fails", async () => {
    await page.click('#add-user');
    await page.fill('#add-user-form input[name=full_name]', 'Mel Again');
    await page.fill('#add-user-form input[name=email]', 'member@example.com');
    await page.fill('#add-user-form input[name=password]', 'whatever');
    await page.click('#add-user-form button[type=submit]');
    const alert = page.locator('#add-user-form .alert-error');
    await expect.poll(() => text(alert)).toBe("Email 'member@example.com' already in use");
    expect(await row('Mel Again').count()).toBe(0);
    await page.click('#add-user'); // close the form
  });

  it('changes a role from the table', async () => {
    await row('Mel Member').locator('select').selectOption('200');
    await expect
      .poll(async () => (await t.as('owner').get(`/users/${t.accounts.member.id}`)).body.user.role)
      .toBe(200);
    await row('Mel Member').locator('select').selectOption('400');
    await expect
      .poll(async () => (await t.as('owner').get(`/users/${t.accounts.member.id}`)).body.user.role)
      .toBe(400);
  });

  it('refuses to demote the only owner, saying why', async () => {
    await row('Olivia Owner').locator('select').selectOption('400');
    await expect
      .poll(() => text(page.locator('#users > .alert-error')))
      .toContain('The owner permission cannot be removed from the only organization owner.');
    expect(await row('Olivia Owner').locator('select').inputValue()).toBe('100');
  });

  it('deactivates and reactivates a user', async () => {
    await row('Mo Moderator').getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => statusOf('Mo Moderator')).toBe('Deactivated');
    expect((await t.as('owner').get(`/users/${t.accounts.moderator.id}`)).body.user.is_active).toBe(
      false,
    );
    await row('Mo Moderator').getByRole('button', { name: 'Reactivate' }).click();
    await expect.poll(() => statusOf('Mo Moderator')).toBe('Active');
    expect((await t.as('owner').get(`/users/${t.accounts.moderator.id}`)).body.user.is_active).toBe(
      true,
    );
  });

  it('creates a bot and shows its API key once', async () => {
    await page.click('#add-bot');
    await page.fill('#add-bot-form input[name=bot_full_name]', 'Build Bot');
    await page.fill('#add-bot-form input[name=short_name]', 'build');
    await page.click('#add-bot-form button[type=submit]');
    const key = page.locator('#new-bot-key');
    await expect.poll(() => key.count()).toBe(1);
    const apiKey = await text(key);
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await text(page.locator('.created-key'))).toContain('build-bot@test.hearth');
    await expect.poll(() => row('Build Bot').count()).toBe(1);
    expect(await rows().allTextContents()).not.toContainEqual(expect.stringContaining(apiKey));

    const me = await new ApiClient(t.url, { email: 'build-bot@test.hearth', apiKey }).get(
      '/users/me',
    );
    expect(me.body).toMatchObject({ is_bot: true, full_name: 'Build Bot' });
  });

  it('looks right (screenshot) and logged no errors', async () => {
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('says so when the token is wrong or missing', async () => {
    const other = await browser.newPage();
    await other.goto(`${t.url}/admin/#token=not-the-token`);
    await expect.poll(() => text(other.locator('h2').first())).toBe('Admin token not accepted');
    const none = await browser.newPage();
    await none.goto(`${t.url}/admin/`);
    await expect.poll(() => text(none.locator('h2').first())).toBe('Admin link needed');
    await other.close();
    await none.close();
  });
});
