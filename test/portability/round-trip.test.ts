/**
 * Hearth -> Zulip 12 export -> Hearth: a seeded organization (seed.ts) is
 * exported, imported into an empty data directory, and both servers must
 * give the same answers to the same API calls, user by user. The import
 * keeps Zulip's ids, so ids are compared as they are.
 *
 * Differences allowed by design (and stripped below):
 * - API keys and passwords: never exported; imported people get new keys
 *   and no usable password.
 * - avatar_url: the same picture, but the URL carries the file-store key.
 * - delivered scheduled messages, drafts, poll/to-do state, presence: not
 *   in the export (Zulip does not import them).
 * - the Notification Bot: Zulip maps it to its own system bot; Hearth
 *   re-creates it under the same id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { createServer, DATABASE_FILE, FILES_DIR, type RunningServer } from '../../server/index.js';
import {
  checkExportContract,
  importZulipExport,
  profileNamed,
  writeZulipExport,
} from '../../server/portability/index.js';
import {
  ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { type Seeded, seedOrganization } from './seed.js';

const profile = profileNamed('zulip-12');
let t: TestServer;
let seeded: Seeded;
let work: string;
let imported: RunningServer;
const people: FixtureName[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];

beforeAll(async () => {
  t = await startTestServer();
  seeded = await seedOrganization(t);
  work = mkdtempSync(path.join(os.tmpdir(), 'hearth-roundtrip-'));
  const out = path.join(work, 'export.tar.gz');
  await writeZulipExport({
    databaseFile: t.server.ctx.db.name,
    filesDir: t.server.ctx.config.filesDir,
    out,
    profile,
    verify: (dir) => checkExportContract(dir, profile, { writtenByHearth: true }),
  });
  const dataDir = path.join(work, 'imported');
  await importZulipExport({
    dataDir,
    databaseName: DATABASE_FILE,
    filesName: FILES_DIR,
    source: out,
    profile,
  });
  imported = await createServer({
    dataDir,
    port: 0,
    rateLimit: false,
    logFile: false,
    scheduledDelivery: false,
    automaticBackups: false,
    unclaimedUploadCleanup: false,
  });
}, 90_000);
afterAll(async () => {
  await imported?.close();
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The same person on both servers. */
function pair(who: FixtureName): [ApiClient, ApiClient] {
  const account = t.accounts[who];
  const row = userById(imported.ctx.db, account.id)!;
  return [t.as(who), new ApiClient(imported.url, { email: account.email, apiKey: row.api_key })];
}

/** A JSON value without the keys that differ by design. */
function normal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normal);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // Zulip's format lists its system bots (zerver_userprofile_crossrealm)
    // by id and address only: the import makes them anew, joined now.
    const systemBot = String((value as { email?: unknown }).email).startsWith('notification-bot@');
    for (const [k, v] of Object.entries(value)) {
      if (systemBot && k === 'date_joined') continue;
      if (
        [
          'avatar_url',
          'api_key',
          'queue_id',
          'last_event_id',
          'server_generation',
          'avatar_version',
        ].includes(k)
      )
        continue;
      out[k] = normal(v);
    }
    return out;
  }
  return value;
}

async function sameAnswer(
  who: FixtureName,
  method: 'get' | 'post',
  endpoint: string,
  params: Record<string, unknown> = {},
) {
  const [before, after] = pair(who);
  const a = await before[method](endpoint, params, { skipSchema: true });
  const b = await after[method](endpoint, params, { skipSchema: true });
  expect(b.status, `${who} ${endpoint}: ${JSON.stringify(b.body).slice(0, 300)}`).toBe(a.status);
  expect(normal(b.body), `${who} ${method.toUpperCase()} ${endpoint}`).toEqual(normal(a.body));
  return a.body;
}

