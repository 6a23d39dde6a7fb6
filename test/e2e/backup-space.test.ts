/**
 * The Backups page when disks run out of room: the data disk nearly full
 * (a warning), then full with automatic backups paused (errors, with the
 * reason). The thresholds are moved around the machine's real free space;
 * nothing fills a disk. Screenshots at 1280 and 360 px, light and dark.
 */
import { statfsSync } from 'node:fs';
import os from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { backupsOf } from '../../server/backup/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-backup-space-token-abcdefghij';
const GIB = 1024 ** 3;
const free = () => {
  const stats = statfsSync(os.tmpdir());
  return stats.bavail * stats.bsize;
};
// Read by the server at each check: the test moves them.
const thresholds = { lowBytes: free() + 10 * GIB, criticalBytes: 1 };

let t: TestServer;
let browser: Browser;
const clock = new Date(2026, 10, 20, 12, 0).getTime();

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN, diskSpace: thresholds, now: () => clock });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function backupsPage(width: number, scheme: 'light' | 'dark') {
  const watched = await openPage(browser, {
    viewport: { width, height: 900 },
    colorScheme: scheme,
  });
  await watched.page.goto(`${t.url}/admin/#token=${TOKEN}`);
  await watched.page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
  await watched.page.goto(`${t.url}/admin/backups`);
  await expect
    .poll(() => watched.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
    .toBe('Backups');
  await watched.page.locator('#backup-estimate').waitFor();
  return watched;
}

const views = [
  [1280, 'light'],
  [360, 'light'],
  [1280, 'dark'],
  [360, 'dark'],
] as const;

describe('Backups page and disk space', { timeout: 90_000 }, () => {
  it('warns when the data disk is nearly full, and says what a backup takes', async () => {
    for (const [width, scheme] of views) {
      const { page, errors } = await backupsPage(width, scheme);
      const warning = page.locator('#disk-space-warning');
      expect(await warning.textContent()).toMatch(
        /^The disk holding Hearth's data is nearly full: [\d.]+ GiB free of [\d.]+ GiB\. Free some space, or keep backups on another disk\.$/,
      );
      expect(await warning.getAttribute('class')).toBe('alert alert-warning');
      expect(await page.locator('#backups-paused').count()).toBe(0);
      // The backup folder is on the same disk: one warning, not two.
      expect(await page.locator('#backup-disk-warning').count()).toBe(0);
      expect(await page.locator('#backup-estimate').textContent()).toMatch(
        /^A backup now takes about [\d.]+ (KiB|MiB); [\d.]+ GiB free there\.$/,
      );
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `backups-disk-low-${width}-${scheme}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('shows the disk full and automatic backups paused, with the reason', async () => {
    thresholds.criticalBytes = free() + 10 * GIB;
    thresholds.lowBytes = thresholds.criticalBytes * 2;
    const backups = backupsOf(t.server.ctx);
    await backups.updateSettings({ enabled: true });
    expect(await backups.runDue()).not.toBeNull();
    await backups.idle();
    for (const [width, scheme] of views) {
      const { page, errors } = await backupsPage(width, scheme);
      expect(await page.locator('#disk-space-warning').textContent()).toMatch(
        /^The disk holding Hearth's data is full: .* Sends and uploads may fail; free some space now\.$/,
      );
      expect(await page.locator('#disk-space-warning').getAttribute('class')).toBe(
        'alert alert-error',
      );
      expect(await page.locator('#backups-paused').textContent()).toMatch(
        /^Automatic backups are paused since .+\. Not enough free space for a backup: it needs about [\d.]+ [MG]iB/,
      );
      expect(await page.locator('#backups li').count()).toBe(0);
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `backups-disk-full-${width}-${scheme}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
