/**
 * Zulip's message and compose extras in the chat, in headless Chromium
 * against the real server, two people side by side: scheduling messages
 * (presets, a custom time, the Scheduled messages view, editing and
 * cancelling), drafts and their view, saved snippets, the formatting bar,
 * and the message menu's forward, mark as unread from here, reminders,
 * read receipts, report and mute sender. Every change is checked through
 * the REST API a Zulip client uses; every new screen is shot at 1280 px,
 * at 360 px and in dark mode.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, scrollsSideways, WAIT } from './browser.js';
import { chatShot, PHONE } from './chat-page.js';

const shot = (page: Page, name: string) => chatShot(page, `actions-${name}`);

let t: TestServer;
let browser: Browser;
/** Mel (a member) does most things; Olivia (the owner) writes and reads. */
let mel: Page;
let olivia: Page;
const errors: string[][] = [];
let general: number;
let moderation: number;
let welcome: number;

interface Scheduled {
  scheduled_message_id: number;
  content: string;
  scheduled_delivery_timestamp: number;
  to: number;
  topic: string;
}
const scheduledOf = async (): Promise<Scheduled[]> =>
  (await t.as('member').get('/scheduled_messages')).body.scheduled_messages;

async function logIn(page: Page, email: string, hash: string) {
  await page.goto(`${t.url}/${hash}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('.chat-app').waitFor({ timeout: 20_000 });
}

const topicHash = (topic: string) => `#narrow/channel/${general}-general/topic/${topic}`;
const compose = (page: Page) => page.getByRole('region', { name: 'Compose' });
const textarea = (page: Page) => page.getByRole('combobox', { name: 'Message' });
const row = (page: Page, id: number) => page.locator(`article[data-message-id="${id}"]`);
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
async function openCompose(page: Page) {
  if ((await textarea(page).count()) === 0) {
    await compose(page)
      .getByRole('button', { name: /^Message / })
      .click();
  }
  await textarea(page).waitFor();
}
async function messageMenu(page: Page, id: number, item: string) {
  await row(page, id).hover();
  await row(page, id).getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}
/** Shoots a view at 1280 px, then at a 360 px phone, then in dark mode, and back. */
async function threeShots(page: Page, name: string) {
  await shot(page, name);
  await page.setViewportSize(PHONE);
  // The phone's drawer slides shut as the window narrows.
  await page.waitForTimeout(400);
  expect(await scrollsSideways(page)).toBe(false);
  await shot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** 9:00 tomorrow in UTC (the pages run in UTC), as Unix seconds. */
function tomorrowAtNine(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9) / 1000;
}

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  moderation = createChannel(t, {
    name: 'moderation',
    private: true,
    subscribers: [owner.id],
  });
  await t.as('owner').patch('/realm', {
    enable_read_receipts: true,
    moderation_request_channel_id: moderation,
  });
  welcome = await sendToChannel(t, 'owner', general, 'lunch', 'Who is in for lunch?');
  await sendToChannel(t, 'owner', general, 'lunch', 'Noodles at noon.');
  browser = await launchBrowser();
  for (const who of ['mel', 'olivia'] as const) {
    const watched = await openPage(browser, {
      viewport: { width: 1280, height: 860 },
      timezoneId: 'UTC',
    });
    errors.push(watched.errors);
    if (who === 'mel') mel = watched.page;
    else olivia = watched.page;
  }
  await logIn(mel, 'member@example.com', topicHash('lunch'));
  await logIn(olivia, t.accounts.owner.email, topicHash('lunch'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('scheduled messages', () => {
  it("schedules the box's message at one of Zulip's preset times", async () => {
    await openCompose(mel);
    await textarea(mel).fill('Reminder: lunch order is due.');
    await compose(mel).getByRole('button', { name: 'Schedule message' }).click();
    const menu = mel.getByRole('menu', { name: 'Schedule message' });
    await menu.waitFor();
    await shot(mel, 'schedule-menu');
    await menu.getByRole('menuitem', { name: 'Tomorrow at 9:00 AM' }).click();
    await expect.poll(async () => (await scheduledOf()).length, WAIT).toBe(1);
    const [first] = await scheduledOf();
    expect(first).toMatchObject({
      content: 'Reminder: lunch order is due.',
      to: general,
      topic: 'lunch',
      scheduled_delivery_timestamp: tomorrowAtNine(),
    });
    // The box empties and says where the message went.
    await expect.poll(() => textarea(mel).inputValue()).toBe('');
    await compose(mel)
      .getByText(/Your message has been scheduled for/)
      .waitFor();
    await shot(mel, 'scheduled-notice');
  });

  it('schedules at a custom time, and refuses one in the past', async () => {
    await textarea(mel).fill('Cake on Friday!');
    await compose(mel).getByRole('button', { name: 'Schedule message' }).click();
    await mel.getByRole('menuitem', { name: 'Custom time' }).click();
    const picker = dialog(mel, 'Schedule message');
    const when = picker.getByLabel('Date and time');
    await when.fill('2001-01-01T10:00');
    await picker.getByRole('button', { name: 'Schedule', exact: true }).click();
    await picker.getByText('Choose a time at least 5 minutes from now.').waitFor();
    await threeShots(mel, 'schedule-custom');
    const later = new Date(Date.now() + 3 * 86_400_000);
    const value = `${later.toISOString().slice(0, 10)}T15:30`;
    await when.fill(value);
    await picker.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect.poll(async () => (await scheduledOf()).length, WAIT).toBe(2);
    const custom = (await scheduledOf()).find((m) => m.content === 'Cake on Friday!');
    expect(custom?.scheduled_delivery_timestamp).toBe(Date.parse(`${value}:00Z`) / 1000);
  });

  it('lists them in the Scheduled messages view, soonest first', async () => {
    const link = mel.locator('.view-links a[href="#scheduled"]');
    await expect.poll(() => link.locator('.unread-count').textContent(), WAIT).toMatch(/^2/);
    await link.click();
    const list = mel.getByRole('list', { name: 'Scheduled messages' });
    await list.waitFor();
    await expect
      .poll(() => list.locator('.saved-card-body').allTextContents())
      .toEqual(['Reminder: lunch order is due.', 'Cake on Friday!']);
    await expect(list.locator('.saved-card-where').first().textContent()).resolves.toBe(
      '#general > lunch',
    );
    await threeShots(mel, 'scheduled-view');
  });

  it('cancels one with Delete', async () => {
    const card = mel.locator('.saved-card').filter({ hasText: 'Cake on Friday!' });
    await card.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await scheduledOf()).length, WAIT).toBe(1);
    await expect.poll(() => card.count(), WAIT).toBe(0);
  });

  it('edits one in its conversation, taken off the schedule until scheduled again', async () => {
    const [before] = await scheduledOf();
    const card = mel.locator('.saved-card').filter({ hasText: 'Reminder: lunch order' });
    await card.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(async () => (await scheduledOf()).length, WAIT).toBe(0);
    await expect.poll(() => mel.evaluate(() => location.hash)).toBe(topicHash('lunch'));
    await expect.poll(() => textarea(mel).inputValue(), WAIT).toBe('Reminder: lunch order is due.');
    const banner = compose(mel).getByText('This message is no longer scheduled to be sent.');
    await banner.waitFor();
    await row(mel, welcome).waitFor();
    await shot(mel, 'scheduled-edit');
    await textarea(mel).fill('Reminder: lunch order is due today.');
    await compose(mel)
      .getByRole('button', { name: /^Schedule for / })
      .click();
    await expect.poll(async () => (await scheduledOf()).length, WAIT).toBe(1);
    const [after] = await scheduledOf();
    expect(after).toMatchObject({
      content: 'Reminder: lunch order is due today.',
      scheduled_delivery_timestamp: before!.scheduled_delivery_timestamp,
    });
  });
});

describe('drafts', () => {
  it('keeps unsent text as a draft and lists it in the Drafts view', async () => {
    await mel.goto(`${t.url}/${topicHash('plans')}`);
    await openCompose(mel);
    await textarea(mel).fill('Half-written thought about plans');
    await compose(mel).getByRole('button', { name: 'Close the compose box' }).click();
    await mel.locator('.view-links a[href="#drafts"]').click();
    const list = mel.getByRole('list', { name: 'Drafts' });
    await list.waitFor();
    await expect
      .poll(() => list.locator('.saved-card-text').allTextContents())
      .toEqual(['Half-written thought about plans']);
    // Drafts synchronization is on (Zulip's default): the view lists the server's drafts.
    const drafts = (await t.as('member').get('/drafts')).body.drafts;
    expect(drafts).toMatchObject([{ content: 'Half-written thought about plans', topic: 'plans' }]);
    await threeShots(mel, 'drafts-view');
  });

  it('restores a draft into its conversation, and deletes one', async () => {
    await mel.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => mel.evaluate(() => location.hash)).toBe(topicHash('plans'));
    await expect
      .poll(() => textarea(mel).inputValue(), WAIT)
      .toBe('Half-written thought about plans');
    await compose(mel).getByRole('button', { name: 'Close the compose box' }).click();
    await mel.locator('.view-links a[href="#drafts"]').click();
    await mel.getByRole('button', { name: 'Delete' }).click();
    await mel.getByText('No drafts.').waitFor();
    await expect
      .poll(async () => (await t.as('member').get('/drafts')).body.drafts, WAIT)
      .toEqual([]);
    await shot(mel, 'drafts-empty');
  });
});

describe('the compose bar', () => {
  it('formats the selection with the buttons and Zulip shortcuts', async () => {
    await mel.goto(`${t.url}/${topicHash('lunch')}`);
    await openCompose(mel);
    await textarea(mel).fill('hello');
    await textarea(mel).selectText();
    await compose(mel).getByRole('button', { name: 'Bold' }).click();
    expect(await textarea(mel).inputValue()).toBe('**hello**');
    await textarea(mel).press('Control+i');
    expect(await textarea(mel).inputValue()).toBe('***hello***');
    await textarea(mel).fill('');
    await compose(mel).getByRole('button', { name: 'Add poll' }).click();
    expect(await textarea(mel).inputValue()).toBe('/poll Question\nOption 1\nOption 2');
    await textarea(mel).fill('see');
    await textarea(mel).selectText();
    await compose(mel).getByRole('button', { name: 'Link' }).click();
    expect(await textarea(mel).inputValue()).toBe('[see](url)');
    await threeShots(mel, 'compose-bar');
    await textarea(mel).fill('');
  });

  it('inserts an emoji from the picker as :name:', async () => {
    await compose(mel).getByRole('button', { name: 'Add emoji' }).click();
    const picker = mel.getByRole('dialog', { name: 'Add an emoji' });
    await picker.getByRole('searchbox').fill('tada');
    await picker.getByRole('button', { name: /tada/ }).first().click();
    await expect.poll(() => textarea(mel).inputValue()).toBe(':tada: ');
    await textarea(mel).fill('');
  });

  it('creates, inserts and deletes saved snippets', async () => {
    await textarea(mel).fill('Thanks, see you at lunch!');
    await compose(mel).getByRole('button', { name: 'Saved snippets' }).click();
    await mel.getByRole('menuitem', { name: 'Add a new saved snippet' }).click();
    const add = dialog(mel, 'Add a new saved snippet');
    await add.getByLabel('Title').fill('Sign-off');
    expect(await add.getByLabel('Content').inputValue()).toBe('Thanks, see you at lunch!');
    await threeShots(mel, 'snippet-add');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (await t.as('member').get('/saved_snippets')).body.saved_snippets.map(
            (s: { title: string }) => s.title,
          ),
        WAIT,
      )
      .toEqual(['Sign-off']);
    await textarea(mel).fill('');
    await compose(mel).getByRole('button', { name: 'Saved snippets' }).click();
    await mel.getByRole('menuitem', { name: 'Sign-off' }).click();
    await expect.poll(() => textarea(mel).inputValue()).toBe('Thanks, see you at lunch!');
    await textarea(mel).fill('');
    await compose(mel).getByRole('button', { name: 'Saved snippets' }).click();
    await mel.getByRole('menuitem', { name: 'Delete saved snippets' }).click();
    await dialog(mel, 'Saved snippets').getByRole('button', { name: 'Delete Sign-off' }).click();
    await expect
      .poll(async () => (await t.as('member').get('/saved_snippets')).body.saved_snippets, WAIT)
      .toEqual([]);
    await dialog(mel, 'Saved snippets').getByRole('button', { name: 'Done' }).click();
  });
});

