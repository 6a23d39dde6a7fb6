/**
 * Polls and to-do lists (`/poll`, `/todo`) in the chat, two people side by
 * side against the real server: one on a desktop in light mode, the other on
 * a 360 px phone in dark mode. Each sees the other's votes, options, tasks
 * and ticks live, and the server holds them as Zulip's submessages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, scrollsSideways, WAIT } from './browser.js';
import { chatShot, logIn, messageRow, openChatPage, sendFromCompose } from './chat-page.js';

let t: TestServer;
let browser: Browser;
/** Olivia writes the widgets at a desktop; Mel answers on a phone in dark mode. */
let olivia: Page;
let mel: Page;
const errors: string[][] = [];
let general: number;

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  browser = await launchBrowser();
  const desk = await openChatPage(browser);
  const phone = await openChatPage(browser, { phone: true, dark: true });
  olivia = desk.page;
  mel = phone.page;
  errors.push(desk.errors, phone.errors);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const topic = () => `#narrow/channel/${general}-general/topic/plans`;
const poll = (page: Page) => page.getByRole('region', { name: /^Poll: / });
const todo = (page: Page) => page.getByRole('region', { name: /^To-do list: / });
/** The vote count shown beside a poll option, and its voters' names. */
const option = (page: Page, text: string) =>
  poll(page).locator('.poll-option').filter({ hasText: text });
const votes = (page: Page, text: string) => option(page, text).locator('.poll-vote').textContent();
const task = (page: Page, text: string) =>
  todo(page).locator('.todo-task').filter({ hasText: text });
/** Ticks or unticks a task; the box changes when the server's event comes back, on both pages. */
async function tick(page: Page, text: string, done: boolean) {
  const box = task(page, text).getByRole('checkbox');
  await box.click();
  await expect.poll(() => box.isChecked(), WAIT).toBe(done);
}

async function newest(): Promise<{ id: number; submessages: unknown[] }> {
  const res = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
  });
  return res.body.messages[0];
}

describe('polls and to-do lists, two people side by side', { timeout: 90_000 }, () => {
  it('both open the topic', async () => {
    await logIn(olivia, t.url, 'owner@example.com', topic());
    await logIn(mel, t.url, 'member@example.com', topic());
    await expect.poll(() => olivia.locator('#view-title').textContent(), WAIT).toMatch(/plans/);
  });

  it('a poll is drawn as a poll for both, not as its text', async () => {
    await sendFromCompose(olivia, '/poll Where for lunch?\nTacos\nPizza', { shown: false });
    await expect.poll(() => poll(olivia).count(), WAIT).toBe(1);
    await expect.poll(() => poll(mel).count(), WAIT).toBe(1);
    for (const page of [olivia, mel]) {
      expect(await poll(page).getByRole('heading').textContent()).toBe('Where for lunch?');
      expect(await poll(page).locator('.poll-option-text').allTextContents()).toEqual([
        'Tacos',
        'Pizza',
      ]);
      expect(await messageRow(page, '/poll').count()).toBe(0);
    }
  });

  it("a vote shows live on the other's page with the voter's name, and toggles off", async () => {
    await option(mel, 'Tacos').getByRole('button').click();
    await expect.poll(() => votes(olivia, 'Tacos'), WAIT).toBe('1');
    expect(await option(olivia, 'Tacos').locator('.poll-voters').textContent()).toBe(
      '(Mel Member)',
    );
    await expect.poll(() => votes(mel, 'Tacos'), WAIT).toBe('1');
    expect(await option(mel, 'Tacos').getByRole('button').getAttribute('aria-pressed')).toBe(
      'true',
    );
    await option(olivia, 'Pizza').getByRole('button').click();
    await option(olivia, 'Tacos').getByRole('button').click();
    await expect.poll(() => votes(mel, 'Tacos'), WAIT).toBe('2');
    await expect.poll(() => votes(mel, 'Pizza'), WAIT).toBe('1');
    await option(olivia, 'Pizza').getByRole('button').click();
    await expect.poll(() => votes(mel, 'Pizza'), WAIT).toBe('0');
  });

  it('an option added by one shows for the other, and can be voted for', async () => {
    await poll(mel).getByLabel('New option').fill('Sushi');
    await poll(mel).getByRole('button', { name: 'Add option' }).click();
    await expect.poll(() => option(olivia, 'Sushi').count(), WAIT).toBe(1);
    await option(olivia, 'Sushi').getByRole('button').click();
    await expect.poll(() => votes(mel, 'Sushi'), WAIT).toBe('1');
    // A duplicate cannot be added.
    await poll(olivia).getByLabel('New option').fill('Tacos');
    expect(await poll(olivia).getByRole('button', { name: 'Add option' }).isDisabled()).toBe(true);
    await poll(olivia).getByLabel('New option').fill('');
    const { submessages } = await newest();
    // The declaration, four votes, one option, one vote.
    expect(submessages).toHaveLength(7);
    await chatShot(olivia, 'widgets-poll-desktop');
    await chatShot(mel, 'widgets-poll-phone-dark');
  });

  it('the poll’s author can change its question, for everyone', async () => {
    await poll(olivia).getByRole('button', { name: 'Edit question' }).click();
    await poll(olivia).getByLabel('Question').fill('Where for lunch on Friday?');
    await poll(olivia).getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => poll(mel).getByRole('heading').textContent(), WAIT)
      .toBe('Where for lunch on Friday?');
    expect(await poll(mel).getByRole('button', { name: 'Edit question' }).count()).toBe(0);
  });

  it('a to-do list: tasks ticked and added by one show for the other', async () => {
    await sendFromCompose(olivia, '/todo Launch\nWrite notes: by Friday\nShip it', {
      shown: false,
    });
    await expect.poll(() => todo(mel).count(), WAIT).toBe(1);
    expect(await todo(mel).getByRole('heading').textContent()).toBe('Launch');
    expect(await todo(mel).locator('.todo-task-text').allTextContents()).toEqual([
      'Write notes: by Friday',
      'Ship it',
    ]);
    await tick(mel, 'Ship it', true);
    await expect
      .poll(() => task(olivia, 'Ship it').getByRole('checkbox').isChecked(), WAIT)
      .toBe(true);
    expect(await task(olivia, 'Ship it').getAttribute('class')).toContain('done');
    await todo(olivia).getByLabel('New task').fill('Test');
    await todo(olivia).getByLabel('Description').fill('on a phone');
    await todo(olivia).getByRole('button', { name: 'Add task' }).click();
    await expect.poll(() => task(mel, 'Test').count(), WAIT).toBe(1);
    await tick(mel, 'Test', true);
    await tick(mel, 'Test', false);
    await tick(olivia, 'Write notes', true);
    await expect
      .poll(() => task(mel, 'Write notes').getByRole('checkbox').isChecked(), WAIT)
      .toBe(true);
    expect(await task(olivia, 'Test').getByRole('checkbox').isChecked()).toBe(false);
    const { submessages } = await newest();
    expect(submessages).toHaveLength(6);
    expect(await scrollsSideways(mel)).toBe(false);
    await chatShot(olivia, 'widgets-todo-desktop');
    await chatShot(mel, 'widgets-todo-phone-dark');
  });

  it('had no script errors or failed requests', () => {
    expect(errors.flat()).toEqual([]);
  });
});
