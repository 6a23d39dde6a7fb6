/**
 * The zulip-12 export checked against the profile's contract (an import dry
 * run): every required key, no field the importer does not know, foreign
 * keys that resolve, files on disk, e-mail addresses Zulip accepts, flag
 * bits in Zulip's numbering. Each rule also gets a broken export it must
 * catch, so a check that stopped checking would fail here.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkExportContract,
  profileNamed,
  writeZulipExport,
} from '../../server/portability/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Seeded, seedOrganization } from './seed.js';

const profile = profileNamed('zulip-12');
let t: TestServer;
let seeded: Seeded;
let work: string;
let out: string;

type Row = Record<string, unknown>;
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

beforeAll(async () => {
  t = await startTestServer();
  seeded = await seedOrganization(t);
  work = mkdtempSync(path.join(os.tmpdir(), 'hearth-export-'));
  out = path.join(work, 'export');
  await writeZulipExport({
    databaseFile: t.server.ctx.db.name,
    filesDir: t.server.ctx.config.filesDir,
    out,
    profile,
    verify: (dir) => checkExportContract(dir, profile, { writtenByHearth: true }),
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A copy of the export with one change, and the problems the check reports for it. */
async function brokenCopy(change: (dir: string) => void): Promise<string[]> {
  const dir = mkdtempSync(path.join(work, 'broken-'));
  cpSync(out, dir, { recursive: true });
  change(dir);
  return checkExportContract(dir, profile, { writtenByHearth: true });
}
// biome-ignore lint/suspicious/noExplicitAny: tests break arbitrary JSON on purpose
const editJson = (file: string, edit: (data: any) => void) => {
  const data = readJson(file);
  edit(data);
  writeFileSync(file, JSON.stringify(data));
};

describe('a Hearth export for Zulip 12', () => {
  it('has the files and layout of a Zulip export', () => {
    for (const file of [
      'realm.json',
      'messages-000001.json',
      'attachment.json',
      'uploads/records.json',
      'avatars/records.json',
      'emoji/records.json',
      'realm_icons/records.json',
      'README.md',
      'stats.json',
      'hearth_manifest.json',
    ]) {
      expect(existsSync(path.join(out, file)), file).toBe(true);
    }
    expect(existsSync(path.join(out, 'migration_status.json'))).toBe(false);
  });

  it('fits the recorded contract', async () => {
    expect(await checkExportContract(out, profile, { writtenByHearth: true })).toEqual([]);
  });

  it('carries users, channels with their permission groups, DMs as groups and Zulip flag bits', () => {
    const realm = readJson(path.join(out, 'realm.json'));
    expect(realm.import_source).toBe('hearth');
    const users = realm.zerver_userprofile as Row[];
    const member = users.find((u) => u.id === t.accounts.member.id)!;
    expect(member).toMatchObject({
      role: 400,
      is_active: true,
      twenty_four_hour_time: true,
      emojiset: 'twitter',
      avatar_source: 'U',
    });
    expect(member.password).toBeUndefined();
    expect(member.api_key).toBeUndefined();
    expect(users.find((u) => u.id === seeded.deactivatedId)).toMatchObject({ is_active: false });
    expect(users.find((u) => u.id === t.accounts.bot.id)).toMatchObject({
      is_bot: true,
      bot_type: 1,
      bot_owner: t.accounts.member.id,
    });
    expect(realm.zerver_userprofile_crossrealm).toEqual([
      expect.objectContaining({ email: 'notification-bot@zulip.com' }),
    ]);
    const general = (realm.zerver_stream as Row[]).find((s) => s.id === seeded.channels.general)!;
    const anonymous = general.can_send_message_group as number;
    expect((realm.zerver_namedusergroup as Row[]).some((g) => g.id === anonymous)).toBe(false);
    expect(realm.zerver_groupgroupmembership).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ supergroup: anonymous, subgroup: seeded.groupId }),
      ]),
    );
    const messages = readJson(path.join(out, 'messages-000001.json'));
    const byId = new Map((messages.zerver_message as Row[]).map((m) => [m.id, m]));
    expect(byId.has(seeded.messages.toDelete)).toBe(false);
    const edited = byId.get(seeded.messages.toEdit)!;
    const history = JSON.parse(edited.edit_history as string) as Row[];
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({
      prev_content: 'second draft',
      prev_topic: 'greetings',
      topic: 'drafts',
    });
    const rows = messages.zerver_usermessage as Row[];
    const flagsOf = (user: number, message: number | undefined) =>
      rows.find((r) => r.user_profile === user && r.message === message)?.flags_mask as number;
    // Starred + mentioned, unread: 2 | 8 (Zulip's bits agree with Hearth's up to 32).
    expect(flagsOf(t.accounts.member.id, seeded.messages.hello) & 3).toBe(2);
    expect(flagsOf(t.accounts.member.id, seeded.messages.mention) & 8).toBe(8);
    // An alert word is bit 512 in Zulip (64 in Hearth).
    expect(flagsOf(t.accounts.member.id, seeded.messages.alert) & 512).toBe(512);
    // A direct message row carries is_private (2048).
    expect(flagsOf(t.accounts.member.id, seeded.messages.dm) & 2048).toBe(2048);
    const dmRecipient = byId.get(seeded.messages.selfDm)!.recipient;
    expect((realm.zerver_recipient as Row[]).find((r) => r.id === dmRecipient)?.type).toBe(3);
  });

  it('carries the uploaded file and its attachment record', () => {
    const records = readJson(path.join(out, 'uploads/records.json')) as Row[];
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ s3_path: seeded.uploadPathId, path: seeded.uploadPathId }),
      ]),
    );
    expect(readFileSync(path.join(out, 'uploads', seeded.uploadPathId), 'utf8')).toBe(
      'quarterly numbers\n',
    );
    const emoji = readJson(path.join(out, 'emoji/records.json')) as Row[];
    expect(emoji).toHaveLength(1);
  });
});

