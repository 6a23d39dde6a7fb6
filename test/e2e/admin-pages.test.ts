/**
 * The Network, Backups, Log and Custom emoji pages in headless Chromium
 * against the real server (no desktop app: the browser's admin UI), each
 * action checked through the REST API or the files it writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-admin-pages-token-abcdefghijk';

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
  ({ page, errors } = await openPage(browser));
  await page.goto(`${t.url}/admin/#token=${TOKEN}`);
  await page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

function heading() {
  return page.getByRole('heading', { level: 1 }).textContent();
}
const goTo = async (label: string, title = label) => {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  await expect.poll(heading, WAIT).toBe(title);
};

const lobbyContents = async () => {
  const answer = await t.as('owner').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: JSON.stringify([{ operator: 'channel', operand: lobby }]),
    apply_markdown: false,
  });
  expect(answer.body.result).toBe('success');
  return (answer.body.messages as { content: string }[]).map((m) => m.content);
};

describe('Network', { timeout: 60_000 }, () => {
  it('says plainly that a command-line server listens where its command line says', async () => {
    await goTo('Network');
    // This server was started without the desktop app (as `npm start` starts it).
    const notice = page.locator('#command-line-notice');
    await expect
      .poll(() => notice.getByRole('heading').textContent(), WAIT)
      .toBe("This server's address comes from its command line");
    const command = () => notice.locator('.command code').textContent();
    expect(await command()).toBe(`npm start -- --port ${t.server.port}`);
    expect(await page.locator('#client-urls li').first().textContent()).toContain(t.url);
    // No QR code sending phones to 127.0.0.1: it says why instead.
    expect(await page.locator('.qr-code').count()).toBe(0);
    expect(await page.locator('#qr-unreachable').textContent()).toContain('this computer only');
    await screenshot(page, 'network-command-line');
  });

  it('turns LAN on with the clear-text warning; says the command line decides', async () => {
    const form = page.locator('#network-form');
    expect(await page.locator('#clear-text-warning').count()).toBe(0);
    expect(await form.getByLabel('Network interface').count()).toBe(0);

    await form.getByLabel('Serve the local network (LAN)').check();
    expect(await page.locator('#https-note').textContent()).toContain('HTTPS');
    expect(await page.locator('#clear-text-warning').count()).toBe(0);
    await form.getByLabel('Network interface').selectOption('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe(
        'Saved for the desktop app. This server keeps the address its command line gave it: start it again with the command above to change it.',
      );
    const saved = JSON.parse(readFileSync(path.join(t.dataDir, 'desktop-settings.json'), 'utf8'));
    expect(saved).toMatchObject({ lan: true });
    // The command to serve what was saved.
    await expect
      .poll(() => page.locator('#command-line-notice .command code').textContent(), WAIT)
      .toBe(`npm start -- --host 0.0.0.0 --port ${t.server.port}`);
    // Saved, not applied: the running server still serves this machine only.
    const settings = await t.as('owner').get('/server_settings');
    expect(settings.body.realm_url).toBe(t.url);
    expect(await form.getByLabel('Serve the local network (LAN)').isChecked()).toBe(true);
  });

  it('shows the server’s error beside the external URL', async () => {
    const form = page.locator('#network-form');
    await form.getByLabel('External URL').fill('ftp://nope');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.locator('.field-error, .alert-error').count(), WAIT).toBe(1);
    expect(await form.locator('.field-error').textContent()).toContain('invalid external URL');
    await form.getByLabel('External URL').fill('');
    await form.getByLabel('Serve the local network (LAN)').uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.locator('.alert-success').isVisible(), WAIT).toBe(true);
    const saved = JSON.parse(readFileSync(path.join(t.dataDir, 'desktop-settings.json'), 'utf8'));
    expect(saved).toMatchObject({ lan: false });
  });
});

describe('Backups', { timeout: 90_000 }, () => {
  it('backs up with a progress bar, and restores after a confirmation', async () => {
    await sendToChannel(t, 'owner', lobby, 'history', 'before the backup');
    await goTo('Backups');
    // Folders open only in the desktop app.
    expect(await page.getByRole('button', { name: 'Open data folder' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect
      .poll(() => page.locator('#backup-status').textContent(), WAIT)
      .toMatch(/^Backed up to hearth-backup-.*\.sqlite\.$/);
    await expect.poll(() => page.locator('#backups li').count(), WAIT).toBe(1);
    const listed = await page.locator('#backups li').first().textContent();
    expect(listed).not.toContain('automatic');

    await sendToChannel(t, 'owner', lobby, 'history', 'after the backup');
    expect(await lobbyContents()).toEqual(['before the backup', 'after the backup']);

    await page
      .locator('#backups li')
      .first()
      .getByRole('button', { name: /^Restore/ })
      .click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Restore this backup?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page
      .locator('#backups li')
      .first()
      .getByRole('button', { name: /^Restore/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await expect
      .poll(() => page.locator('#backup-status').textContent(), { timeout: 60_000 })
      .toMatch(/^Restored the backup of /);
    // The server restarted on the backup: the later message is gone, and the UI works on.
    expect(await lobbyContents()).toEqual(['before the backup']);
    await expect.poll(() => page.locator('#backups li').count(), WAIT).toBe(1);
    await goTo('Server status');
    await expect.poll(() => page.locator('#server-status').isVisible(), WAIT).toBe(true);
  });

  it('saves the automatic-backup settings; refuses a relative folder', async () => {
    await goTo('Backups');
    const form = page.locator('#backup-settings-form');
    await form.getByLabel('Back up every day').check();
    await form.getByLabel('At').selectOption('4');
    await form.getByLabel('Keep').fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Saved. A backup runs daily at 04:00.');
    const saved = JSON.parse(readFileSync(path.join(t.dataDir, 'backup-settings.json'), 'utf8'));
    expect(saved).toMatchObject({ enabled: true, hour: 4, keep: 3 });

    await form.getByLabel('Folder').fill('relative/folder');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.locator('.alert-error, .field-error').count(), WAIT).toBe(1);
    const after = JSON.parse(readFileSync(path.join(t.dataDir, 'backup-settings.json'), 'utf8'));
    expect(path.isAbsolute(after.folder)).toBe(true);
  });

  it('removes a backup after a confirmation', async () => {
    const before = await page.locator('#backups li').count();
    const file = (await page.locator('#backups li .visually-hidden').first().textContent())!.trim();
    await page
      .locator('#backups li')
      .first()
      .getByRole('button', { name: /^Remove/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.locator('#backups li').count(), WAIT).toBe(before - 1);
    expect(existsSync(path.join(t.dataDir, 'backups', file))).toBe(false);
  });
});

describe('Log', { timeout: 60_000 }, () => {
  it('shows the recent log with the request log, and refreshes', async () => {
    await goTo('Log');
    await expect
      .poll(() => page.locator('#log').textContent(), WAIT)
      .toContain('Hearth listening on');
    await t.as('owner').get('/users/me');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => page.locator('#log').textContent(), WAIT)
      .toContain('GET /api/v1/users/me 200');
  });
});

describe('Custom emoji', { timeout: 60_000 }, () => {
  it('uploads an emoji that GET /realm/emoji then lists, with its image', async () => {
    await goTo('Custom emoji');
    const png = await sharp({
      create: { width: 80, height: 80, channels: 4, background: '#e4572e' },
    })
      .png()
      .toBuffer();
    const form = page.locator('#add-emoji-form');
    await form.getByLabel('Name').fill('hearth_fire');
    await form
      .getByLabel('Image')
      .setInputFiles({ name: 'fire.png', mimeType: 'image/png', buffer: png });
    await form.getByRole('button', { name: 'Add emoji' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Added :hearth_fire:.');
    const listed = Object.values(
      (await t.as('member').get('/realm/emoji')).body.emoji as Record<
        string,
        { name: string; deactivated: boolean; author_id: number; source_url: string }
      >,
    );
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'hearth_fire',
        deactivated: false,
        author_id: t.accounts.owner.id,
      }),
    ]);
    const image = page.locator('#emoji-list li', { hasText: ':hearth_fire:' }).locator('img');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
      .toBe(64);
  });

  it('shows the server’s errors next to the field', async () => {
    const form = page.locator('#add-emoji-form');
    await form.getByLabel('Name').fill('hearth_fire');
    await form.getByLabel('Image').setInputFiles({
      name: 'again.png',
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    });
    await form.getByRole('button', { name: 'Add emoji' }).click();
    await expect
      .poll(
        () => form.locator('.field', { hasText: 'Name' }).locator('.field-error').textContent(),
        WAIT,
      )
      .toBe('A custom emoji with this name already exists.');
    await form.getByLabel('Name').fill('not_an_image');
    await form.getByLabel('Image').setInputFiles({
      name: 'a.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await form.getByRole('button', { name: 'Add emoji' }).click();
    await expect
      .poll(
        () => form.locator('.field', { hasText: 'Image' }).locator('.field-error').count(),
        WAIT,
      )
      .toBe(1);
    const names = Object.values((await t.as('owner').get('/realm/emoji')).body.emoji).map(
      (e) => (e as { name: string }).name,
    );
    expect(names).toEqual(['hearth_fire']);
  });

  it('deactivates after a confirmation', async () => {
    await page
      .locator('#emoji-list li', { hasText: ':hearth_fire:' })
      .getByRole('button', { name: /^Deactivate/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => page.locator('#emoji-list li').count(), WAIT).toBe(0);
    const emoji = Object.values((await t.as('owner').get('/realm/emoji')).body.emoji);
    expect(emoji).toEqual([expect.objectContaining({ name: 'hearth_fire', deactivated: true })]);
    expect(errors).toEqual([]);
  });
});

describe('at 420 px and in dark mode', { timeout: 90_000 }, () => {
  const pages = [
    ['/network', 'Network'],
    ['/backups', 'Backups'],
    ['/logs', 'Log'],
    ['/emoji', 'Custom emoji'],
    ['/status', 'Server status'],
  ] as const;

  for (const scheme of ['light', 'dark'] as const) {
    it(`never scrolls sideways (${scheme})`, async () => {
      const narrow = await openPage(browser, {
        viewport: { width: 420, height: 800 },
        colorScheme: scheme,
      });
      await narrow.page.goto(`${t.url}/admin/#token=${TOKEN}`);
      await expect
        .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
        .toBe('Organization');
      for (const [where, title] of pages) {
        await narrow.page.goto(`${t.url}/admin${where}`);
        await expect
          .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
          .toBe(title);
        await narrow.page.waitForLoadState('networkidle');
        expect(await scrollsSideways(narrow.page), `${where} (${scheme})`).toBe(false);
        await screenshot(narrow.page, `420px-${scheme}-${where.slice(1)}`);
      }
      expect(narrow.errors).toEqual([]);
    });
  }
});
