/**
 * The browser session in headless Chromium (server/auth/browser-session.ts,
 * renderer/src/chat/data/session.ts): logging in through the chat's page,
 * staying logged in across reloads with nothing credential-like in the
 * page's storage, images and the admin UI on the same session, an API key
 * an earlier version saved dropped unused, a session the server ended, and
 * logging out.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { png, uploadOk } from '../uploads/support.js';
import { launchBrowser, openPage, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `session-${name}.png`) });

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let picture: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer({ adminToken: 'a-token-this-test-never-uses' });
  const { owner, member, admin } = t.accounts;
  const general = createChannel(t, {
    name: 'general',
    subscribers: [owner.id, member.id, admin.id],
  });
  picture = (await uploadOk(t.as('owner'), await png(120, 80), 'pic.png', 'image/png')).url;
  await sendToChannel(t, 'owner', general, 'lunch', `Look: [pic.png](${picture})`);
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const sidebar = (p: Page = page) => p.getByRole('navigation', { name: 'Views and channels' });

async function logInThroughPage(p: Page, email: string) {
  await p.getByLabel('E-mail').fill(email);
  await p.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await p.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => sidebar(p).isVisible(), WAIT).toBe(true);
}

/** Everything the page keeps in Web Storage, keys and values. */
const pageStorage = (p: Page) =>
  p.evaluate(() =>
    [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`),
    ),
  );

describe('the chat’s browser session', { timeout: 60_000 }, () => {
  it('logs in through the page and keeps nothing credential-like in storage', async () => {
    await page.goto(`${t.url}/`);
    await logInThroughPage(page, 'member@example.com');
    await shot(page, 'logged-in');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'hearth_session')!;
    const csrf = cookies.find((c) => c.name === 'hearth_csrf')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(csrf).toMatchObject({ httpOnly: false, sameSite: 'Lax' });
    // The session's token is out of the page's reach; its key was never sent to it.
    expect(await page.evaluate(() => document.cookie)).not.toContain(session.value);
    const stored = (await pageStorage(page)).join('\n');
    for (const secret of [t.accounts.member.apiKey, session.value, csrf.value]) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).not.toMatch(/credential|api_?key|token|session/i);
  });

  it('stays logged in across a reload', async () => {
    await page.reload();
    await expect.poll(() => sidebar().isVisible(), WAIT).toBe(true);
    expect(await page.getByLabel('E-mail').count()).toBe(0);
  });

  it('loads uploaded images with the session cookie', async () => {
    const status = await page.evaluate(async (url) => (await fetch(url)).status, picture);
    expect(status).toBe(200);
  });

  it('logs out: the server ends the session, and a reload stays logged out', async () => {
    const session = (await page.context().cookies()).find((c) => c.name === 'hearth_session')!;
    await page.getByRole('button', { name: 'Mel Member', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect.poll(() => page.getByLabel('E-mail').isVisible(), WAIT).toBe(true);
    const names = (await page.context().cookies()).map((c) => c.name);
    expect(names).not.toContain('hearth_session');
    expect(names).not.toContain('hearth_csrf');
    await page.reload();
    await expect.poll(() => page.getByLabel('E-mail').isVisible(), WAIT).toBe(true);
    const replay = await fetch(`${t.url}/api/v1/users/me`, {
      headers: { cookie: `hearth_session=${session.value}` },
    });
    expect(replay.status).toBe(401);
  });

  it('opens the admin UI on the same session, with its role checks', async () => {
    await logInThroughPage(page, 'member@example.com');
    await page.goto(`${t.url}/admin/`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Administrators only' }).count(), WAIT)
      .toBe(1);
    await shot(page, 'admin-member');

    const admin = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    try {
      await admin.page.goto(`${t.url}/`);
      await logInThroughPage(admin.page, 'admin@example.com');
      await admin.page.goto(`${t.url}/admin/`);
      await admin.page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
      await shot(admin.page, 'admin-admin');
      expect(await pageStorage(admin.page)).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.page.context().close();
    }
  });

  it('shows the login page once the server has ended the session', async () => {
    await page.goto(`${t.url}/`);
    await expect.poll(() => sidebar().isVisible(), WAIT).toBe(true);
    // A new API key ends the user's sessions (Zulip's delete_user_sessions).
    expect((await t.as('member').post('/users/me/api_key/regenerate')).status).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByLabel('E-mail').isVisible(), WAIT).toBe(true);
  });
});

describe('an API key an earlier version saved', { timeout: 60_000 }, () => {
  it('is dropped unused, and the page asks to log in again', async () => {
    for (const [name, options] of [
      ['legacy-360', { viewport: { width: 360, height: 740 } }],
      ['legacy-dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' as const }],
    ] as const) {
      const legacy = await openPage(browser, options);
      try {
        const owner = t.accounts.owner;
        await legacy.page.addInitScript(
          (saved) => {
            if (!sessionStorage.getItem('seeded')) {
              localStorage.setItem('hearth-chat-credentials', saved);
              sessionStorage.setItem('seeded', '1');
            }
          },
          JSON.stringify({ email: owner.email, apiKey: owner.apiKey }),
        );
        await legacy.page.goto(`${t.url}/`);
        await expect
          .poll(() => legacy.page.getByRole('status').first().textContent(), WAIT)
          .toMatch(/session that expires\. Please log in again/);
        await shot(legacy.page, name);
        expect(
          await legacy.page.evaluate(() => localStorage.getItem('hearth-chat-credentials')),
        ).toBeNull();
        // The key opened nothing: no API request went out with it.
        expect(legacy.errors).toEqual([]);
      } finally {
        await legacy.page.context().close();
      }
    }
  });
});

describe('the page', () => {
  it('had no script errors or failed requests', () => {
    // The one refusal this file provokes: the session the new key ended, met by the
    // page's next register or by its long-poll, whichever asks first.
    expect(errors.filter((e) => !/^401 .*\/api\/v1\/(register|events)\b/.test(e))).toEqual([]);
  });
});
