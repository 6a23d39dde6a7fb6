/**
 * Shared by the admin UI's browser tests: a headless Chromium (see
 * helpers/chromium.ts), pages that record every script error and unexpected
 * failed request, and where screenshots go.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../helpers/chromium.js';

/** Screenshots, kept after the run for a person to look at. */
export const ARTIFACTS = path.join(os.tmpdir(), 'hearth-admin-screenshots');

export async function launchBrowser(): Promise<Browser> {
  // Throws rather than skipping when there is no browser: never pass silently.
  const { executablePath, env } = await findChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, env: { ...process.env, ...env } });
}

export interface WatchedPage {
  page: Page;
  /** Script errors, console errors and failed requests other than the domain's 4xx from /trpc. */
  errors: string[];
}

export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  // An action that cannot happen fails with its reason before the test's own timeout.
  context.setDefaultTimeout(8_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      errors.push(msg.text());
    }
  });
  page.on('response', (response) => {
    // The domain's refusals (400, 401, 403, 404, 409) are what some tests provoke.
    const expected =
      response.status() < 500 && new URL(response.url()).pathname.startsWith('/trpc/');
    if (response.status() >= 400 && !expected) {
      errors.push(`${response.status()} ${response.url()}`);
    }
  });
  return { page, errors };
}

/** How long expect.poll waits: password hashing and re-fetches take a while on a busy machine. */
export const WAIT = { timeout: 10_000 };

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

/** Whether the page scrolls sideways (wider than its window). */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
