/**
 * The chat's compose box and message actions in headless Chromium against
 * the real server: sending with Enter, preview, the typeaheads, uploads,
 * drafts, reactions, edit, history, source, quote and delete. Every action
 * is checked through the REST API a Zulip client uses.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { Watcher } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, scrollsSideways, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `compose-${name}.png`) });

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;
let ownerMessage: number;

interface ApiMessage {
  id: number;
  content: string;
  subject: string;
  sender_id: number;
  flags: string[];
  reactions: { emoji_name: string; user_id: number }[];
}

/** The member's newest messages in general > lunch, Markdown source. */
async function lunchMessages(): Promise<ApiMessage[]> {
  const answer = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    apply_markdown: false,
    narrow: JSON.stringify([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'lunch' },
    ]),
  });
  return answer.body.messages;
}
const newest = async () => (await lunchMessages()).at(-1)!;
const messageById = async (id: number) =>
  (await t.as('member').get(`/messages/${id}`, { apply_markdown: false })).body
    .message as ApiMessage;

const textarea = () => page.getByRole('combobox', { name: 'Message' });
const row = (id: number) => page.locator(`article[data-message-id="${id}"]`);
const openActions = async (id: number) => {
  await row(id).hover();
  await row(id).getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menu', { name: 'Message actions' }).waitFor();
};
const menuItem = (name: string) => page.getByRole('menuitem', { name, exact: true });
const lunchHash = () => `#narrow/channel/${general}-general/topic/lunch`;
/** The count beside Starred in the sidebar ('' when none is shown). */
const starredCount = async () => {
  const count = page.locator('.view-links a[href="#narrow/is/starred"] .unread-count');
  if ((await count.count()) === 0) return '';
  return count.evaluate((el) => el.firstChild?.textContent ?? '');
};

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  createChannel(t, { name: 'design', subscribers: [owner.id, member.id] });
  ownerMessage = await sendToChannel(t, 'owner', general, 'lunch', 'Who is in for **lunch**?');
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser, {
    permissions: ['clipboard-read', 'clipboard-write'],
  }));
  await page.goto(`${t.url}/`);
  await page.getByLabel('E-mail').fill('member@example.com');
  await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Views and channels' }).waitFor();
  await page.goto(`${t.url}/${lunchHash()}`);
  await row(ownerMessage).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the compose box', { timeout: 60_000 }, () => {
  it('opens on the narrow’s topic and sends with Enter once Enter-to-send is on', async () => {
    await page.getByRole('button', { name: 'Message #general > lunch' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe('Message');
    const compose = page.getByRole('region', { name: 'Compose' });
    expect(await compose.getByLabel('Channel').inputValue()).toBe(String(general));
    expect(await compose.getByLabel('Topic').inputValue()).toBe('lunch');
    // Zulip's default: Enter adds a line, Ctrl+Enter sends.
    await textarea().fill('first line');
    await textarea().press('Enter');
    expect(await textarea().inputValue()).toBe('first line\n');
    await page.getByLabel('Enter to send').check();
    await expect
      .poll(async () => {
        const answer = await t
          .as('member')
          .post('/register', { fetch_event_types: '["user_settings"]' });
        return answer.body.user_settings.enter_sends;
      }, WAIT)
      .toBe(true);
    await textarea().pressSequentially('I am in');
    await textarea().press('Enter');
    await expect.poll(async () => (await newest()).content, WAIT).toBe('first line\nI am in');
    expect(await textarea().inputValue()).toBe('');
    const sent = (await newest()).id;
    await expect.poll(() => row(sent).count(), WAIT).toBe(1);
  });

  it('previews the Markdown as the server renders it', async () => {
    await textarea().fill('Some **bold** text');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.locator('strong').textContent(), WAIT).toBe('bold');
    await shot(page, 'preview');
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await textarea().inputValue()).toBe('Some **bold** text');
    await textarea().fill('');
  });

  it('completes @ mentions, # channels and : emoji', async () => {
    await textarea().pressSequentially('Hi @Ada');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await expect
      .poll(() => list.getByRole('option').first().textContent(), WAIT)
      .toContain('Ada Admin');
    await shot(page, 'mention-typeahead');
    await textarea().press('Enter');
    expect(await textarea().inputValue()).toBe('Hi @**Ada Admin** ');
    await textarea().pressSequentially('see #des');
    await expect
      .poll(() => list.getByRole('option').first().textContent(), WAIT)
      .toContain('design');
    await textarea().press('Tab');
    await textarea().pressSequentially(':tad');
    await expect.poll(() => list.getByRole('option').first().textContent(), WAIT).toContain('tada');
    await textarea().press('Enter');
    expect(await textarea().inputValue()).toBe('Hi @**Ada Admin** see #**design** :tada: ');
    await textarea().press('Enter');
    await expect
      .poll(async () => (await newest()).content, WAIT)
      .toBe('Hi @**Ada Admin** see #**design** :tada:');
    // The mention reached Ada.
    const ada = await t.as('admin').get(`/messages/${(await newest()).id}`);
    expect(ada.body.message.flags).toContain('mentioned');
  });

  it('uploads a file from the button and links it', async () => {
    await page.locator('.compose input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('meeting notes'),
    });
    await expect
      .poll(() => textarea().inputValue(), WAIT)
      .toMatch(/^\[notes\.txt\]\(\/user_uploads\/\S+\)$/);
    const link = await textarea().inputValue();
    await textarea().press('End');
    await textarea().press('Enter');
    await expect.poll(async () => (await newest()).content, WAIT).toBe(link);
    const url = link.slice(link.indexOf('(') + 1, -1);
    const file = await t.as('member').fetch(url);
    expect(await file.text()).toBe('meeting notes');
  });

  it('refuses text over Zulip’s limit before sending', async () => {
    await textarea().fill('x'.repeat(10_001));
    await expect.poll(() => page.getByText('1 characters over the limit').count(), WAIT).toBe(1);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await textarea().fill('');
  });

  it('keeps an unsent draft per conversation across narrows and a reload', async () => {
    const drafts = async () =>
      (await t.as('member').get('/drafts')).body.drafts.map(
        (d: { to: number[]; topic: string; content: string }) => [d.to, d.topic, d.content],
      );
    await textarea().fill('half a thought');
    // enable_drafts_synchronization is on by default: the draft is on the server.
    await expect.poll(drafts, WAIT).toEqual([[[general], 'lunch', 'half a thought']]);
    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/other`);
    await expect
      .poll(() => page.locator('#view-title').textContent(), WAIT)
      .toBe('#general > other');
    await page.evaluate((hash) => {
      location.hash = hash;
    }, lunchHash());
    await expect.poll(() => textarea().inputValue(), WAIT).toBe('half a thought');
    await page.reload();
    await expect.poll(() => textarea().inputValue(), WAIT).toBe('half a thought');
    await textarea().fill('');
    await expect.poll(drafts, WAIT).toEqual([]);
    await page.reload();
    await row(ownerMessage).waitFor();
    expect(await textarea().count()).toBe(0);
  });

  it('tells the others who are typing, and stops when sent', async () => {
    const owner = await Watcher.register(t.as('owner'), {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    await page.getByRole('button', { name: 'Message #general > lunch' }).click();
    await textarea().pressSequentially('typing…');
    await expect
      .poll(async () => (await owner.take()).map((e) => [e.op, e.stream_id, e.topic]), WAIT)
      .toEqual([['start', general, 'lunch']]);
    await textarea().press('Enter');
    await expect.poll(async () => (await owner.take()).map((e) => e.op), WAIT).toEqual(['stop']);
  });

  it('writes a direct message to people picked by name', async () => {
    await textarea().press('Escape');
    await page.getByRole('button', { name: 'New direct message' }).click();
    const person = page.getByRole('combobox', { name: 'Add a person' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe('Add a person');
    await person.pressSequentially('Oli');
    await expect
      .poll(
        () =>
          page.getByRole('listbox', { name: 'People' }).getByRole('option').first().textContent(),
        WAIT,
      )
      .toContain('Olivia Owner');
    await person.press('Enter');
    expect(await page.getByRole('button', { name: 'Remove Olivia Owner' }).count()).toBe(1);
    await textarea().fill('Just between us');
    await shot(page, 'direct');
    await textarea().press('Enter');
    await expect
      .poll(async () => {
        const answer = await t.as('owner').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          apply_markdown: false,
          narrow: JSON.stringify([{ operator: 'dm', operand: [t.accounts.member.id] }]),
        });
        return answer.body.messages.map((m: ApiMessage) => m.content);
      }, WAIT)
      .toEqual(['Just between us']);
    await textarea().press('Escape');
  });

  it('uploads a pasted image', async () => {
    await page.getByRole('button', { name: 'Message #general > lunch' }).click();
    await textarea().focus();
    // A 1×1 PNG on the clipboard, as a screenshot tool leaves it.
    await textarea().evaluate((area) => {
      const png = Uint8Array.from(
        atob(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        ),
        (c) => c.charCodeAt(0),
      );
      const data = new DataTransfer();
      data.items.add(new File([png], 'pasted.png', { type: 'image/png' }));
      area.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expect
      .poll(() => textarea().inputValue(), WAIT)
      .toMatch(/^\[pasted\.png\]\(\/user_uploads\/\S+\)$/);
    await textarea().fill('');
  });

  it('uploads a file dropped on the box', async () => {
    await page.getByRole('region', { name: 'Compose' }).evaluate((box) => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      box.dispatchEvent(
        new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
      box.dispatchEvent(
        new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    });
    await expect
      .poll(() => textarea().inputValue(), WAIT)
      .toMatch(/^\[dropped\.txt\]\(\/user_uploads\/\S+\)$/);
    await textarea().fill('');
  });
});

describe('message actions', { timeout: 60_000 }, () => {
  it('reacts from the emoji picker and toggles the chip', async () => {
    await openActions(ownerMessage);
    await shot(page, 'actions-menu');
    await menuItem('Add emoji reaction').click();
    const picker = page.getByRole('dialog', { name: 'Add a reaction' });
    await picker.getByLabel('Search emoji').fill('octopus');
    await shot(page, 'emoji-picker');
    await picker.getByLabel('Search emoji').press('Enter');
    await expect
      .poll(async () => (await messageById(ownerMessage)).reactions.map((r) => r.emoji_name), WAIT)
      .toEqual(['octopus']);
    const chip = row(ownerMessage).locator('.reaction:not(.reaction-add)');
    await expect.poll(() => chip.getAttribute('aria-pressed'), WAIT).toBe('true');
    expect(await chip.getAttribute('title')).toBe('You reacted with :octopus:');
    // Focus came back to the actions button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Message actions',
    );
    // The + beside the chips adds another.
    await row(ownerMessage).getByRole('button', { name: 'Add emoji reaction' }).click();
    await picker.getByLabel('Search emoji').fill('tada');
    await picker.getByLabel('Search emoji').press('Enter');
    await expect
      .poll(async () => (await messageById(ownerMessage)).reactions.map((r) => r.emoji_name), WAIT)
      .toEqual(['octopus', 'tada']);
    await expect.poll(() => chip.count(), WAIT).toBe(2);
    await shot(page, 'reactions');
    await chip.first().click();
    await chip.first().click();
    await expect.poll(async () => (await messageById(ownerMessage)).reactions, WAIT).toEqual([]);
    await expect.poll(() => chip.count(), WAIT).toBe(0);
  });

  it('offers only what the member may do on someone else’s message', async () => {
    await openActions(ownerMessage);
    const labels = await page.getByRole('menuitem').allTextContents();
    expect(labels).toContain('Quote and reply');
    expect(labels).not.toContain('Delete message');
    expect(labels).not.toContain('Edit message');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count(), WAIT).toBe(0);
  });

  it('copies an absolute link to the message', async () => {
    await openActions(ownerMessage);
    await menuItem('Copy link to message').click();
    await expect.poll(() => page.getByText('Link copied.').count(), WAIT).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${t.url}/#narrow/channel/${general}-general/topic/lunch/with/${ownerMessage}`,
    );
  });

  it('works from the keyboard: the menu opens on its first item, arrows move, Escape returns', async () => {
    const button = row(ownerMessage).getByRole('button', { name: 'Message actions' });
    await button.focus();
    await page.keyboard.press('Enter');
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(focused, WAIT).toBe('Add emoji reaction');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Quote and reply');
    await page.keyboard.press('End');
    // Someone else's message: the menu ends with muting its sender.
    expect(await focused()).toBe('Mute sender');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Add emoji reaction');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count(), WAIT).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Message actions',
    );
    expect(await button.getAttribute('aria-expanded')).toBe('false');
  });

  it('moves someone else’s message to another channel', async () => {
    const moving = await sendToChannel(t, 'owner', general, 'lunch', 'Belongs in design');
    await row(moving).waitFor();
    await openActions(moving);
    await menuItem('Move message').click();
    const dialog = page.getByRole('dialog', { name: 'Move message' });
    expect(await dialog.getByLabel('Message', { exact: true }).count()).toBe(0);
    const design = (await t.as('member').get('/streams')).body.streams.find(
      (s: { name: string }) => s.name === 'design',
    ).stream_id;
    await dialog.getByLabel('Channel').selectOption(String(design));
    await dialog.getByLabel('Which messages to move').selectOption('change_one');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
    const moved = (await t.as('member').get(`/messages/${moving}`)).body.message;
    expect([moved.stream_id, moved.subject]).toEqual([design, 'lunch']);
  });

  it('quotes a message into the compose box with Zulip’s quote block', async () => {
    await openActions(ownerMessage);
    await menuItem('Quote and reply').click();
    await expect
      .poll(() => textarea().inputValue(), WAIT)
      .toMatch(
        new RegExp(
          `^@_\\*\\*Olivia Owner\\|${t.accounts.owner.id}\\*\\* \\[said\\]\\(http://[^)]+/#narrow/channel/${general}-general/topic/lunch/with/${ownerMessage}\\):\n\`\`\`quote\nWho is in for \\*\\*lunch\\*\\*\\?\n\`\`\`\n$`,
        ),
      );
    await textarea().press('Enter');
    await expect.poll(async () => (await newest()).content, WAIT).toContain('```quote');
  });

  it('edits its own message, then shows the edit history and source', async () => {
    const mine = (await newest()).id;
    await openActions(mine);
    // The text is edited in place, as in Zulip's web app.
    await menuItem('Edit message').click();
    const editor = row(mine).getByRole('form', { name: 'Edit message' });
    const content = editor.getByLabel('Message');
    await expect.poll(() => content.inputValue(), WAIT).toContain('```quote');
    await content.fill('Edited: **tacos** it is');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.count(), WAIT).toBe(0);
    await expect
      .poll(async () => (await messageById(mine)).content, WAIT)
      .toBe('Edited: **tacos** it is');
    // The topic in the move dialog.
    await openActions(mine);
    await menuItem('Move message').click();
    const dialog = page.getByRole('dialog', { name: 'Move message' });
    await dialog.getByLabel('Topic').fill('lunch plans');
    await dialog.getByLabel('Which messages to move').selectOption('change_one');
    await shot(page, 'edit-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
    const edited = await messageById(mine);
    expect(edited.content).toBe('Edited: **tacos** it is');
    expect(edited.subject).toBe('lunch plans');

    await page.goto(`${t.url}/#narrow/channel/${general}-general/topic/lunch%20plans`);
    await row(mine).waitFor();
    await openActions(mine);
    await menuItem('View edit history').click();
    const history = page.getByRole('dialog', { name: 'Message edit history' });
    // The original, the text's edit, the topic's change.
    await expect.poll(() => history.locator('.edit-version').count(), WAIT).toBe(3);
    expect(await history.locator('.edit-version-meta').first().textContent()).toContain(
      'Original by Mel Member',
    );
    expect(await history.locator('.edit-version-move').textContent()).toBe(
      'Topic: lunch → lunch plans',
    );
    await shot(page, 'history');
    await history.getByRole('button', { name: 'Close' }).click();

    await openActions(mine);
    await menuItem('View message source').click();
    const source = page.getByRole('dialog', { name: 'Message source' });
    await expect
      .poll(() => source.locator('pre').textContent(), WAIT)
      .toBe('Edited: **tacos** it is');
    await page.keyboard.press('Escape');
    await expect.poll(() => source.count(), WAIT).toBe(0);
  });

  it('stars and deletes its own message after confirming', async () => {
    const mine = (await lunchMessages()).at(-1)!.id;
    await page.goto(`${t.url}/${lunchHash()}`);
    await row(mine).waitFor();
    await openActions(mine);
    await menuItem('Star message').click();
    await expect.poll(async () => (await messageById(mine)).flags, WAIT).toContain('starred');
    // The sidebar counts starred messages (Zulip's starred_message_counts is on by default).
    await expect.poll(() => starredCount(), WAIT).toBe('1');
    await openActions(mine);
    await menuItem('Delete message').click();
    const confirm = page.getByRole('dialog', { name: 'Delete message?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(async () => (await t.as('member').get(`/messages/${mine}`)).status, WAIT)
      .toBe(400);
    await expect.poll(() => row(mine).count(), WAIT).toBe(0);
    // A deleted message is no longer starred.
    await expect.poll(() => starredCount(), WAIT).toBe('');
  });

  it('marks the topic resolved from a message’s menu, and unresolved again', async () => {
    await page.goto(`${t.url}/${lunchHash()}`);
    await row(ownerMessage).waitFor();
    const newestBefore = (await newest()).id;
    await openActions(ownerMessage);
    await menuItem('Mark as resolved').click();
    await expect.poll(async () => (await messageById(ownerMessage)).subject, WAIT).toBe('✔ lunch');
    // The feed and the address follow the renamed topic; the check mark stands apart.
    const resolvedHash = `#narrow/channel/${general}-general/topic/${encodeURIComponent('✔ lunch').replaceAll('%', '.')}`;
    await expect.poll(() => page.evaluate(() => location.hash), WAIT).toBe(resolvedHash);
    await row(ownerMessage).waitFor();
    const header = page.locator('.recipient-header').first();
    await expect.poll(() => header.locator('.topic-resolved-check').count(), WAIT).toBe(1);
    // The mark is hidden from screen readers, which hear "Resolved:" instead.
    expect(await header.getByRole('link', { name: 'Resolved: lunch', exact: true }).count()).toBe(
      1,
    );
    await shot(page, 'resolved-topic');
    await openActions(ownerMessage);
    expect(await menuItem('Mark as resolved').count()).toBe(0);
    await menuItem('Mark as unresolved').click();
    await expect.poll(async () => (await messageById(ownerMessage)).subject, WAIT).toBe('lunch');
    await expect.poll(() => page.evaluate(() => location.hash), WAIT).toBe(lunchHash());
    // Undone within a minute: the server takes its resolve notice back, leaving no trace.
    await expect.poll(async () => (await newest()).id, WAIT).toBe(newestBefore);
  });

  it('fits a phone and dark mode', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await textarea().fill('From my phone');
    expect(await scrollsSideways(page)).toBe(false);
    // The sidebar becomes a drawer at this width; let its slide finish before the picture.
    await page.waitForTimeout(500);
    await shot(page, 'phone-dark');
    await textarea().fill('');
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('raised no script errors', () => {
    expect(errors).toEqual([]);
  });
});