describe('the contract check catches', () => {
  it('a missing required key', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'realm.json'), (d) => {
        delete d.zerver_stream[0].date_created;
      }),
    );
    expect(problems.join('\n')).toMatch(/zerver_stream row \d+: no date_created/);
  });
  it('a field the importer does not know', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'realm.json'), (d) => {
        d.zerver_userprofile[0].is_imported_stub = false;
      }),
    );
    expect(problems.join('\n')).toMatch(
      /is_imported_stub is not a field of the zerver_userprofile model/,
    );
  });
  it('a foreign key that resolves to nothing', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'realm.json'), (d) => {
        d.zerver_subscription[0].recipient = 999_999;
      }),
    );
    expect(problems.join('\n')).toMatch(/recipient 999999 is not in zerver_recipient/);
  });
  it('a file that is not on disk', async () => {
    const problems = await brokenCopy((dir) =>
      rmSync(path.join(dir, 'uploads', seeded.uploadPathId)),
    );
    expect(problems.join('\n')).toMatch(/is not on disk/);
  });
  it('a path that leaves the folder', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'avatars/records.json'), (d) => {
        d[0].path = '../../etc/passwd';
      }),
    );
    expect(problems.join('\n')).toMatch(/leaves the folder/);
  });
  it('an e-mail address Zulip refuses', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'realm.json'), (d) => {
        d.zerver_userprofile[0].delivery_email = 'alice@team';
      }),
    );
    expect(problems.join('\n')).toMatch(/"alice@team" is not an address Zulip accepts/);
  });
  it('flag bits outside Zulip numbering, and a DM row without is_private', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'messages-000001.json'), (d) => {
        d.zerver_usermessage[0].flags_mask = 8192;
        const dm = d.zerver_usermessage.find((r: Row) => ((r.flags_mask as number) & 2048) !== 0);
        dm.flags_mask = 1;
      }),
    );
    const text = problems.join('\n');
    expect(text).toMatch(/flags 8192 outside Zulip's bits/);
    expect(text).toMatch(/is_private must be set exactly on direct messages/);
  });
  it('a message file missing one of its tables', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'messages-000001.json'), (d) => {
        delete d.zerver_usermessage;
      }),
    );
    expect(problems.join('\n')).toMatch(/needs both zerver_message and zerver_usermessage/);
  });
  it('a shipped migration_status.json', async () => {
    const problems = await brokenCopy((dir) =>
      writeFileSync(path.join(dir, 'migration_status.json'), '{}'),
    );
    expect(problems.join('\n')).toMatch(/migration_status.json must be generated on the target/);
  });
  it('an incomplete user-group block', async () => {
    const problems = await brokenCopy((dir) =>
      editJson(path.join(dir, 'realm.json'), (d) => {
        delete d.zerver_groupgroupmembership;
      }),
    );
    expect(problems.join('\n')).toMatch(/user-group tables must come all together/);
  });
});

describe('exporting from a running server', () => {
  it('reads one consistent snapshot while the server keeps writing', async () => {
    const out2 = path.join(work, 'snapshot');
    const before = (
      t.server.ctx.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }
    ).n;
    let wrote = false;
    await writeZulipExport({
      databaseFile: t.server.ctx.db.name,
      filesDir: t.server.ctx.config.filesDir,
      out: out2,
      profile,
      onProgress: () => {
        if (wrote) return;
        wrote = true;
        // Writes through the server's own connection after the snapshot began.
        t.server.ctx.db.prepare("UPDATE realm SET name = 'Renamed meanwhile' WHERE id = 1").run();
        t.server.ctx.db.prepare('DELETE FROM reactions').run();
      },
    });
    expect(wrote).toBe(true);
    const realm = readJson(path.join(out2, 'realm.json'));
    expect(realm.zerver_realm[0].name).toBe('Test Org');
    expect(realm.zerver_reaction.length).toBeGreaterThan(0);
    expect(readJson(path.join(out2, 'stats.json')).messages).toBe(before);
    // The server itself saw its writes at once.
    expect((await t.as('owner').get('/server_settings')).body.realm_name).toBe('Renamed meanwhile');
  });
});

describe('exporting refuses', () => {
  it('a folder that is not empty, leaving it as it was', async () => {
    const dir = mkdtempSync(path.join(work, 'busy-'));
    writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    await expect(
      writeZulipExport({
        databaseFile: t.server.ctx.db.name,
        filesDir: t.server.ctx.config.filesDir,
        out: dir,
        profile,
      }),
    ).rejects.toThrow(/is not empty/);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
  it('and a failure half-way removes the partial export', async () => {
    const dir = path.join(work, 'half');
    await expect(
      writeZulipExport({
        databaseFile: t.server.ctx.db.name,
        filesDir: t.server.ctx.config.filesDir,
        out: dir,
        profile,
        verify: async () => {
          throw new Error('ENOSPC: no space left on device');
        },
      }),
    ).rejects.toThrow(/partial files were removed: ENOSPC/);
    expect(existsSync(dir)).toBe(false);
  });
});
