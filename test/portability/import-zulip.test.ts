/**
 * Importing Zulip's own exports (test/fixtures/zulip-exports, built by hand
 * from Zulip's importer and fixtures): full, public and with consent, as a
 * folder and as a .tar.gz; an unsupported version and broken exports are
 * refused with a message naming the problem, leaving the data directory as
 * it was; a data directory that has an organization is refused.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userById } from '../../server/db/queries/users.js';
import { createServer, DATABASE_FILE, FILES_DIR, type RunningServer } from '../../server/index.js';
import { importZulipExport, profileNamed } from '../../server/portability/index.js';
import { ApiClient, startTestServer } from '../helpers/server.js';

const FIXTURE = path.resolve(__dirname, '../fixtures/zulip-exports/zulip-12-full');
const profile = profileNamed('zulip-12');
let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'hearth-zimport-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
let counter = 0;
/** A copy of the fixture, changed as a test needs. */
function exportCopy(change: (dir: string) => void = () => {}): string {
  const dir = path.join(work, `export-${++counter}`);
  cpSync(FIXTURE, dir, { recursive: true });
  change(dir);
  return dir;
}
const editJson = (file: string, edit: (data: Row) => void) => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Row;
  edit(data);
  writeFileSync(file, JSON.stringify(data));
};
const importInto = (source: string, dataDir = path.join(work, `data-${++counter}`)) =>
  importZulipExport({
    dataDir,
    databaseName: DATABASE_FILE,
    filesName: FILES_DIR,
    source,
    profile,
  }).then((summary) => ({ summary, dataDir }));

async function serve(dataDir: string): Promise<RunningServer> {
  return createServer({
    dataDir,
    port: 0,
    logFile: false,
    scheduledDelivery: false,
    automaticBackups: false,
    unclaimedUploadCleanup: false,
  });
}
const as = (server: RunningServer, userId: number) => {
  const row = userById(server.ctx.db, userId)!;
  return new ApiClient(server.url, { email: row.delivery_email, apiKey: row.api_key });
};