describe('after a round trip through the Zulip 12 format', () => {
  it('the import kept the organization', async () => {
    expect(userById(imported.ctx.db, t.accounts.member.id)?.password_hash).toBeNull();
  });

  it('users, bots, deactivated users and profile data are the same', async () => {
    await sameAnswer('owner', 'get', '/users', { include_custom_profile_fields: 'true' });
    await sameAnswer('owner', 'get', `/users/${seeded.deactivatedId}`);
    await sameAnswer('member', 'get', '/users/me');
    await sameAnswer('owner', 'get', '/realm/profile_fields');
  });

  it('channels and every person’s subscriptions with their settings are the same', async () => {
    await sameAnswer('owner', 'get', '/streams', { include_all: 'true' });
    for (const who of people)
      await sameAnswer(who, 'get', '/users/me/subscriptions', { include_subscribers: 'true' });
  });

  it('every person sees the same messages with the same flags, reactions and edits', async () => {
    for (const who of people) {
      const body = await sameAnswer(who, 'get', '/messages', {
        anchor: 'newest',
        num_before: 200,
        num_after: 0,
        apply_markdown: 'true',
      });
      // The bot is in no channel and no conversation.
      if (who !== 'bot') expect(body.messages.length).toBeGreaterThan(0);
      for (const narrow of [
        [{ operator: 'is', operand: 'starred' }],
        [{ operator: 'is', operand: 'mentioned' }],
        [{ operator: 'is', operand: 'dm' }],
        [{ operator: 'is', operand: 'unread' }],
        [
          { operator: 'channel', operand: seeded.channels.general },
          { operator: 'topic', operand: 'greetings' },
        ],
      ]) {
        await sameAnswer(who, 'get', '/messages', {
          anchor: 'newest',
          num_before: 200,
          num_after: 0,
          narrow: JSON.stringify(narrow),
        });
      }
    }
    await sameAnswer('member', 'get', `/messages/${seeded.messages.toEdit}/history`);
    await sameAnswer('owner', 'get', `/messages/${seeded.messages.toMove}/history`);
  });

  it('unread counts and topic, mute and alert-word state are the same', async () => {
    for (const who of people) {
      const body = await sameAnswer(who, 'post', '/register', {
        fetch_event_types: JSON.stringify([
          'message',
          'update_message_flags',
          'starred_messages',
          'user_topic',
          'muted_users',
          'alert_words',
          'realm_user_groups',
          'realm_emoji',
          'user_status',
          'saved_snippets',
          'realm_playgrounds',
          'realm_linkifiers',
        ]),
        // Without it register lists no linkifiers (as in Zulip).
        client_capabilities: JSON.stringify({ linkifier_url_template: true }),
      });
      expect(body.unread_msgs).toBeDefined();
    }
  });

  it('groups, custom emoji, scheduled messages and reminders are the same', async () => {
    await sameAnswer('owner', 'get', '/user_groups');
    await sameAnswer('owner', 'get', '/realm/emoji');
    await sameAnswer('member', 'get', '/scheduled_messages');
    await sameAnswer('member', 'get', '/reminders');
    await sameAnswer('member', 'get', '/saved_snippets');
  });

  it('the upload and the custom emoji are served with the same bytes', async () => {
    const [before, after] = pair('member');
    const a = await before.fetch(`/user_uploads/${seeded.uploadPathId}`);
    const b = await after.fetch(`/user_uploads/${seeded.uploadPathId}`);
    expect(b.status).toBe(a.status);
    expect(Buffer.from(await b.arrayBuffer())).toEqual(Buffer.from(await a.arrayBuffer()));
    const emoji = (await before.get('/realm/emoji', {}, { skipSchema: true })).body.emoji;
    const url = (Object.values(emoji)[0] as { source_url: string }).source_url;
    const ea = await before.fetch(url);
    const eb = await after.fetch(url);
    expect(eb.status).toBe(200);
    expect(Buffer.from(await eb.arrayBuffer()).length).toBeGreaterThan(0);
    expect(ea.status).toBe(200);
  });

  it("an image's thumbnail is served after the import too", async () => {
    const [before, after] = pair('member');
    const message = (
      await before.get(`/messages/${seeded.messages.image}`, {}, { skipSchema: true })
    ).body.message;
    const src = /<img[^>]* src="([^"]+)"/.exec(message.content)?.[1];
    expect(src).toMatch(/^\/user_uploads\/thumbnail\//);
    const a = await before.fetch(src!);
    const b = await after.fetch(src!);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
  });

  it('new ids continue above the imported ones', async () => {
    const [, after] = pair('member');
    const res = await after.post(
      '/messages',
      {
        type: 'stream',
        to: JSON.stringify(seeded.channels.general),
        topic: 'after',
        content: 'new here',
      },
      { skipSchema: true },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBeGreaterThan(Math.max(...Object.values(seeded.messages)));
  });
});
