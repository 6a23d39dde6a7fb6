/**
 * People and channels in the chat view, in headless Chromium against the
 * real server: the user list with presence and statuses, the user card,
 * setting a status and being away, browsing, subscribing to and creating
 * channels, and the channel and topic menus. Every change is checked
 * through the REST API a Zulip client uses.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { FIXTURE_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, scrollsSideways, WAIT } from './browser.js';

const SHOTS = path.join(os.tmpdir(), 'hearth-chat-screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `people-${name}.png`) });

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let general: number;
let lobby: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureRenderer();
  t = await startTestServer();
  const { owner, member, admin, moderator } = t.accounts;
  general = createChannel(t, { name: 'general', subscribers: [owner.id, member.id, admin.id] });
  lobby = createChannel(t, { name: 'lobby', subscribers: [owner.id] });
  createChannel(t, { name: 'hideout', private: true, subscribers: [owner.id] });
  await sendToChannel(t, 'owner', general, 'lunch', 'Who is in for lunch?');
  await sendToChannel(t, 'admin', general, 'plans', 'Weekend plans?');
  // Ada is active now, and so is Mo (an idle report from someone who joined
  // just now: Zulip counts joining as activity); the others never reported.
  await t.as('admin').post('/users/me/presence', { status: 'active' });
  await t.as('moderator').post('/users/me/presence', { status: 'idle' });
  await t.as('admin').patch('/settings', { timezone: 'Asia/Tokyo' });
  await t.as('admin').post('/users/me/status', {
    status_text: 'Reviewing',
    emoji_name: 'eyes',
    emoji_code: '1f440',
    reaction_type: 'unicode_emoji',
  });
  void moderator;
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const users = () => page.getByRole('complementary', { name: 'Users' });
const section = (title: string) =>
  users()
    .locator('.user-list-section')
    .filter({ has: page.getByRole('heading', { name: title }) });
const sectionNames = (title: string) => section(title).locator('.user-row-name').allTextContents();
const userRow = (id: number) => users().locator(`.user-row[data-user-id="${id}"]`);
const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });
const member = () => t.as('member');
const subscriptionOf = async (streamId: number) =>
  (await member().get('/users/me/subscriptions')).body.subscriptions.find(
    (s: { stream_id: number }) => s.stream_id === streamId,
  );
const focusedText = () =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');

/** Opens a menu button by its label and chooses an item. */
async function choose(scope: Locator, menuLabel: string, item: string) {
  await scope.getByRole('button', { name: menuLabel, exact: true }).click();
  await page
    .getByRole('menu', { name: menuLabel })
    .getByRole('menuitem', { name: item, exact: true })
    .click();
}

