/**
 * The Integrations admin page in headless Chromium against the real server:
 * connecting a tool makes an incoming-webhook bot and shows the exact URL,
 * which works when the tool posts to it; the bot's last deliveries show
 * what became of each. Screenshots at 1280 px, 420 px and 360 px, light and
 * dark.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { payload, postedSince, watermark } from '../integrations/webhooks.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-integrations-token-abcdefghij';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let url = '';

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN });
  createChannel(t, { name: 'devel', subscribers: [t.accounts.owner.id, t.accounts.member.id] });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } }));
  await page.goto(`${t.url}/admin/#token=${TOKEN}`);
  await page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function postTo(target: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('Integrations', { timeout: 60_000 }, () => {
  it('connects GitLab: a new webhook bot, and the URL to paste', async () => {
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Integrations', exact: true })
      .click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Integrations');
    const form = page.locator('#connect-form');
    await form.getByLabel('Tool').selectOption({ label: 'GitLab' });
    expect(await form.getByLabel('Posts as').inputValue()).toBe('new');
    await form.getByLabel('New bot’s name').fill('Forge bot');
    await form.getByLabel('New bot’s username').fill('forge');
    await form.getByLabel('Channel').selectOption('devel');
    await form.getByText('Post only some events').click();
    await form.getByLabel('Push Hook', { exact: true }).check();
    expect(await form.locator('summary').textContent()).toBe('Post only some events (1 chosen)');
    await form.getByRole('button', { name: 'Show the URL' }).click();
    const shown = page.locator('#integration-url code');
    await expect.poll(() => shown.count(), WAIT).toBe(1);
    url = (await shown.textContent()) ?? '';
    expect(url).toMatch(
      new RegExp(
        `^${t.url.replaceAll('.', '\\.')}/api/v1/external/gitlab\\?api_key=[A-Za-z0-9]{32}&stream=devel&only_events=%5B%22Push%20Hook%22%5D$`,
      ),
    );
    expect(await page.locator('#integration-url').textContent()).toContain('Settings → Webhooks');
    // The new bot is an incoming-webhook bot owned by the owner, listed below.
    await expect.poll(() => page.locator('#webhook-bots tbody tr').count(), WAIT).toBe(1);
    expect(await page.locator('#webhook-bots').textContent()).toContain('Forge bot');
    expect(await form.getByLabel('Posts as').inputValue()).not.toBe('new');
    await screenshot(page, 'integrations-connected-1280px');
  });

  it('the URL works as shown, and the deliveries say what became of each', async () => {
    const since = await watermark(t);
    const push = await postTo(
      url,
      { 'X-Gitlab-Event': 'Push Hook' },
      payload('gitlab', 'push_hook'),
    );
    expect(push).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const mr = await postTo(
      url,
      { 'X-Gitlab-Event': 'Merge Request Hook' },
      payload('gitlab', 'merge_request_hook'),
    );
    expect(mr.body.result).toBe('success');
    const odd = await postTo(
      url,
      { 'X-Gitlab-Event': 'Feature Flag Hook' },
      { object_kind: 'feature_flag' },
    );
    expect(odd.body.code).toBe('UNSUPPORTED_WEBHOOK_EVENT_TYPE');
    const posted = await postedSince(t, since);
    expect(posted.map((m) => [m.channel, m.topic])).toEqual([['devel', 'harbour-api / main']]);

    await page.getByRole('button', { name: /Last deliveries/ }).click();
    const log = page.locator('[id^="deliveries-"] tbody tr');
    await expect.poll(() => log.count(), WAIT).toBe(3);
    const rows = await log.allTextContents();
    expect(rows[0]).toContain('Unsupported event');
    expect(rows[0]).toContain('Feature Flag Hook');
    expect(rows[1]).toContain('Nothing to post');
    expect(rows[1]).toContain('only_events');
    expect(rows[2]).toContain('Posted');
    expect(rows[2]).toContain('#devel > harbour-api / main');
    await screenshot(page, 'integrations-deliveries-1280px');
    expect(errors).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits narrow windows (${scheme})`, async () => {
      const narrow = await openPage(browser, {
        viewport: { width: 420, height: 900 },
        colorScheme: scheme,
      });
      await narrow.page.goto(`${t.url}/admin/integrations#token=${TOKEN}`);
      await expect
        .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
        .toBe('Integrations');
      await narrow.page
        .locator('#connect-form')
        .getByLabel('Tool')
        .selectOption({ label: 'GitHub' });
      await narrow.page.getByRole('button', { name: 'Show the URL' }).click();
      await expect.poll(() => narrow.page.locator('#integration-url').count(), WAIT).toBe(1);
      await narrow.page.getByRole('button', { name: /Last deliveries/ }).click();
      await expect
        .poll(() => narrow.page.locator('[id^="deliveries-"] tbody tr').count(), WAIT)
        .toBe(3);
      for (const width of [420, 360]) {
        await narrow.page.setViewportSize({ width, height: 900 });
        expect(await scrollsSideways(narrow.page), `${width} px (${scheme})`).toBe(false);
        await screenshot(narrow.page, `integrations-${width}px-${scheme}`);
      }
      if (scheme === 'dark') {
        const background = await narrow.page.evaluate(
          () => getComputedStyle(document.documentElement).backgroundColor,
        );
        const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
        expect(r + g + b).toBeLessThan(150);
      }
      expect(narrow.errors).toEqual([]);
    });
  }
});
