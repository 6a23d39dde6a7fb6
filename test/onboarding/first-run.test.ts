/**
 * A first run that clients survive: the organization the command line's
 * first start (ensureOrganization) and the desktop wizard (completeSetup)
 * create has default channels with a first message each, a Welcome Bot, and
 * a welcome for the owner; people added later are subscribed to the default
 * channels and greeted. Read the way a client starting up reads it:
 * POST /register, then the newest messages of the home view.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSetup, ensureOrganization } from '../../server/bootstrap.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { ApiClient } from '../helpers/server.js';

interface Started {
  server: RunningServer;
  dir: string;
}

async function start(): Promise<Started> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-first-run-'));
  const server = await createServer({ dataDir: dir, port: 0, rateLimit: false });
  return { server, dir };
}

async function stop({ server, dir }: Started): Promise<void> {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

/** What a client reads at start: register, then the home view's newest messages. */
async function open(client: ApiClient) {
  const register = await client.post('/register', {});
  expect(register.status, JSON.stringify(register.body)).toBe(200);
  const messages = await client.get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: [],
  });
  expect(messages.status).toBe(200);
  return { state: register.body, messages: messages.body.messages };
}

const PASSWORD = 'a long enough password';

/** The owner adds a person (POST /users); a client logged in as them. */
async function addPerson(owner: ApiClient, url: string, email: string, fullName: string) {
  const res = await owner.post('/users', { email, password: PASSWORD, full_name: fullName });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const key = await new ApiClient(url, null).post('/fetch_api_key', {
    username: email,
    password: PASSWORD,
  });
  return new ApiClient(url, { email, apiKey: key.body.api_key });
}

const names = (subs: Array<{ name: string }>) => subs.map((s) => s.name).sort();

describe('the command line’s first start', () => {
  let s: Started;
  let owner: ApiClient;
  beforeAll(async () => {
    s = await start();
    const boot = await ensureOrganization(s.server, { demo: false });
    owner = new ApiClient(s.server.url, { email: boot.ownerEmail, apiKey: boot.apiKey });
  });
  afterAll(() => stop(s));

  it('opens on channels, a first message in each and the Welcome Bot’s welcome', async () => {
    const { state, messages } = await open(owner);
    expect(names(state.subscriptions)).toEqual(['general', 'sandbox']);
    const ids = Object.fromEntries(
      state.subscriptions.map((c: { name: string; stream_id: number }) => [c.name, c.stream_id]),
    );
    expect([...state.realm_default_streams].sort()).toEqual([ids.general, ids.sandbox].sort());
    expect(state.realm_new_stream_announcements_stream_id).toBe(ids.general);

    const bot = state.realm_users.find((u: { full_name: string }) => u.full_name === 'Welcome Bot');
    expect(bot).toMatchObject({ is_bot: true, bot_owner_id: null });
    expect(state.cross_realm_bots ?? []).not.toContainEqual(
      expect.objectContaining({ user_id: -1 }),
    );

    // Newest last: the sandbox's and general's first messages, then the welcome.
    expect(
      messages.map((m: { display_recipient: unknown; subject: string }) => [
        typeof m.display_recipient === 'string' ? m.display_recipient : 'dm',
        m.subject,
      ]),
    ).toEqual([
      ['sandbox', 'experiments'],
      ['general', 'welcome'],
      ['dm', ''],
    ]);
    for (const m of messages) expect(m.sender_id).toBe(bot.user_id);
    expect(messages[1].content).toContain('topic');
    expect(messages[2].content).toContain('welcome to <strong>Hearth</strong>');
    // Unread: a client's Inbox has something to show.
    expect(state.unread_msgs.count).toBe(3);
  });

  it('subscribes people added later to the default channels and greets them', async () => {
    const res = await owner.post('/users', {
      email: 'newcomer@example.com',
      password: 'a long enough password',
      full_name: 'New Comer',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const key = await new ApiClient(s.server.url, null).post('/fetch_api_key', {
      username: 'newcomer@example.com',
      password: 'a long enough password',
    });
    const newcomer = new ApiClient(s.server.url, {
      email: 'newcomer@example.com',
      apiKey: key.body.api_key,
    });
    const { state, messages } = await open(newcomer);
    expect(names(state.subscriptions)).toEqual(['general', 'sandbox']);
    expect(messages).toHaveLength(1);
    expect(messages[0].sender_full_name).toBe('Welcome Bot');
    expect(messages[0].content).toContain('#general');
    // A member is not told about administering the organization.
    expect(messages[0].content).not.toContain('administrator');
    // The channel's history is there to read.
    const general = await newcomer.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'general' }],
    });
    expect(general.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['welcome']);
  });

  it('does it once: a later start adds nothing', async () => {
    const before = await open(owner);
    await ensureOrganization(s.server, { demo: false });
    const after = await open(owner);
    expect(names(after.state.subscriptions)).toEqual(names(before.state.subscriptions));
    expect(after.messages).toHaveLength(before.messages.length);
  });
});