describe('people and channels in the chat', { timeout: 60_000 }, () => {
  it('logs in and lists users by presence, you first, bots collapsed', async () => {
    await page.goto(`${t.url}/`);
    await page.getByLabel('E-mail').fill('member@example.com');
    await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect
      .poll(() => sectionNames('Active'), WAIT)
      .toEqual(['Mel Member (you)', 'Ada Admin', 'Mo Moderator']);
    expect(await section('Idle').count()).toBe(0);
    expect(await sectionNames('Offline')).toEqual(['Gus Guest', 'Olivia Owner']);
    const bots = users().locator('.user-list-bots');
    expect(await bots.locator('summary').textContent()).toBe('Bots (1)');
    expect(await bots.getAttribute('open')).toBeNull();
    // Ada's status is beside her name.
    expect(await userRow(t.accounts.admin.id).locator('.user-row-status').textContent()).toBe(
      'Reviewing',
    );
    expect(await userRow(t.accounts.admin.id).getByRole('img', { name: ':eyes:' }).count()).toBe(1);
    await shot(page, 'user-list');
  });

  it('filters users by name prefix and e-mail', async () => {
    const filter = users().getByLabel('Filter users');
    await filter.fill('ada');
    await expect.poll(() => sectionNames('Active'), WAIT).toEqual(['Ada Admin']);
    expect(await section('Offline').count()).toBe(0);
    await filter.fill('guest@');
    await expect.poll(() => sectionNames('Offline'), WAIT).toEqual(['Gus Guest']);
    await filter.fill('nobody');
    await expect.poll(() => users().getByText('No matching users.').count(), WAIT).toBe(1);
    await filter.press('Escape');
    await expect.poll(() => sectionNames('Active'), WAIT).toHaveLength(3);
  });

  it('opens the user card, closes it with Escape and returns focus', async () => {
    const button = userRow(t.accounts.admin.id).locator('.user-row-button');
    await button.click();
    const card = dialog('Ada Admin');
    await expect.poll(() => card.isVisible(), WAIT).toBe(true);
    const text = (await card.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Active now');
    expect(text).toContain('Organization administrator');
    expect(text).toContain('Reviewing');
    expect(text).toMatch(/Local time \d{1,2}:\d{2} [AP]M \(Asia\/Tokyo\)/);
    expect(text).toContain('Joined');
    // The first action has the focus.
    expect(await focusedText()).toBe('Send direct message');
    await shot(page, 'user-card');
    await page.keyboard.press('Escape');
    await expect.poll(() => card.count(), WAIT).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows a bot with its owner, and goes from there to the owner', async () => {
    await users().locator('.user-list-bots summary').click();
    await userRow(t.accounts.bot.id).locator('.user-row-button').click();
    const card = dialog('Test Bot');
    await expect.poll(() => card.isVisible(), WAIT).toBe(true);
    expect(await card.innerText()).toContain('Generic bot');
    await card.getByRole('button', { name: 'Mel Member' }).click();
    await expect.poll(() => dialog('Mel Member').isVisible(), WAIT).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0);
  });

  it('sends a direct message and views messages sent from the card', async () => {
    await userRow(t.accounts.admin.id).locator('.user-row-button').click();
    const before = page.url();
    await dialog('Ada Admin').getByRole('button', { name: 'Send direct message' }).click();
    // As Zulip's card does: the compose box opens to them, ready to type, where one is.
    const compose = page.getByRole('region', { name: 'Compose' });
    await expect
      .poll(() => compose.locator('.compose-dm-recipients .chip').allTextContents(), WAIT)
      .toEqual([expect.stringContaining('Ada Admin')]);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe('Message');
    expect(page.url()).toBe(before);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await compose.getByLabel('Message', { exact: true }).fill('Hello from the card');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(async () => {
        const res = await t.as('admin').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
        });
        return res.body.messages[0].content;
      }, WAIT)
      .toBe('<p>Hello from the card</p>');
    await userRow(t.accounts.admin.id).locator('.user-row-button').click();
    await dialog('Ada Admin').getByRole('button', { name: 'View messages sent' }).click();
    await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#narrow\/sender\/\d+/);
    await expect.poll(() => page.locator('.message').count(), WAIT).toBe(1);
  });

  it('sets a status from a suggestion, then clears it', async () => {
    const me = t.accounts.member.id;
    await choose(userRow(me), 'Your status', 'Set a status');
    const form = dialog('Set status');
    await expect.poll(() => form.isVisible(), WAIT).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('text');
    await form.getByRole('button', { name: /In a meeting/ }).click();
    expect(await form.getByLabel('Status message').inputValue()).toBe('In a meeting');
    await shot(page, 'status-dialog');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), WAIT).toBe(0);
    const status = async () => (await member().get(`/users/${me}/status`)).body.status;
    expect(await status()).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      emoji_code: '1f4c6',
      reaction_type: 'unicode_emoji',
    });
    await expect
      .poll(() => userRow(me).locator('.user-row-status').textContent(), WAIT)
      .toBe('In a meeting');
    await choose(userRow(me), 'Your status', 'Clear status');
    await expect.poll(status, WAIT).toEqual({});
    await expect.poll(() => userRow(me).locator('.user-row-status').count(), WAIT).toBe(0);
  });

  it('saves a typed status with a chosen emoji', async () => {
    const me = t.accounts.member.id;
    await choose(userRow(me), 'Your status', 'Set a status');
    const form = dialog('Set status');
    // The longest text Zulip allows.
    await form.getByLabel('Status message').fill('x'.repeat(60));
    await form.getByRole('radio', { name: ':tada:' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), WAIT).toBe(0);
    expect((await member().get(`/users/${me}/status`)).body.status).toMatchObject({
      emoji_name: 'tada',
      status_text: 'x'.repeat(60),
    });
  });

  it('sets you away and back', async () => {
    const me = t.accounts.member.id;
    const presenceEnabled = async () =>
      (await member().post('/register', { fetch_event_types: '["user_settings"]' })).body
        .user_settings.presence_enabled;
    await choose(userRow(me), 'Your status', 'Set yourself as away');
    await expect.poll(presenceEnabled, WAIT).toBe(false);
    await expect.poll(() => sectionNames('Offline'), WAIT).toContain('Mel Member (you)');
    await choose(userRow(me), 'Your status', 'Set yourself as active');
    await expect.poll(presenceEnabled, WAIT).toBe(true);
    await expect.poll(() => sectionNames('Active'), WAIT).toContain('Mel Member (you)');
  });

  it('browses channels, subscribes and unsubscribes', async () => {
    await page.getByRole('button', { name: 'Browse channels' }).click();
    const browserDialog = dialog('Channels');
    await expect.poll(() => browserDialog.isVisible(), WAIT).toBe(true);
    const rows = browserDialog.locator('.channel-row');
    // The private channel the member is not in is not theirs to see.
    await expect
      .poll(() => rows.locator('.channel-row-name').allInnerTexts(), WAIT)
      .toEqual(['#general', '#lobby']);
    expect(await rows.nth(1).innerText()).toContain('About lobby');
    const lobbyCount = () =>
      rows.filter({ hasText: '#lobby' }).locator('.channel-row-count').textContent();
    expect(await lobbyCount()).toBe('1 subscriber');
    await shot(page, 'channel-browser');
    await browserDialog.getByRole('button', { name: 'Subscribe to lobby' }).click();
    await expect.poll(async () => (await subscriptionOf(lobby)) !== undefined, WAIT).toBe(true);
    await expect
      .poll(
        () => browserDialog.getByRole('button', { name: 'Unsubscribe from lobby' }).count(),
        WAIT,
      )
      .toBe(1);
    await expect.poll(lobbyCount, WAIT).toBe('2 subscribers');
    // Someone else joining shows at once too.
    await t.as('admin').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'lobby' }]),
    });
    await expect.poll(lobbyCount, WAIT).toBe('3 subscribers');
    await browserDialog.getByRole('button', { name: 'Not subscribed' }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(0);
    await browserDialog.getByRole('button', { name: 'Subscribed', exact: true }).click();
    await browserDialog.getByLabel('Filter channels').fill('lob');
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    await browserDialog.getByRole('button', { name: 'Unsubscribe from lobby' }).click();
    await expect.poll(async () => (await subscriptionOf(lobby)) === undefined, WAIT).toBe(true);
    await expect.poll(() => rows.count(), WAIT).toBe(0);
    await browserDialog.getByRole('button', { name: 'All channels' }).click();
    await expect.poll(lobbyCount, WAIT).toBe('2 subscribers');
    await t.as('admin').delete('/users/me/subscriptions', {
      subscriptions: JSON.stringify(['lobby']),
    });
    await expect.poll(lobbyCount, WAIT).toBe('1 subscriber');
    await browserDialog.getByLabel('Filter channels').fill('');
  });

  it('creates a private channel and opens it; a taken name is refused beside the field', async () => {
    const browserDialog = dialog(/Channels|Create a channel/);
    await browserDialog.getByRole('button', { name: 'Create channel' }).click();
    const form = page.getByRole('form', { name: 'Create a channel' });
    await form.getByLabel('Channel name').fill('General');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => form.locator('.chat-field-error').textContent(), WAIT)
      .toBe('A channel with this name already exists.');
    expect(await form.getByLabel('Channel name').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Channel name').fill('design review');
    await form.getByLabel('Description').fill('Pixels, **fonts**');
    await form.getByLabel(/Private/).check();
    await shot(page, 'create-channel');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0);
    await expect
      .poll(() => new URL(page.url()).hash, WAIT)
      .toMatch(/^#narrow\/channel\/\d+-design-review$/);
    const streams = (await member().get('/users/me/subscriptions')).body.subscriptions;
    expect(streams.find((s: { name: string }) => s.name === 'design review')).toMatchObject({
      invite_only: true,
      description: 'Pixels, **fonts**',
    });
  });

  it('shows the server’s refusal of a bad name next to the name field', async () => {
    await page.getByRole('button', { name: 'Browse channels' }).click();
    await dialog('Channels').getByRole('button', { name: 'Create channel' }).click();
    const form = page.getByRole('form', { name: 'Create a channel' });
    await form.getByLabel('Channel name').fill('bad\u0001name');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => form.locator('.chat-field-error').textContent(), WAIT)
      .toMatch(/channel name/i);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0);
  });

  it('offers only the kinds of channel the organization lets you create', async () => {
    const groups = (await t.as('owner').get('/user_groups')).body.user_groups as {
      id: number;
      name: string;
    }[];
    const admins = groups.find((g) => g.name === 'role:administrators')!.id;
    await t.as('owner').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: admins }),
    });
    await page.getByRole('button', { name: 'Browse channels' }).click();
    await dialog('Channels').getByRole('button', { name: 'Create channel' }).click();
    const form = page.getByRole('form', { name: 'Create a channel' });
    const publicChoice = form.getByRole('radio', { name: /Public/ });
    await expect.poll(() => publicChoice.isDisabled(), WAIT).toBe(true);
    expect(await form.getByRole('radio', { name: /Private/ }).isChecked()).toBe(true);
    expect(await form.innerText()).toContain(
      'You are not allowed to create public channels in this organization.',
    );
    await t.as('owner').patch('/realm', {
      can_create_private_channel_group: JSON.stringify({ new: admins }),
    });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Browse channels' }).click();
    const browseDialog = dialog('Channels');
    await expect
      .poll(() => browseDialog.getByRole('button', { name: 'Create channel' }).isDisabled(), WAIT)
      .toBe(true);
    expect(await browseDialog.innerText()).toContain(
      'Your organization does not let you create channels.',
    );
    await page.keyboard.press('Escape');
  });

  it('mutes, unmutes and pins a channel from its menu', async () => {
    const nav = page.getByRole('navigation', { name: 'Views and channels' });
    await choose(nav, 'Actions for #general', 'Mute channel');
    await expect.poll(async () => (await subscriptionOf(general)).is_muted, WAIT).toBe(true);
    await nav.getByRole('button', { name: 'Actions for #general', exact: true }).click();
    await shot(page, 'channel-menu');
    const menu = page.getByRole('menu', { name: 'Actions for #general' });
    // Arrow keys move through the items; Escape closes and returns focus.
    await page.keyboard.press('ArrowDown');
    expect(await focusedText()).toBe('Pin channel to top');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count(), WAIT).toBe(0);
    expect(await focusedText()).toBe('⋮');
    await choose(nav, 'Actions for #general', 'Unmute channel');
    await expect.poll(async () => (await subscriptionOf(general)).is_muted, WAIT).toBe(false);
    await choose(nav, 'Actions for #general', 'Pin channel to top');
    await expect.poll(async () => (await subscriptionOf(general)).pin_to_top, WAIT).toBe(true);
    await choose(nav, 'Actions for #general', 'Change colour…');
    const colour = dialog('Colour of #general');
    await colour.getByRole('radio', { name: '#bd86e5' }).check();
    await colour.getByRole('button', { name: 'Save colour' }).click();
    await expect.poll(async () => (await subscriptionOf(general)).color, WAIT).toBe('#bd86e5');
    await expect
      .poll(() => nav.locator('.channel-item .channel-swatch').first().getAttribute('style'), WAIT)
      .toContain('rgb(189, 134, 229)');
  });

  it('unsubscribes from a channel after confirming', async () => {
    const nav = page.getByRole('navigation', { name: 'Views and channels' });
    const design = (await member().get('/users/me/subscriptions')).body.subscriptions.find(
      (s: { name: string }) => s.name === 'design review',
    ).stream_id as number;
    await choose(nav, 'Actions for #design review', 'Unsubscribe');
    const confirm = dialog('Unsubscribe from #design review?');
    expect(await confirm.innerText()).toContain('private channel');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await subscriptionOf(design)).toBeDefined();
    await choose(nav, 'Actions for #design review', 'Unsubscribe');
    await dialog('Unsubscribe from #design review?')
      .getByRole('button', { name: 'Unsubscribe' })
      .click();
    await expect.poll(async () => (await subscriptionOf(design)) === undefined, WAIT).toBe(true);
  });

  it('mutes, follows and unfollows a topic; in a muted channel offers unmute', async () => {
    const policyOf = async (topic: string) => {
      const register = await member().post('/register', { fetch_event_types: '["user_topic"]' });
      return (
        register.body.user_topics.find(
          (u: { stream_id: number; topic_name: string }) =>
            u.stream_id === general && u.topic_name === topic,
        )?.visibility_policy ?? 0
      );
    };
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    const main = page.getByRole('main');
    await expect.poll(() => main.locator('.message').count(), WAIT).toBe(2);
    await choose(main, 'Actions for topic lunch', 'Mute topic');
    await expect.poll(() => policyOf('lunch'), WAIT).toBe(1);
    await choose(main, 'Actions for topic lunch', 'Unmute topic');
    await expect.poll(() => policyOf('lunch'), WAIT).toBe(0);
    await choose(main, 'Actions for topic plans', 'Follow topic');
    await expect.poll(() => policyOf('plans'), WAIT).toBe(3);
    await choose(main, 'Actions for topic plans', 'Unfollow topic');
    await expect.poll(() => policyOf('plans'), WAIT).toBe(0);
    await member().post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'is_muted', value: true },
      ]),
    });
    await main.getByRole('button', { name: 'Actions for topic lunch', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Actions for topic lunch' });
    await expect
      .poll(() => menu.getByRole('menuitem').allInnerTexts(), WAIT)
      .toEqual([
        'Unmute topic',
        'Follow topic',
        'Mark as resolved',
        'Mark all messages as read',
        'Copy link to topic',
      ]);
    await shot(page, 'topic-menu');
    await menu.getByRole('menuitem', { name: 'Unmute topic' }).click();
    await expect.poll(() => policyOf('lunch'), WAIT).toBe(2);
  });

  it('marks a topic as read from its menu', async () => {
    await member().post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'is_muted', value: false },
      ]),
    });
    await sendToChannel(t, 'admin', general, 'fresh', 'Something new');
    const unreadIn = async (topic: string) => {
      const answer = await member().get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: JSON.stringify([
          { operator: 'channel', operand: general },
          { operator: 'topic', operand: topic },
          { operator: 'is', operand: 'unread' },
        ]),
      });
      return answer.body.messages.length;
    };
    await expect.poll(() => unreadIn('fresh'), WAIT).toBe(1);
    const main = page.getByRole('main');
    await expect
      .poll(() => main.getByRole('button', { name: 'Actions for topic fresh' }).count(), WAIT)
      .toBe(1);
    await choose(main, 'Actions for topic fresh', 'Mark all messages as read');
    await expect.poll(() => unreadIn('fresh'), WAIT).toBe(0);
  });

  it('resolves and unresolves a topic from its menu in the sidebar', async () => {
    const nav = page.getByRole('navigation', { name: 'Views and channels' });
    await page.goto(`${t.url}/#narrow/channel/${general}-general`);
    const topicOf = async () =>
      (
        await member().get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'search', operand: 'weekend' }]),
        })
      ).body.messages[0].subject;
    await choose(nav, 'Actions for topic plans', 'Mark as resolved');
    await expect.poll(topicOf, WAIT).toBe('✔ plans');
    // The sidebar sets the check mark apart from the name, as Zulip's does.
    const resolved = nav
      .locator('.topic-item')
      .filter({ has: page.locator('.topic-resolved-check') });
    await expect.poll(() => resolved.locator('.sidebar-label').innerText(), WAIT).toMatch(/plans$/);
    // Resolving is no move: the message keeps no "moved" marker.
    const weekend = page.getByRole('main').locator('.message', { hasText: 'Weekend plans?' });
    await expect.poll(() => weekend.count(), WAIT).toBe(1);
    expect(await weekend.locator('.edited-marker').count()).toBe(0);
    await shot(page, 'resolved-topic-sidebar');
    await choose(nav, 'Actions for topic ✔ plans', 'Mark as unresolved');
    await expect.poll(topicOf, WAIT).toBe('plans');
    await expect.poll(() => resolved.count(), WAIT).toBe(0);
  });

  it('offers no resolving where the organization does not allow it', async () => {
    const groups = (await t.as('owner').get('/user_groups')).body.user_groups as {
      id: number;
      name: string;
    }[];
    const moderators = groups.find((g) => g.name === 'role:moderators')!.id;
    await t.as('owner').patch('/realm', {
      can_resolve_topics_group: JSON.stringify({ new: moderators }),
    });
    const nav = page.getByRole('navigation', { name: 'Views and channels' });
    const items = async () => {
      await nav.getByRole('button', { name: 'Actions for topic plans', exact: true }).click();
      const texts = await page
        .getByRole('menu', { name: 'Actions for topic plans' })
        .getByRole('menuitem')
        .allInnerTexts();
      await page.keyboard.press('Escape');
      return texts;
    };
    // The menu opened (its other items are there) without the resolve item.
    await expect
      .poll(async () => {
        const texts = await items();
        return texts.includes('Mark all messages as read') && !texts.includes('Mark as resolved');
      }, WAIT)
      .toBe(true);
  });

  it('fits a phone: the user card and the channel browser at 360 px, in dark mode', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Users', exact: true }).click();
    await shot(page, 'user-list-phone-dark');
    // From the keyboard this time.
    await userRow(t.accounts.admin.id).locator('.user-row-button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog('Ada Admin').isVisible(), WAIT).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'user-card-phone-dark');
    await page.keyboard.press('Escape');
    // The user panel and the channel drawer overlap on a phone: one at a time.
    await page.getByRole('button', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'Channels and views' }).click();
    await page.getByRole('button', { name: 'Browse channels' }).click();
    await expect.poll(() => dialog('Channels').isVisible(), WAIT).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'channel-browser-phone-dark');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('had no script errors or failed requests but the refusal the test provoked', () => {
    const provoked = errors.filter((e) => /^400 .*\/api\/v1\/users\/me\/subscriptions$/.test(e));
    expect(provoked).toHaveLength(1);
    expect(errors.filter((e) => !provoked.includes(e))).toEqual([]);
  });
});
