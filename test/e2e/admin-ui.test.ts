/**
 * The admin UI in headless Chromium against the real server: built from
 * renderer/, served under /admin/, talking tRPC over HTTP with the admin token.
 * Every action is checked through the REST API a Zulip client uses.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../../renderer/build.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, openPage, screenshot, scrollsSideways, WAIT } from './browser.js';

const TOKEN = 'e2e-admin-token-abcdefghijklmnop';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await ensureRenderer();
  t = await startTestServer({ adminToken: TOKEN });
  // The Notification Bot appears when someone resolves a topic.
  const lobby = createChannel(t, { name: 'lobby', subscribers: [t.accounts.owner.id] });
  const id = await sendToChannel(t, 'owner', lobby, 'question', 'hello');
  await t
    .as('owner')
    .patch(`/messages/${id}`, { topic: '✔ question', propagate_mode: 'change_all' });
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser));
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = () => page.getByRole('heading', { level: 1 }).textContent();
const row = (table: string, name: string) =>
  page.locator(`#${table} tbody tr[data-user-id]`).filter({ hasText: name });
const fieldError = (scope: string, label: string) =>
  page
    .locator(scope)
    .locator('.field', { has: page.getByLabel(label, { exact: true }) })
    .locator('.field-error');
const userByName = async (name: string) =>
  (await t.as('owner').get('/users')).body.members.find(
    (u: { full_name: string }) => u.full_name === name,
  );
const goTo = async (label: string) => {
  await page.getByRole('navigation').getByRole('link', { name: label }).click();
  await expect.poll(heading, WAIT).toBe(label);
};

describe('serving /admin/', () => {
  it('serves the built page, its script and stylesheet with a strict CSP', async () => {
    const index = await fetch(`${t.url}/admin/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await index.text();
    expect(html).toContain('<script src="app.js"');
    expect(html).toContain('<base href="/admin/" />');
    const script = await fetch(`${t.url}/admin/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${t.url}/admin/styles.css`)).status).toBe(200);
  });

  it('serves the page for deep links, and nothing outside the build', async () => {
    const bare = await fetch(`${t.url}/admin`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/admin/');
    for (const deep of ['/admin/users', '/admin/channels/12', '/admin/no-such-page/']) {
      const answer = await fetch(t.url + deep);
      expect(answer.status, deep).toBe(200);
      expect(await answer.text()).toContain('<base href="/admin/" />');
    }
    for (const bad of [
      '/admin/nope.js',
      '/admin/..%2Fpackage.json',
      '/admin/.hidden',
      '/admin/.build-inputs.json',
      '/admin/users/app.js',
    ]) {
      expect((await fetch(t.url + bad)).status, bad).toBe(404);
    }
  });
});

describe('the admin UI in a browser', { timeout: 60_000 }, () => {
  it('opens a pasted deep link directly, without a reload', async () => {
    await page.goto(`${t.url}/admin/users#token=${TOKEN}`);
    await expect.poll(heading, WAIT).toBe('Users');
    await expect.poll(() => row('users-table', 'Gus Guest').count(), WAIT).toBe(1);
    // The token leaves the address bar once read; the path stays.
    expect(new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).pathname).toBe('/admin/users');
    expect(await page.locator('.topbar-org').textContent()).toBe('Test Org');
    expect(await page.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('works from the keyboard: skip link, navigation, focus on the new heading', async () => {
    await page.reload();
    await expect.poll(heading, WAIT).toBe('Users');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('link', { name: 'Bots' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(heading, WAIT).toBe('Bots');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), WAIT).toBe('H1');
  });

  it('shows the real URL on the Organization page', async () => {
    await goTo('Organization');
    expect(new URL(page.url()).pathname).toBe('/admin/');
    const connect = (await page.locator('#organization').textContent()) ?? '';
    expect(connect).toContain(t.url);
    expect(connect).toContain('owner@example.com');
    expect(connect).toContain('import zulip');
  });

  it('saves organization settings, and shows a refusal next to the name', async () => {
    await page.getByLabel('Organization name', { exact: true }).fill('  ');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => fieldError('form', 'Organization name').textContent(), WAIT)
      .toBe("Organization name can't be empty.");
    await page.getByLabel('Organization name', { exact: true }).fill('Test Org Renamed');
    await page.getByLabel('Description', { exact: true }).fill('Where tests live.');
    await page.getByLabel('Enable read receipts').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => page.locator('.alert-success').first().textContent(), WAIT)
      .toBe('Settings saved.');
    expect(await fieldError('form', 'Organization name').count()).toBe(0);
    const settings = (await t.as('member').get('/server_settings')).body;
    expect(settings.realm_name).toBe('Test Org Renamed');
    await expect
      .poll(() => page.locator('.topbar-org').textContent(), WAIT)
      .toBe('Test Org Renamed');
    expect(settings.realm_description).toContain('Where tests live.');
    const register = await t.as('member').post('/register', { fetch_event_types: '["realm"]' });
    expect(register.body.realm_enable_read_receipts).toBe(true);
  });

  it('sets and removes the JWT key', async () => {
    await page.getByLabel('New key', { exact: true }).fill('too short');
    await page.getByRole('button', { name: 'Set key' }).click();
    await expect.poll(() => fieldError('form', 'New key').count(), WAIT).toBe(1);
    await page.getByLabel('New key', { exact: true }).fill('k'.repeat(40));
    await page.getByRole('button', { name: 'Set key' }).click();
    await expect
      .poll(() => page.getByText('JWT key saved: JWT login is on.').count(), WAIT)
      .toBe(1);
    await page.getByRole('button', { name: 'Remove key' }).click();
    await expect
      .poll(() => page.getByText('JWT key removed: JWT login is off.').count(), WAIT)
      .toBe(1);
  });

  it('creates a user with a role, naming them after the form clears', async () => {
    await goTo('Users');
    await page.click('#add-user');
    const form = page.locator('#add-user-form');
    await form.getByLabel('Full name').fill('Uma Interface');
    await form.getByLabel('E-mail').fill('uma@example.com');
    await form.getByLabel('Password').fill('a password for uma');
    await form.getByLabel('Role').selectOption('300');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Created Uma Interface.');
    await expect.poll(() => row('users-table', 'Uma Interface').count(), WAIT).toBe(1);
    expect(await form.getByLabel('Full name').inputValue()).toBe('');

    await expect.poll(async () => (await userByName('Uma Interface'))?.role, WAIT).toBe(300);
    expect(await userByName('Uma Interface')).toMatchObject({
      is_active: true,
      delivery_email: 'uma@example.com',
    });
    const login = await t.anonymous().post('/fetch_api_key', {
      username: 'uma@example.com',
      password: 'a password for uma',
    });
    expect(login.status).toBe(200);
  });

  it('shows a refusal next to its field, and no earlier success beside it', async () => {
    const form = page.locator('#add-user-form');
    await form.getByLabel('Full name').fill('Mel Again');
    await form.getByLabel('E-mail').fill('member@example.com');
    await form.getByLabel('Password').fill('whatever password');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect
      .poll(() => fieldError('#add-user-form', 'E-mail').textContent(), WAIT)
      .toBe("Email 'member@example.com' already in use");
    expect(await form.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.alert-success:visible').count()).toBe(0);
    expect(await row('users-table', 'Mel Again').count()).toBe(0);

    await form.getByLabel('E-mail').fill('mel.again@example.com');
    await form.getByLabel('Full name').fill('M');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect
      .poll(() => fieldError('#add-user-form', 'Full name').textContent(), WAIT)
      .toBe('The name is too short.');
    expect(await fieldError('#add-user-form', 'E-mail').count()).toBe(0);

    // Said as a person would, not as the API words it ("Invalid email ''").
    await form.getByLabel('Full name').fill('Mel Again');
    await form.getByLabel('E-mail').fill('');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect
      .poll(() => fieldError('#add-user-form', 'E-mail').textContent(), WAIT)
      .toBe('Enter an e-mail address.');

    // The password rule: shown under the field, and the server's refusal with it.
    const hint = form
      .locator('.field', { has: page.getByLabel('Password', { exact: true }) })
      .locator('.field-hint');
    expect(await hint.textContent()).toMatch(/^6 to 100 characters, and hard to guess.*empty/);
    await form.getByLabel('E-mail').fill('mel.again@example.com');
    await form.getByLabel('Password').fill('123456');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect
      .poll(() => fieldError('#add-user-form', 'Password').textContent(), WAIT)
      .toBe('The password is too weak.');
    expect(await form.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await userByName('Mel Again')).toBeUndefined();
    await screenshot(page, 'new-user-weak-password');
    await page.click('#add-user'); // close the form
  });

  it('changes a role, and says beside the select why the only owner keeps theirs', async () => {
    await row('users-table', 'Mel Member').getByRole('combobox').selectOption('200');
    await expect
      .poll(
        async () => (await t.as('owner').get(`/users/${t.accounts.member.id}`)).body.user.role,
        WAIT,
      )
      .toBe(200);
    await row('users-table', 'Mel Member').getByRole('combobox').selectOption('400');
    await expect
      .poll(
        async () => (await t.as('owner').get(`/users/${t.accounts.member.id}`)).body.user.role,
        WAIT,
      )
      .toBe(400);

    const owner = row('users-table', 'Olivia Owner');
    await owner.getByRole('combobox').selectOption('400');
    await expect
      .poll(() => owner.locator('.field-error').textContent(), WAIT)
      .toBe('The owner permission cannot be removed from the only organization owner.');
    expect(await owner.getByRole('combobox').inputValue()).toBe('100');
  });

  it('deactivates only after confirmation, and reactivates', async () => {
    const mo = () => row('users-table', 'Mo Moderator');
    await mo().getByRole('button', { name: 'Deactivate Mo Moderator' }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.getByRole('heading').textContent(), WAIT)
      .toBe('Deactivate Mo Moderator?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    expect((await t.as('owner').get(`/users/${t.accounts.moderator.id}`)).body.user.is_active).toBe(
      true,
    );

    await mo().getByRole('button', { name: 'Deactivate Mo Moderator' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect
      .poll(() => mo().locator('td[data-label=Status]').textContent(), WAIT)
      .toBe('Deactivated');
    expect((await t.as('owner').get(`/users/${t.accounts.moderator.id}`)).body.user.is_active).toBe(
      false,
    );
    await mo().getByRole('button', { name: 'Reactivate Mo Moderator' }).click();
    await expect
      .poll(() => mo().locator('td[data-label=Status]').textContent(), WAIT)
      .toBe('Active');
    const tableMessage = page.locator('section[aria-label=Users] > .alert');
    expect(await tableMessage.textContent()).toBe('Mo Moderator is active again.');
    // A later refusal elsewhere in the table does not stand beside that success.
    const owner = row('users-table', 'Olivia Owner');
    await owner.getByRole('combobox').selectOption('200');
    await expect.poll(() => owner.locator('.field-error').count(), WAIT).toBe(1);
    expect(await tableMessage.count()).toBe(0);
    expect((await t.as('owner').get(`/users/${t.accounts.moderator.id}`)).body.user.is_active).toBe(
      true,
    );
  });

  it('renames a user, sets their password and replaces their API key', async () => {
    await row('users-table', 'Gus Guest').getByRole('button', { name: 'Manage Gus Guest' }).click();
    const tools = page.locator('.tools');
    await tools.getByLabel('Full name').fill('Gus Renamed');
    await tools.getByRole('button', { name: 'Rename' }).click();
    await expect
      .poll(async () => (await userByName('Gus Renamed'))?.user_id, WAIT)
      .toBe(t.accounts.guest.id);

    await tools.getByLabel('New password').fill('abc');
    await tools.getByRole('button', { name: 'Set password' }).click();
    await expect
      .poll(() => fieldError('.tools', 'New password').textContent(), WAIT)
      .toBe('New password is too weak!');
    await tools.getByLabel('New password').fill('a new guest password');
    await tools.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => tools.getByText('Password changed.').count(), WAIT).toBe(1);
    const login = await t.anonymous().post('/fetch_api_key', {
      username: 'guest@example.com',
      password: 'a new guest password',
    });
    expect(login.status).toBe(200);

    await tools.getByRole('button', { name: 'New API key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make a new key' }).click();
    const key = (await tools.locator('.secret-text').textContent()) ?? '';
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await t.as('guest').get('/users/me')).status).toBe(401);
    const fresh = new ApiClient(t.url, { email: 'guest@example.com', apiKey: key });
    expect((await fresh.get('/users/me')).body.full_name).toBe('Gus Renamed');
  });

  it('downloads a zuliprc that logs in', async () => {
    const tools = page.locator('.tools');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      tools.getByRole('button', { name: 'Download zuliprc' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('zuliprc');
    const file = await download.path();
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    expect(text).toContain('email=guest@example.com');
    expect(text).toContain(`site=${t.url}`);
    const apiKey = /key=(\S+)/.exec(text)![1]!;
    const client = new ApiClient(t.url, { email: 'guest@example.com', apiKey });
    expect((await client.get('/users/me')).status).toBe(200);
  });

  it('creates a bot and shows its API key until dismissed', async () => {
    await goTo('Bots');
    await page.click('#add-bot');
    const form = page.locator('#add-bot-form');
    await form.getByLabel('Name', { exact: true }).fill('Build Bot');
    await form.getByLabel('Username').fill('build');
    await form.getByRole('button', { name: 'Create bot' }).click();
    const secret = form.locator('.secret-text');
    await expect.poll(() => secret.count(), WAIT).toBe(1);
    const apiKey = (await secret.textContent()) ?? '';
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await form.locator('.created-key').textContent()).toContain('build-bot@test.hearth');
    await expect.poll(() => row('bots-table', 'Build Bot').count(), WAIT).toBe(1);
    const me = await new ApiClient(t.url, { email: 'build-bot@test.hearth', apiKey }).get(
      '/users/me',
    );
    expect(me.body).toMatchObject({ is_bot: true, full_name: 'Build Bot' });

    await form.getByLabel('Name', { exact: true }).fill('Another');
    await form.getByLabel('Username').fill('build');
    await form.getByRole('button', { name: 'Create bot' }).click();
    await expect.poll(() => fieldError('#add-bot-form', 'Username').count(), WAIT).toBe(1);
    expect(await form.locator('.secret-text').count()).toBe(0);
  });

  it('offers no role or deactivation for the Notification Bot', async () => {
    const bot = row('bots-table', 'Notification Bot');
    await expect.poll(() => bot.count(), WAIT).toBe(1);
    expect(await bot.getByRole('combobox').count()).toBe(0);
    expect(await bot.getByRole('button').count()).toBe(0);
    expect(await bot.textContent()).toContain('System bot');
    // A generic bot still has both.
    expect(await row('bots-table', 'Test Bot').getByRole('combobox').count()).toBe(1);
  });

  it('deactivates a bot after confirmation, and reactivates it', async () => {
    const bot = () => row('bots-table', 'Test Bot');
    const botId = t.accounts.bot.id;
    const isActive = async () =>
      (await t.as('owner').get(`/users/${botId}`)).body.user.is_active as boolean;
    await bot().getByRole('button', { name: 'Deactivate Test Bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect
      .poll(() => bot().locator('td[data-label=Status]').textContent(), WAIT)
      .toBe('Deactivated');
    expect(await isActive()).toBe(false);
    expect(await page.locator('section[aria-label=Bots] > .alert').textContent()).toBe(
      'Test Bot is deactivated.',
    );
    // Its key is refused while deactivated.
    expect((await t.as('bot').get('/users/me')).status).toBe(401);
    await bot().getByRole('button', { name: 'Reactivate Test Bot' }).click();
    await expect
      .poll(() => bot().locator('td[data-label=Status]').textContent(), WAIT)
      .toBe('Active');
    expect(await isActive()).toBe(true);
  });

  it('creates a channel, edits it, manages members and archives it', async () => {
    await goTo('Channels');
    await page.click('#add-channel');
    const form = page.locator('#add-channel-form');
    await form.getByLabel('Name', { exact: true }).fill('design');
    await form.getByLabel('Description').fill('Shapes and colours');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Created #design.');
    const streams = async () =>
      (await t.as('owner').get('/streams', { include_all: true })).body.streams as {
        stream_id: number;
        name: string;
        invite_only: boolean;
        description: string;
      }[];
    const design = (await streams()).find((s) => s.name === 'design')!;
    expect(design.description).toBe('Shapes and colours');

    await form.getByLabel('Name', { exact: true }).fill('design');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect.poll(() => fieldError('#add-channel-form', 'Name').count(), WAIT).toBe(1);

    await page.getByRole('link', { name: '#design' }).click();
    await expect.poll(heading, WAIT).toBe('#design');
    expect(new URL(page.url()).pathname).toBe(`/admin/channels/${design.stream_id}`);

    await page.getByLabel('Add a subscriber').selectOption({ label: 'Mel Member' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => page.locator('#channel-members').textContent(), WAIT)
      .toContain('Mel Member');
    const members = async () =>
      (await t.as('owner').get(`/streams/${design.stream_id}/members`)).body.subscribers;
    expect(await members()).toContain(t.accounts.member.id);
    await page.getByRole('button', { name: 'Remove Mel Member' }).click();
    await expect.poll(members, WAIT).not.toContain(t.accounts.member.id);

    await page.getByLabel('Name', { exact: true }).fill('design-team');
    await page.getByLabel('Privacy').selectOption('private');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await expect.poll(heading, WAIT).toBe('#design-team');
    expect((await streams()).find((s) => s.stream_id === design.stream_id)).toMatchObject({
      name: 'design-team',
      invite_only: true,
    });

    await page.getByRole('button', { name: 'Archive #design-team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(heading, WAIT).toBe('Channels');
    expect((await streams()).some((s) => s.stream_id === design.stream_id)).toBe(false);
  });

  it('creates a group, renames it, manages members and deactivates it', async () => {
    await goTo('User groups');
    await page.click('#add-group');
    const form = page.locator('#add-group-form');
    await form.getByLabel('Name', { exact: true }).fill('reviewers');
    await form.getByLabel('Description').fill('They read drafts');
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Created the group reviewers.');
    const groups = async () =>
      (await t.as('owner').get('/user_groups', { include_deactivated_groups: true })).body
        .user_groups as { id: number; name: string; members: number[]; deactivated: boolean }[];
    const group = (await groups()).find((g) => g.name === 'reviewers')!;

    await form.getByLabel('Name', { exact: true }).fill('reviewers');
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect.poll(() => fieldError('#add-group-form', 'Name').count(), WAIT).toBe(1);

    await page.getByRole('link', { name: 'reviewers' }).click();
    await expect.poll(heading, WAIT).toBe('reviewers');
    expect(new URL(page.url()).pathname).toBe(`/admin/groups/${group.id}`);
    await page.getByLabel('Add a member').selectOption({ label: 'Mel Member' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(async () => (await groups()).find((g) => g.id === group.id)!.members, WAIT)
      .toEqual([t.accounts.member.id]);
    await page.getByRole('button', { name: 'Remove Mel Member' }).click();
    await expect
      .poll(async () => (await groups()).find((g) => g.id === group.id)!.members, WAIT)
      .toEqual([]);

    await page.getByLabel('Name', { exact: true }).fill('editors');
    await page.getByRole('button', { name: 'Save group' }).click();
    await expect.poll(heading, WAIT).toBe('editors');
    await page.getByRole('button', { name: 'Deactivate editors' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect
      .poll(async () => (await groups()).find((g) => g.id === group.id), WAIT)
      .toMatchObject({ name: 'editors', deactivated: true });
  });

  it('adds, edits, reorders and deletes custom profile fields', async () => {
    await goTo('Profile fields');
    await page.click('#add-field');
    const form = page.locator('#add-field-form');
    const restFields = async () =>
      (await t.as('member').get('/realm/profile_fields')).body.custom_fields as {
        id: number;
        name: string;
        type: number;
        hint: string;
        field_data: string;
        required: boolean;
      }[];

    await form.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => fieldError('#add-field-form', 'Label').count(), WAIT).toBe(1);

    await form.getByLabel('Label').fill('Team');
    await form.getByLabel('Type').selectOption({ label: 'List of options' });
    await form.getByLabel('Options').fill('Kitchen\nGarden\n');
    await form.getByLabel('Required').check();
    await form.getByRole('button', { name: 'Add field' }).click();
    await expect
      .poll(() => form.locator('.alert-success').textContent(), WAIT)
      .toBe('Added the field Team.');
    await form.getByLabel('Label').fill('Desk');
    await form.getByRole('button', { name: 'Add field' }).click();
    await expect
      .poll(async () => (await restFields()).map((f) => f.name), WAIT)
      .toEqual(['Team', 'Desk']);
    const team = (await restFields())[0]!;
    expect(team).toMatchObject({ type: 3, required: true });
    expect(
      Object.values(JSON.parse(team.field_data)).map((o) => (o as { text: string }).text),
    ).toEqual(['Kitchen', 'Garden']);

    await page.getByRole('button', { name: 'Move down Team' }).click();
    await expect
      .poll(async () => (await restFields()).map((f) => f.name), WAIT)
      .toEqual(['Desk', 'Team']);

    await page.getByRole('button', { name: 'Edit Desk' }).click();
    const edit = page.getByRole('form', { name: 'Edit Desk' });
    await edit.getByLabel('Hint').fill('Where to find you');
    await edit.getByRole('button', { name: 'Save field' }).click();
    await expect
      .poll(async () => (await restFields()).find((f) => f.name === 'Desk')?.hint, WAIT)
      .toBe('Where to find you');

    await page.getByRole('button', { name: 'Delete Team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await restFields()).map((f) => f.name), WAIT).toEqual(['Desk']);
  });

  it('adds and removes a code playground', async () => {
    await goTo('Code playgrounds');
    const form = page.locator('#add-playground-form');
    const rest = async () =>
      (await t.as('member').post('/register', { fetch_event_types: '["realm_playgrounds"]' })).body
        .realm_playgrounds as { id: number; name: string }[];
    await form.getByLabel('Name').fill('Rust Playground');
    await form.getByLabel('Language').fill('rust');
    await form.getByLabel('URL template').fill('https://play.example/?code');
    await form.getByRole('button', { name: 'Add playground' }).click();
    await expect
      .poll(() => fieldError('#add-playground-form', 'URL template').count(), WAIT)
      .toBe(1);
    await form.getByLabel('URL template').fill('https://play.example/?code={code}');
    await form.getByRole('button', { name: 'Add playground' }).click();
    await expect
      .poll(async () => (await rest()).map((p) => p.name), WAIT)
      .toEqual(['Rust Playground']);
    await page.getByRole('button', { name: 'Remove Rust Playground' }).click();
    await expect.poll(async () => (await rest()).length, WAIT).toBe(0);
  });

  it('adds, changes and removes an allowed e-mail domain', async () => {
    await goTo('Allowed e-mail domains');
    const form = page.locator('#add-domain-form');
    const rest = async () =>
      (await t.as('member').post('/register', { fetch_event_types: '["realm_domains"]' })).body
        .realm_domains as { domain: string; allow_subdomains: boolean }[];
    await form.getByLabel('Domain', { exact: true }).fill('not a domain');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => fieldError('#add-domain-form', 'Domain').count(), WAIT).toBe(1);
    await form.getByLabel('Domain', { exact: true }).fill('Example.ORG');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(rest, WAIT).toEqual([{ domain: 'example.org', allow_subdomains: false }]);
    await page.getByLabel('Subdomains of example.org').check();
    await expect.poll(rest, WAIT).toEqual([{ domain: 'example.org', allow_subdomains: true }]);
    await page.getByRole('button', { name: 'Remove example.org' }).click();
    await expect.poll(rest, WAIT).toEqual([]);
  });

  it("lists everyone's scheduled messages, keeping direct messages' text private", async () => {
    const lobby = (await t.as('owner').get('/get_stream_id', { stream: 'lobby' })).body.stream_id;
    const later = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = await t.as('owner').post('/scheduled_messages', {
      type: 'stream',
      to: JSON.stringify(lobby),
      topic: 'plans',
      content: 'See you at noon',
      scheduled_delivery_timestamp: later,
    });
    expect(scheduled.status).toBe(200);
    const direct = await t.as('member').post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([t.accounts.admin.id]),
      content: 'a private note',
      scheduled_delivery_timestamp: later + 60,
    });
    expect(direct.status).toBe(200);
    await goTo('Scheduled messages');
    const table = page.locator('#scheduled-table');
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(2);
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows[0]).toContain('Olivia Owner');
    expect(rows[0]).toContain('#lobby > plans');
    expect(rows[0]).toContain('See you at noon');
    expect(rows[1]).toContain('Mel Member');
    expect(rows[1]).toContain('Ada Admin');
    expect(rows[1]).not.toContain('a private note');
  });

  it('shows the server status', async () => {
    await goTo('Server status');
    const status = page.locator('#server-status');
    await expect.poll(() => status.textContent(), WAIT).toContain(t.url);
    const text = (await status.textContent()) ?? '';
    expect(text).toMatch(/Live event queues\d+/);
    expect(text).toMatch(/Messages\d+/);
  });

  it('looks right (screenshot) and logged no errors', async () => {
    await goTo('Users');
    await screenshot(page, 'users-wide');
    expect(errors).toEqual([]);
  });
});

describe('at 420 px and in dark mode', { timeout: 60_000 }, () => {
  it('never scrolls sideways, on any page', async () => {
    const narrow = await openPage(browser, { viewport: { width: 420, height: 800 } });
    await narrow.page.goto(`${t.url}/admin/#token=${TOKEN}`);
    // The page keeps the token for the tab only once its script has read it.
    await expect
      .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Organization');
    const pages = [
      ['/', 'Organization'],
      ['/users', 'Users'],
      ['/bots', 'Bots'],
      ['/channels', 'Channels'],
      ['/groups', 'User groups'],
      ['/profile-fields', 'Profile fields'],
      ['/playgrounds', 'Code playgrounds'],
      ['/domains', 'Allowed e-mail domains'],
      ['/scheduled', 'Scheduled messages'],
      ['/status', 'Server status'],
    ] as const;
    for (const width of [420, 720]) {
      await narrow.page.setViewportSize({ width, height: 800 });
      for (const [path, title] of pages) {
        await narrow.page.goto(`${t.url}/admin${path}`);
        await expect
          .poll(() => narrow.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
          .toBe(title);
        await narrow.page.waitForLoadState('networkidle');
        expect(await scrollsSideways(narrow.page), `${path} at ${width} px`).toBe(false);
        await screenshot(narrow.page, `${width}px-${title.toLowerCase().replaceAll(' ', '-')}`);
      }
    }
    await narrow.page.setViewportSize({ width: 420, height: 800 });
    await narrow.page.goto(`${t.url}/admin/users`);
    await expect
      .poll(() => narrow.page.locator('#users-table tbody tr').count(), WAIT)
      .toBeGreaterThan(3);
    await screenshot(narrow.page, 'users-420px');
    for (const width of [720, 900]) {
      await narrow.page.setViewportSize({ width, height: 800 });
      expect(await scrollsSideways(narrow.page), `${width} px`).toBe(false);
    }
    expect(narrow.errors).toEqual([]);
  });

  it('follows the system dark mode', async () => {
    const dark = await openPage(browser, { colorScheme: 'dark' });
    await dark.page.goto(`${t.url}/admin/users#token=${TOKEN}`);
    await expect
      .poll(() => dark.page.locator('#users-table tbody tr').count(), WAIT)
      .toBeGreaterThan(3);
    const background = await dark.page.evaluate(
      () => getComputedStyle(document.documentElement).backgroundColor,
    );
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(150);
    await screenshot(dark.page, 'users-dark');
    expect(dark.errors).toEqual([]);
  });
});

describe('without a usable token', () => {
  it('says what is wrong', async () => {
    const wrong = await openPage(browser);
    await wrong.page.goto(`${t.url}/admin/#token=not-the-token`);
    await expect
      .poll(() => wrong.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Admin token not accepted');
    const none = await openPage(browser);
    await none.page.goto(`${t.url}/admin/`);
    await expect
      .poll(() => none.page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Admin link needed');
  });
});