describe('the desktop wizard', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => stop(s));

  it('creates the same first-run content for the owner it set up', async () => {
    const pending = await ensureOrganization(s.server, { demo: false, deferToWizard: true });
    expect(pending.created).toBe(false);
    await completeSetup(s.server.ctx, null, {
      realmName: 'Acme',
      ownerName: 'Ada Lovelace',
      email: 'ada@acme.example',
      password: 'a long enough password',
    });
    const key = await new ApiClient(s.server.url, null).post('/fetch_api_key', {
      username: 'ada@acme.example',
      password: 'a long enough password',
    });
    const { state, messages } = await open(
      new ApiClient(s.server.url, { email: 'ada@acme.example', apiKey: key.body.api_key }),
    );
    expect(names(state.subscriptions)).toEqual(['general', 'sandbox']);
    expect(messages).toHaveLength(3);
    expect(messages[2].content).toContain('<strong>Acme</strong>');
    // The owner is told how to bring people in.
    expect(messages[2].content).toContain('administrator');
  });
});

describe('the demo', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => stop(s));

  it('stays as it is: its own channels, no Welcome Bot', async () => {
    const boot = await ensureOrganization(s.server, { demo: true });
    const owner = new ApiClient(s.server.url, { email: boot.ownerEmail, apiKey: boot.apiKey });
    const { state } = await open(owner);
    expect(state.realm_users.map((u: { full_name: string }) => u.full_name)).not.toContain(
      'Welcome Bot',
    );
    expect(names(state.subscriptions)).not.toContain('sandbox');
  });
});

describe('POST /realm/test_welcome_bot_custom_message', () => {
  let s: Started;
  let owner: ApiClient;
  beforeAll(async () => {
    s = await start();
    const boot = await ensureOrganization(s.server, { demo: false });
    owner = new ApiClient(s.server.url, { email: boot.ownerEmail, apiKey: boot.apiKey });
  });
  afterAll(() => stop(s));

  it('sends the caller the text as newcomers get it, quoted as the administrators’ note', async () => {
    const res = await owner.post('/realm/test_welcome_bot_custom_message', {
      welcome_message_custom_text: 'Lunch is at **noon**.',
    });
    expect(res.body).toEqual({ result: 'success', msg: '', message_id: expect.any(Number) });
    const sent = (await owner.get(`/messages/${res.body.message_id}`, { apply_markdown: false }))
      .body.message;
    expect(sent.sender_full_name).toBe('Welcome Bot');
    expect(sent.content).toBe(
      'A note from @_*role:administrators*:\n```quote\nLunch is at **noon**.\n```',
    );
    expect(
      (
        await owner.post('/realm/test_welcome_bot_custom_message', {
          welcome_message_custom_text: '',
        })
      ).body,
    ).toEqual({ result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
  });

  it('the organization’s text follows the welcome of people added later', async () => {
    await owner.patch('/realm', { welcome_message_custom_text: 'Read #**general** first.' });
    const later = await addPerson(owner, s.server.url, 'later@example.com', 'Lou Later');
    const { messages } = await open(later);
    expect(messages).toHaveLength(2);
    expect(messages[1].content).toContain('A note from');
    expect(messages[1].content).toContain('Read');
  });

  it('is for administrators', async () => {
    const plain = await addPerson(owner, s.server.url, 'plain@example.com', 'Pat Plain');
    const res = await plain.post('/realm/test_welcome_bot_custom_message', {
      welcome_message_custom_text: 'x',
    });
    expect(res.body).toEqual({
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
  });
});
