/**
 * "Move to Zulip Server" in the admin UI and the first-run wizard's
 * "Import from Zulip", in headless Chromium against the real server:
 * an export with its progress and download, the runbook; an import from a
 * Zulip export into a server with no organization yet, which restarts on
 * it and shows the imported organization.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-move-to-zulip-token-abcdefghij';
const FIXTURE = path.resolve(__dirname, '../fixtures/zulip-exports/zulip-12-full');

let browser: Browser;
beforeAll(async () => {
  await ensureRenderer();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

describe('Move to Zulip Server', { timeout: 90_000 }, () => {
  let t: TestServer;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    t = await startTestServer({ adminToken: TOKEN });
    ({ page, errors } = await openPage(browser));
    await page.goto(`${t.url}/admin/#token=${TOKEN}`);
    await page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exports with progress, offers the download and shows the runbook', async () => {
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Move to Zulip Server', exact: true })
      .click();
    await expect.poll(() => heading(page), WAIT).toBe('Move to Zulip Server');
    expect(await page.locator('#zulip-runbook').textContent()).toContain(
      'do_common_export_processes',
    );
    expect(await page.locator('#zulip-not-transferred').textContent()).toContain('passwords');
    await page.getByRole('button', { name: 'Export for Zulip Server' }).click();
    const download = page.locator('#zulip-exports li').getByRole('link', { name: /^Download/ });
    await expect.poll(() => download.count(), { timeout: 30_000 }).toBe(1);
    const href = await download.getAttribute('href');
    const res = await fetch(href!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/gzip/);
    await screenshot(page, 'move-to-zulip-1280');
    expect(errors).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`never scrolls sideways at 360 px (${scheme})`, async () => {
      const narrow = await openPage(browser, {
        viewport: { width: 360, height: 800 },
        colorScheme: scheme,
      });
      await narrow.page.goto(`${t.url}/admin/#token=${TOKEN}`);
      await expect.poll(() => heading(narrow.page), WAIT).toBe('Organization');
      await narrow.page.goto(`${t.url}/admin/zulip`);
      await expect.poll(() => heading(narrow.page), WAIT).toBe('Move to Zulip Server');
      await narrow.page.waitForLoadState('networkidle');
      await screenshot(narrow.page, `move-to-zulip-360-${scheme}`);
      const wide = await narrow.page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter(
            (el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
          )
          .slice(0, 5)
          .map(
            (el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`,
          ),
      );
      expect(await scrollsSideways(narrow.page), wide.join('; ')).toBe(false);
      await screenshot(narrow.page, `move-to-zulip-360-${scheme}`);
      expect(narrow.errors).toEqual([]);
    });
  }
});

describe('first run: Import from Zulip', { timeout: 90_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-import-'));
    server = await createServer({
      dataDir,
      port: 0,
      rateLimit: false,
      adminToken: TOKEN,
      logFile: false,
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports the export, restarts on it and shows the organization', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/admin/#token=${TOKEN}`);
    await expect.poll(() => heading(page), WAIT).toBe('Set up your organization');
    const form = page.getByRole('form', { name: 'Import from Zulip' });
    await form
      .getByLabel('Zulip export (folder or .tar.gz)')
      .fill(path.join(dataDir, 'nothing-here'));
    await form.getByLabel("Owner's new password").fill('a good password');
    await form.getByLabel("Owner's password again").fill('a good password');
    await form.getByRole('button', { name: 'Import from Zulip' }).click();
    await expect
      .poll(() => form.locator('.field-error').first().textContent(), WAIT)
      .toContain('does not exist');
    await screenshot(page, 'import-from-zulip-error');

    await form.getByLabel('Zulip export (folder or .tar.gz)').fill(FIXTURE);
    await form.getByRole('button', { name: 'Import from Zulip' }).click();
    await expect.poll(() => heading(page), { timeout: 60_000 }).toBe('Organization');
    await expect.poll(() => page.locator('.topbar-org').textContent(), WAIT).toBe('Acme');
    await screenshot(page, 'import-from-zulip-done');
    expect(errors.filter((e) => !/Failed to fetch|ERR_CONNECTION|fetch/.test(e))).toEqual([]);
  });
});
