/**
 * The desktop's first run in a browser: a data directory without an
 * organization, the wizard, then the admin UI logged in as the new owner.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { ensureOrganization } from '../../server/bootstrap.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { ApiClient } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, WAIT } from './browser.js';

const TOKEN = 'e2e-setup-token-abcdefghijklmnop';

let dataDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await ensureRenderer();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-setup-'));
  server = await createServer({ dataDir, port: 0, rateLimit: false, adminToken: TOKEN });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const field = (label: string) => page.getByLabel(label, { exact: true });
const errorOf = (label: string) =>
  page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');

describe('first run', () => {
  it('creates nothing at start when the desktop defers to the wizard', async () => {
    const boot = await ensureOrganization(server, { demo: false, deferToWizard: true });
    expect(boot).toMatchObject({ needsSetup: true, created: false });
    expect(existsSync(server.zuliprcPath)).toBe(false);
    // Zulip clients arriving early get a JSON answer saying why, not a crash.
    const early = await fetch(`${server.url}/api/v1/server_settings`);
    expect(early.status).toBe(503);
    expect(await early.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('shows the wizard, with each refusal next to its field', async () => {
    await page.goto(`${server.url}/admin/#token=${TOKEN}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Set up your organization');
    await field('Organization name').fill('Riverside Makers');
    await field('Your name').fill('Rhea Owner');
    await field('E-mail').fill('rhea@example.org');
    // The rule is under the field before anything is typed.
    const hint = page.locator('.field', { has: field('Password') }).locator('.field-hint');
    expect(await hint.textContent()).toMatch(/^6 to 100 characters, and hard to guess/);
    for (const weak of ['short', 'rhea@example.org']) {
      await field('Password').fill(weak);
      await field('Password again').fill(weak);
      await page.getByRole('button', { name: 'Create organization' }).click();
      // The answer is in once the button is back from "Creating…".
      await expect
        .poll(() => page.getByRole('button', { name: 'Create organization' }).count(), WAIT)
        .toBe(1);
      await expect
        .poll(() => errorOf('Password').textContent(), WAIT)
        .toBe('The password is too weak.');
      expect(await field('Password').getAttribute('aria-invalid')).toBe('true');
    }
    await screenshot(page, 'setup-wizard-weak-password');

    await field('Password').fill('a long enough password');
    await field('Password again').fill('a different password');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect
      .poll(() => errorOf('Password again').textContent(), WAIT)
      .toBe('The two passwords differ.');
    expect(await errorOf('Password').count()).toBe(0);

    await field('E-mail').fill('not an address');
    await field('Password again').fill('a long enough password');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect
      .poll(() => errorOf('E-mail').textContent(), WAIT)
      .toBe('“not an address” is not a valid e-mail address.');
    await screenshot(page, 'setup-wizard-error');
  });

  it('completes into the admin UI as the new owner, whose password logs in', async () => {
    await field('E-mail').fill('rhea@example.org');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Organization');
    await expect
      .poll(() => page.locator('#organization').textContent(), WAIT)
      .toContain('Rhea Owner');
    expect(await page.locator('.topbar-org').textContent()).toBe('Riverside Makers');
    expect(await page.locator('#organization').textContent()).toContain(server.url);

    const login = await new ApiClient(server.url, null).post('/fetch_api_key', {
      username: 'rhea@example.org',
      password: 'a long enough password',
    });
    expect(login.status).toBe(200);
    // The one generated secret, the API key, is written down at once.
    const zuliprc = readFileSync(server.zuliprcPath, 'utf8');
    expect(zuliprc).toContain(`key=${login.body.api_key}`);
    expect(zuliprc).toContain(`site=${server.url}`);
    const me = await new ApiClient(server.url, {
      email: 'rhea@example.org',
      apiKey: login.body.api_key,
    }).get('/users/me');
    expect(me.body).toMatchObject({ full_name: 'Rhea Owner', role: 100 });
    await screenshot(page, 'setup-done');
  });

  it('does not offer the wizard again, and refuses a second setup', async () => {
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Organization');
    const boot = await ensureOrganization(server, { demo: false, deferToWizard: true });
    expect(boot.created).toBe(false);
    expect('needsSetup' in boot).toBe(false);
    expect(errors).toEqual([]);
  });
});