describe('a full Zulip 12 export', () => {
  let server: RunningServer;
  let summary: Awaited<ReturnType<typeof importInto>>['summary'];
  beforeAll(async () => {
    const result = await importInto(FIXTURE);
    summary = result.summary;
    server = await serve(result.dataDir);
  }, 60_000);
  afterAll(() => server?.close());

  it('names the owner to give a password to, and sets no password', () => {
    expect(summary.ownerEmail).toBe('desdemona@acme.example.com');
    expect(summary.zulipVersion).toBe('12.0');
    expect(userById(server.ctx.db, 8)!.password_hash).toBeNull();
  });

  it('keeps people, roles, bots, deactivated users and mirror dummies under their Zulip ids', async () => {
    const res = await as(server, 8).get(
      '/users',
      { include_custom_profile_fields: 'true' },
      { skipSchema: true },
    );
    const byId = new Map((res.body.members as Row[]).map((u) => [u.user_id, u]));
    expect(byId.get(8)).toMatchObject({
      full_name: 'Desdemona',
      role: 100,
      timezone: 'Europe/Paris',
    });
    expect(byId.get(9)).toMatchObject({
      full_name: 'Iago',
      role: 200,
      profile_data: { 4: { value: '+1 555 0199' } },
    });
    expect(byId.get(11)).toMatchObject({ is_active: false });
    expect(byId.get(12)).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: 8 });
    expect(byId.get(13)).toMatchObject({ is_active: false, is_imported_stub: true });
    const me = await as(server, 9).get('/users/me', {}, { skipSchema: true });
    expect(me.body.avatar_url).toMatch(/user_avatars|avatar/);
    expect(userById(server.ctx.db, 9)!.avatar_source).toBe('U');
  });

  it('keeps message ids, mentions, DMs (old 1:1 and group) and per-user flags', async () => {
    const res = await as(server, 8).get(
      '/messages',
      { anchor: 'newest', num_before: 50, num_after: 0 },
      { skipSchema: true },
    );
    const byId = new Map((res.body.messages as Row[]).map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([100, 101, 102, 103, 104, 105, 106]);
    expect(byId.get(101)).toMatchObject({ flags: expect.arrayContaining(['mentioned']) });
    expect(byId.get(101)!.flags).not.toContain('read');
    expect(byId.get(104)).toMatchObject({
      type: 'private',
      display_recipient: expect.arrayContaining([expect.objectContaining({ id: 9 })]),
    });
    expect(byId.get(103)!.display_recipient).toHaveLength(3);
    expect(byId.get(100)!.reactions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ emoji_name: 'smile', user_id: 9 }),
        expect.objectContaining({
          emoji_name: 'acme',
          emoji_code: '3',
          reaction_type: 'realm_emoji',
        }),
      ]),
    );
    const iago = await as(server, 9).get(
      '/messages',
      { anchor: 'newest', num_before: 50, num_after: 0 },
      { skipSchema: true },
    );
    const flags = new Map((iago.body.messages as Row[]).map((m) => [m.id, m.flags as string[]]));
    expect(flags.get(100)).toEqual(expect.arrayContaining(['read', 'starred']));
    expect(flags.get(106)).toEqual(expect.arrayContaining(['has_alert_word']));
    expect(flags.get(105)).not.toContain('read');
    const unread = await as(server, 9).get(
      '/messages',
      {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
      },
      { skipSchema: true },
    );
    expect((unread.body.messages as Row[]).map((m) => m.id)).toEqual([102, 104, 105]);
  });

  it('keeps edit history, channels with their settings, groups and topic policies', async () => {
    const history = await as(server, 9).get('/messages/106/history', {}, { skipSchema: true });
    // The organization shows moves only (policy 2, "moves"): the content edit is kept but hidden.
    expect(history.body.message_history.map((h: Row) => h.content)).toEqual(['See notes']);
    const edits = server.ctx.db
      .prepare('SELECT prev_content FROM message_edits WHERE message_id = 106')
      .all();
    expect(edits).toEqual([{ prev_content: 'See notes' }]);
    const subs = await as(server, 9).get('/users/me/subscriptions', {}, { skipSchema: true });
    const design = (subs.body.subscriptions as Row[]).find((s) => s.name === 'design')!;
    expect(design).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
      is_muted: true,
      desktop_notifications: true,
    });
    expect(design.can_send_message_group).toEqual({ direct_members: [8], direct_subgroups: [28] });
    const groups = await as(server, 8).get('/user_groups', {}, { skipSchema: true });
    expect((groups.body.user_groups as Row[]).find((g) => g.name === 'designers')).toMatchObject({
      members: [9], // Othello (11) is deactivated: listed in no group's members
      description: 'Design team',
    });
    const reg = await as(server, 9).post(
      '/register',
      {
        fetch_event_types: JSON.stringify([
          'user_topic',
          'muted_users',
          'alert_words',
          'saved_snippets',
          'realm',
        ]),
      },
      { skipSchema: true },
    );
    expect(reg.body.user_topics).toEqual([
      expect.objectContaining({ stream_id: 10, topic_name: 'hello', visibility_policy: 3 }),
    ]);
    expect(reg.body.muted_users).toEqual([expect.objectContaining({ id: 11 })]);
    expect(reg.body.alert_words).toEqual(['launch']);
    expect(reg.body.realm_name).toBe('Acme');
    expect(reg.body.realm_waiting_period_threshold).toBe(3);
    expect(reg.body.realm_message_edit_history_visibility_policy).toBe('moves');
  });

  it('serves the upload and the custom emoji', async () => {
    const file = await as(server, 8).fetch('/user_uploads/2/ab/tok/notes.txt');
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('launch on monday\n');
    const emoji = await as(server, 8).get('/realm/emoji', {}, { skipSchema: true });
    expect(emoji.body.emoji['3']).toMatchObject({ name: 'acme', author_id: 8 });
    const image = await as(server, 8).fetch(emoji.body.emoji['3'].source_url);
    expect(image.status).toBe(200);
  });
});

it('imports the same export as a .tar.gz', async () => {
  const tarball = path.join(work, 'acme.tar.gz');
  await create({ gzip: true, file: tarball, cwd: path.dirname(FIXTURE) }, [path.basename(FIXTURE)]);
  const { summary } = await importInto(tarball);
  expect(summary.counts.messages).toBe(7);
});

it('imports a public export (no direct messages, no private data)', async () => {
  const dir = exportCopy((d) => {
    const drop = new Set([102, 103, 104]);
    editJson(path.join(d, 'messages-000001.json'), (data) => {
      data.zerver_message = (data.zerver_message as Row[]).filter((m) => !drop.has(m.id as number));
      data.zerver_usermessage = (data.zerver_usermessage as Row[]).filter(
        (r) => !drop.has(r.message as number),
      );
    });
    editJson(path.join(d, 'realm.json'), (data) => {
      for (const t of [
        'zerver_alertword',
        'zerver_muteduser',
        'zerver_usertopic',
        'zerver_savedsnippet',
        'zerver_scheduledmessage',
        'zerver_userstatus',
        'zerver_botstoragedata',
      ])
        data[t] = [];
      data.zerver_huddle = [];
      data.zerver_recipient = (data.zerver_recipient as Row[]).filter((r) => r.type !== 3);
      data.zerver_subscription = (data.zerver_subscription as Row[]).filter(
        (s) => s.recipient !== 305,
      );
    });
  });
  const { summary, dataDir } = await importInto(dir);
  expect(summary.counts.messages).toBe(4);
  const server = await serve(dataDir);
  try {
    const res = await as(server, 9).get(
      '/messages',
      { anchor: 'newest', num_before: 50, num_after: 0 },
      { skipSchema: true },
    );
    expect((res.body.messages as Row[]).map((m) => m.id)).toEqual([100, 101, 105, 106]);
  } finally {
    await server.close();
  }
});