describe('the message menu', () => {
  it('forwards a message: quoted in a new message whose recipient is yet to choose', async () => {
    await messageMenu(mel, welcome, 'Forward message');
    await expect.poll(() => textarea(mel).inputValue(), WAIT).toContain('Who is in for lunch?');
    expect(await textarea(mel).inputValue()).toContain('```quote');
    expect(await compose(mel).getByLabel('Topic').inputValue()).toBe('');
    await compose(mel).getByRole('button', { name: 'Close the compose box' }).click();
  });

  it('schedules a reminder about a message', async () => {
    await messageMenu(mel, welcome, 'Remind me about this');
    const remind = dialog(mel, 'Remind me about this');
    await remind.getByRole('radio', { name: 'Tomorrow at 9:00 AM' }).check();
    await remind.getByLabel('Note (optional)').fill('Book a table');
    await threeShots(mel, 'reminder');
    await remind.getByRole('button', { name: 'Schedule reminder' }).click();
    await expect
      .poll(async () => (await t.as('member').get('/reminders')).body.reminders, WAIT)
      .toMatchObject([
        { reminder_target_message_id: welcome, scheduled_delivery_timestamp: tomorrowAtNine() },
      ]);
  });

  it('marks as unread from here, and the view leaves them unread', async () => {
    const unreadIds = async () =>
      (
        await t.as('member').get('/messages', {
          anchor: 'oldest',
          num_before: 0,
          num_after: 10,
          narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
        })
      ).body.messages.map((m: { id: number }) => m.id);
    await expect.poll(unreadIds, WAIT).toEqual([]);
    const ids = await mel
      .locator('article[data-message-id]')
      .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-message-id'))));
    await messageMenu(mel, welcome, 'Mark as unread from here');
    await expect.poll(unreadIds, WAIT).toEqual(ids.filter((id) => id >= welcome));
    // The view would mark what it shows read again: it waits until another view.
    await mel.waitForTimeout(1500);
    expect(await unreadIds()).toEqual(ids.filter((id) => id >= welcome));
    await expect.poll(() => row(mel, welcome).getAttribute('class')).toContain('unread');
  });

  it('shows who has read a message in its read receipts', async () => {
    await t.as('member').post('/messages/flags', {
      messages: JSON.stringify([welcome]),
      op: 'add',
      flag: 'read',
    });
    await messageMenu(olivia, welcome, 'View read receipts');
    const receipts = dialog(olivia, 'Read receipts');
    await receipts.getByText('This message has been read by 1 person:').waitFor();
    expect(await receipts.getByRole('list', { name: 'Read by' }).textContent()).toContain(
      'Mel Member',
    );
    await threeShots(olivia, 'read-receipts');
    await receipts.getByRole('button', { name: 'Close', exact: true }).last().click();
  });

  it('reports a message to the moderation channel', async () => {
    await messageMenu(mel, welcome, 'Report message');
    const form = dialog(mel, 'Report a message');
    await form.getByLabel('Reason').selectOption('other');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('An explanation is required.').waitFor();
    await threeShots(mel, 'report');
    await form.getByLabel('Explanation').fill('Lunch is off-topic here.');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(async () => {
        const answer = await t.as('owner').get('/messages', {
          anchor: 'newest',
          num_before: 5,
          num_after: 0,
          apply_markdown: false,
          narrow: JSON.stringify([{ operator: 'channel', operand: moderation }]),
        });
        return answer.body.messages.map((m: { content: string }) => m.content).join('\n');
      }, WAIT)
      .toContain('Lunch is off-topic here.');
  });

  it('mutes the sender: their messages collapse until revealed', async () => {
    await messageMenu(mel, welcome, 'Mute sender');
    await dialog(mel, /^Mute Olivia Owner/)
      .getByRole('button', { name: 'Confirm' })
      .click();
    await expect
      .poll(
        async () =>
          (
            await t.as('member').post('/register', {
              fetch_event_types: JSON.stringify(['muted_users']),
            })
          ).body.muted_users,
        WAIT,
      )
      .toMatchObject([{ id: t.accounts.owner.id }]);
    const hidden = row(mel, welcome).getByText(
      'This message was hidden because you have muted the sender.',
    );
    await hidden.waitFor();
    expect(await row(mel, welcome).textContent()).not.toContain('Who is in for lunch?');
    await threeShots(mel, 'muted-sender');
    await row(mel, welcome).getByRole('button', { name: 'Click here to reveal.' }).click();
    await row(mel, welcome).getByText('Who is in for lunch?').waitFor();
  });

  it('raised no script errors', () => {
    for (const list of errors) expect(list).toEqual([]);
  });
});
