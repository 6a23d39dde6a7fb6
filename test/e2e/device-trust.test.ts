/**
 * How devices come to trust a LAN server, in headless Chromium: the admin
 * UI's Network page and the chat's log-in page of a server in LAN mode
 * (listening on every interface; the browser talks to it over loopback, as
 * the desktop window does), at 1280 px, 360 px and in dark mode.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-device-trust-token-abcdefghijk';

let t: TestServer;
let browser: Browser;
let local: string;
let fingerprint: string;
let setupUrl: string;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN, host: '0.0.0.0' });
  local = t.server.localUrl;
  fingerprint = new X509Certificate(readFileSync(path.join(t.dataDir, 'tls', 'ca.crt')))
    .fingerprint256;
  setupUrl = `${t.server.url.replace(/^https:/, 'http:')}/tls/`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const views = [
  { name: '1280px-light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  { name: '360px-light', viewport: { width: 360, height: 800 }, colorScheme: 'light' },
  { name: '1280px-dark', viewport: { width: 1280, height: 900 }, colorScheme: 'dark' },
] as const;

describe('the Network page', { timeout: 60_000 }, () => {
  for (const view of views) {
    it(`offers the authority, its fingerprint, the steps and a QR code (${view.name})`, async () => {
      const { page, errors } = await openPage(browser, {
        viewport: view.viewport,
        colorScheme: view.colorScheme,
      });
      await page.goto(`${local}/admin/network#token=${TOKEN}`);
      const card = page.locator('#device-trust');
      await card.waitFor();
      expect(await card.locator('#tls-fingerprint').textContent()).toBe(fingerprint);
      expect(await card.locator('#download-crt').getAttribute('href')).toBe(`${setupUrl}ca.crt`);
      expect(await card.locator('#download-mobileconfig').getAttribute('href')).toBe(
        `${setupUrl}hearth.mobileconfig`,
      );
      expect(await card.locator('.qr-code svg').isVisible()).toBe(true);
      expect(await card.textContent()).toMatch(/Android.*Install a certificate/);
      // LAN mode: the URLs are https, and there is no clear-text warning.
      expect(await page.locator('#client-urls li').first().textContent()).toContain(t.server.url);
      expect(await page.locator('#clear-text-warning').count()).toBe(0);
      await page.locator('#network-form').getByLabel('Serve the local network (LAN)').check();
      expect(await page.locator('#https-note').textContent()).toContain('HTTPS');
      expect(await page.locator('#own-certificate').isVisible()).toBe(true);
      await page.waitForLoadState('networkidle');
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `device-trust-network-${view.name}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

describe('the chat’s log-in page', { timeout: 60_000 }, () => {
  for (const view of views) {
    it(`tells how other devices trust the server (${view.name})`, async () => {
      const { page, errors } = await openPage(browser, {
        viewport: view.viewport,
        colorScheme: view.colorScheme,
      });
      await page.goto(`${local}/`);
      const trust = page.locator('#trust-this-server');
      await trust.waitFor();
      await trust.locator('summary').click();
      expect(await trust.locator('.trust-fingerprint').textContent()).toBe(fingerprint);
      expect(await trust.getByRole('link', { name: setupUrl }).getAttribute('href')).toBe(setupUrl);
      expect(await trust.getByRole('link', { name: /Certificate/ }).getAttribute('href')).toBe(
        '/tls/ca.crt',
      );
      const qr = trust.getByRole('img', { name: 'QR code of the setup page' });
      await expect
        .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
        .toBeGreaterThan(0);
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `device-trust-login-${view.name}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