it('imports an export with consent: a user who did not consent is a stub without rows', async () => {
  const dir = exportCopy((d) => {
    editJson(path.join(d, 'realm.json'), (data) => {
      const users = data.zerver_userprofile as Row[];
      const othello = users.find((u) => u.id === 11)!;
      data.zerver_userprofile = users.filter((u) => u.id !== 11);
      (data.zerver_userprofile_mirrordummy as Row[]).push({
        ...othello,
        is_mirror_dummy: true,
        is_active: false,
      });
    });
    editJson(path.join(d, 'messages-000001.json'), (data) => {
      data.zerver_usermessage = (data.zerver_usermessage as Row[]).filter(
        (r) => r.user_profile !== 11,
      );
    });
  });
  const { dataDir } = await importInto(dir);
  const server = await serve(dataDir);
  try {
    expect(userById(server.ctx.db, 11)).toMatchObject({ is_imported_stub: 1, is_active: 0 });
    const res = await as(server, 9).get(
      '/messages',
      { anchor: 'newest', num_before: 50, num_after: 0 },
      { skipSchema: true },
    );
    expect(res.body.messages).toHaveLength(7);
  } finally {
    await server.close();
  }
});

describe('refuses, leaving the data directory as it was,', () => {
  const refused = async (source: string, pattern: RegExp) => {
    const dataDir = path.join(work, `refused-${++counter}`);
    await expect(importInto(source, dataDir)).rejects.toThrow(pattern);
    expect(existsSync(dataDir)).toBe(false);
  };

  it('an export of an unsupported Zulip version', () =>
    refused(
      exportCopy((d) =>
        editJson(path.join(d, 'migration_status.json'), (s) => {
          s.zulip_version = '9.2';
        }),
      ),
      /unsupported Zulip version 9\.2: Hearth reads exports of Zulip 10\.x to 12\.x/,
    ));
  it('a folder that is not an export', () => {
    const dir = path.join(work, 'not-an-export');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    return refused(dir, /not a Zulip export: .* has no realm\.json/);
  });
  it('a missing migration_status.json', () =>
    refused(
      exportCopy((d) => rmSync(path.join(d, 'migration_status.json'))),
      /migration_status\.json is missing/,
    ));
  it('a missing attachment.json', () =>
    refused(
      exportCopy((d) => rmSync(path.join(d, 'attachment.json'))),
      /no attachment\.json/,
    ));
  it('broken JSON in realm.json', () =>
    refused(
      exportCopy((d) => writeFileSync(path.join(d, 'realm.json'), '{"zerver_realm": [')),
      /realm\.json is broken JSON/,
    ));
  it('a truncated message file, after reading part of the export', () =>
    refused(
      exportCopy((d) => {
        const file = path.join(d, 'messages-000001.json');
        truncateSync(file, Math.floor(statSync(file).size / 2));
      }),
      /messages-000001\.json is broken JSON/,
    ));
  it('a records.json path that leaves the export', () =>
    refused(
      exportCopy((d) =>
        editJson(path.join(d, 'uploads/records.json'), (r) => {
          (r as unknown as Row[])[0]!.path = '../../../etc/passwd';
        }),
      ),
      /names a path that leaves the export/,
    ));
  it('a file records.json names but the export lacks', () =>
    refused(
      exportCopy((d) => rmSync(path.join(d, 'uploads/2/ab/tok/notes.txt'))),
      /names 2\/ab\/tok\/notes\.txt, which is not in the export/,
    ));
  it('a truncated .tar.gz', async () => {
    const tarball = path.join(work, 'cut.tar.gz');
    await create({ gzip: true, file: tarball, cwd: path.dirname(FIXTURE) }, [
      path.basename(FIXTURE),
    ]);
    truncateSync(tarball, Math.floor(statSync(tarball).size / 2));
    await refused(tarball, /is not a readable \.tar\.gz|could not be unpacked/);
  });
  it('a .tar.gz whose entries leave the folder', async () => {
    const src = path.join(work, 'evil-src');
    mkdirSync(path.join(src, 'x'), { recursive: true });
    writeFileSync(path.join(src, 'x', 'a.txt'), 'a');
    const tarball = path.join(work, 'evil.tar.gz');
    await create(
      {
        gzip: true,
        file: tarball,
        cwd: src,
        preservePaths: true,
        onWriteEntry: (entry) => {
          entry.path = `../${entry.path}`;
        },
      },
      ['x'],
    );
    await refused(tarball, /paths that leave its folder/);
  });
});

it('refuses a data directory that already has an organization, leaving it as it was', async () => {
  const t = await startTestServer();
  try {
    const before = readdirSync(t.dataDir).sort();
    await expect(importInto(FIXTURE, t.dataDir)).rejects.toThrow(/already has an organization/);
    expect(readdirSync(t.dataDir).sort()).toEqual(before);
    expect((await t.as('owner').get('/users/me', {}, { skipSchema: true })).status).toBe(200);
  } finally {
    await t.close();
  }
});
