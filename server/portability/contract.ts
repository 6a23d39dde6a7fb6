import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDjangoValidEmail } from './email.js';
import { isSafeRelativePath } from './export/files.js';
import { messageFileName } from './export/messages.js';
import type { ExportProfile } from './profiles/index.js';

type Row = Record<string, unknown>;

/**
 * An import dry run: checks an export folder against a profile's contract
 * the way Zulip's `do_import_realm` would trip over it (a missing key is
 * its KeyError, an unknown one its TypeError, a dangling id a broken row),
 * without a Zulip server. Returns the problems found, none when the export
 * fits. The writer runs it on its own output; the tests run it too.
 */
export async function checkExportContract(
  dir: string,
  profile: ExportProfile,
  options: { writtenByHearth?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < 500) problems.push(text);
  };

  for (const file of profile.required_files) {
    if (!existsSync(path.join(dir, file))) problem(`missing file ${file}`);
  }
  if (options.writtenByHearth) {
    for (const file of profile.never_write) {
      if (existsSync(path.join(dir, file)))
        problem(`${file} must be generated on the target, not shipped`);
    }
  }
  let realm: Record<string, unknown>;
  try {
    realm = JSON.parse(await readFile(path.join(dir, 'realm.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  } catch (err) {
    problem(`realm.json cannot be read: ${(err as Error).message}`);
    return problems;
  }

  const known = new Set([...profile.required_top_level, ...profile.optional_top_level]);
  for (const key of profile.required_top_level) {
    if (!(key in realm)) problem(`realm.json lacks required key ${key}`);
  }
  for (const key of Object.keys(realm)) {
    if (!known.has(key)) problem(`realm.json has key ${key}, which the importer does not read`);
  }
  const groupBlock = profile.group_block.filter((t) => t in realm);
  if (groupBlock.length > 0 && groupBlock.length < profile.group_block.length) {
    problem(`the user-group tables must come all together: only ${groupBlock.join(', ')}`);
  }
  const table = (name: string) => (Array.isArray(realm[name]) ? (realm[name] as Row[]) : []);

  const checkRows = (name: string, rows: Row[], where: string) => {
    const contract = profile.tables[name];
    const dates = profile.date_fields[name] ?? [];
    const seen = new Set<unknown>();
    for (const row of rows) {
      const label = `${where} ${name} row ${String(row.id)}`;
      if (contract) {
        for (const key of contract.required) if (!(key in row)) problem(`${label}: no ${key}`);
        const allowed = new Set(contract.allowed);
        for (const key of Object.keys(row)) {
          if (!allowed.has(key)) problem(`${label}: ${key} is not a field of the ${name} model`);
        }
        for (const key of contract.forbidden ?? [])
          if (key in row) problem(`${label}: ${key} must not be written`);
      }
      for (const key of dates) {
        if (!(key in row)) problem(`${label}: no date field ${key}`);
        else if (row[key] !== null && typeof row[key] !== 'number') {
          problem(`${label}: ${key} must be UNIX seconds`);
        }
      }
      if (name !== 'zerver_userprofile_crossrealm') {
        if (typeof row.id !== 'number') problem(`${label}: id must be an integer`);
        else if (seen.has(row.id)) problem(`${label}: duplicate id`);
        seen.add(row.id);
      }
    }
  };
  for (const name of Object.keys(realm)) {
    if (Array.isArray(realm[name])) checkRows(name, realm[name] as Row[], 'realm.json');
  }

  const idsOf = (name: string) => new Set(table(name).map((r) => r.id));
  const crossRealm = table('zerver_userprofile_crossrealm');
  const userIds = idsOf('zerver_userprofile');
  for (const bot of crossRealm) {
    if (!profile.cross_realm_bots.includes(String(bot.email))) {
      problem(`cross-realm bot ${String(bot.email)} is not one of Zulip's system bots`);
    }
  }
  const everyone = new Set([...userIds, ...crossRealm.map((b) => b.id)]);
  const tableIds: Record<string, Set<unknown>> = {
    zerver_realm: idsOf('zerver_realm'),
    zerver_userprofile: everyone,
    zerver_stream: idsOf('zerver_stream'),
    zerver_recipient: idsOf('zerver_recipient'),
    zerver_client: idsOf('zerver_client'),
    zerver_customprofilefield: idsOf('zerver_customprofilefield'),
    zerver_usergroup: idsOf('zerver_usergroup'),
  };
  const checkForeignKeys = (name: string, rows: Row[], where: string) => {
    for (const [field, target] of Object.entries(profile.foreign_keys[name] ?? {})) {
      const ids = tableIds[target];
      if (!ids) continue;
      for (const row of rows) {
        const value = row[field];
        if (value !== null && value !== undefined && !ids.has(value)) {
          problem(
            `${where} ${name} row ${String(row.id)}: ${field} ${String(value)} is not in ${target}`,
          );
        }
      }
    }
  };
  for (const name of Object.keys(profile.foreign_keys)) {
    if (name in realm) checkForeignKeys(name, table(name), 'realm.json');
  }

  // E-mail addresses: Django's validator, and unique per organization.
  const emails = new Map<string, unknown>();
  for (const u of table('zerver_userprofile')) {
    for (const key of ['email', 'delivery_email']) {
      if (!isDjangoValidEmail(String(u[key])))
        problem(`user ${String(u.id)}: ${key} "${String(u[key])}" is not an address Zulip accepts`);
    }
    const lower = String(u.delivery_email).toLowerCase();
    if (emails.has(lower))
      problem(`users ${String(emails.get(lower))} and ${String(u.id)} share ${lower}`);
    emails.set(lower, u.id);
    if (!profile.enums.role.includes(u.role as number))
      problem(`user ${String(u.id)}: role ${String(u.role)}`);
    if (u.is_bot && !profile.enums.bot_type.includes(u.bot_type as number))
      problem(`bot ${String(u.id)}: bot_type ${String(u.bot_type)}`);
    if (!profile.enums.avatar_source.includes(String(u.avatar_source)))
      problem(`user ${String(u.id)}: avatar_source ${String(u.avatar_source)}`);
  }

  // Recipients and subscriptions.
  const { personal, stream, direct_message_group } = profile.enums.recipient_type;
  const recipientTargets: Record<number, Set<unknown>> = {
    [personal]: everyone,
    [stream]: tableIds.zerver_stream!,
    [direct_message_group]: idsOf('zerver_huddle'),
  };
  const recipients = new Map<unknown, Row>();
  for (const r of table('zerver_recipient')) {
    recipients.set(r.id, r);
    const targets = recipientTargets[r.type as number];
    if (!targets) problem(`recipient ${String(r.id)}: unknown type ${String(r.type)}`);
    else if (!targets.has(r.type_id))
      problem(`recipient ${String(r.id)}: type_id ${String(r.type_id)} does not resolve`);
  }
  const pairs = new Set<string>();
  const groupSubscribers = new Map<unknown, number>();
  const personalSubscribed = new Set<unknown>();
  for (const s of table('zerver_subscription')) {
    const key = `${String(s.user_profile)}:${String(s.recipient)}`;
    if (pairs.has(key))
      problem(`subscription ${String(s.id)}: a second row for user and recipient ${key}`);
    pairs.add(key);
    const r = recipients.get(s.recipient);
    if (r?.type === direct_message_group)
      groupSubscribers.set(r.type_id, (groupSubscribers.get(r.type_id) ?? 0) + 1);
    if (r?.type === personal && r.type_id === s.user_profile)
      personalSubscribed.add(s.user_profile);
  }
  for (const u of table('zerver_userprofile')) {
    if (
      !recipients.has(u.id) &&
      ![...recipients.values()].some((r) => r.type === personal && r.type_id === u.id)
    ) {
      problem(`user ${String(u.id)} has no personal recipient`);
    }
    if (!personalSubscribed.has(u.id))
      problem(`user ${String(u.id)} is not subscribed to their personal recipient`);
  }
  for (const h of table('zerver_huddle')) {
    if ((groupSubscribers.get(h.id) ?? 0) !== h.group_size) {
      problem(
        `direct-message group ${String(h.id)}: group_size ${String(h.group_size)} but ${groupSubscribers.get(h.id) ?? 0} members`,
      );
    }
  }

  // Group-valued settings: complete, and pointing at groups.
  if ('zerver_usergroup' in realm) {
    for (const [name, settings] of Object.entries(profile.group_settings)) {
      for (const row of table(name)) {
        for (const setting of settings) {
          if (!(setting in row)) problem(`${name} row ${String(row.id)}: no ${setting}`);
          else if (!tableIds.zerver_usergroup!.has(row[setting]))
            problem(
              `${name} row ${String(row.id)}: ${setting} ${String(row[setting])} is not a group`,
            );
        }
      }
    }
  } else {
    for (const [name, settings] of Object.entries(profile.group_settings)) {
      for (const row of table(name)) {
        for (const setting of settings)
          if (setting in row)
            problem(`${name} row ${String(row.id)}: ${setting} without the user-group tables`);
      }
    }
  }

  for (const s of table('zerver_stream')) {
    if (String(s.name).length > profile.limits.stream_name_length)
      problem(`stream ${String(s.id)}: name longer than ${profile.limits.stream_name_length}`);
  }
  const realmEmoji = new Map(table('zerver_realmemoji').map((e) => [String(e.id), e.name]));
  const checkEmojiRef = (label: string, row: Row) => {
    if (!profile.enums.reaction_type.includes(String(row.reaction_type)))
      problem(`${label}: reaction_type ${String(row.reaction_type)}`);
    if (
      row.reaction_type === 'realm_emoji' &&
      realmEmoji.get(String(row.emoji_code)) !== row.emoji_name
    ) {
      problem(
        `${label}: custom emoji ${String(row.emoji_code)} is not named ${String(row.emoji_name)}`,
      );
    }
  };
  for (const r of table('zerver_reaction')) checkEmojiRef(`reaction ${String(r.id)}`, r);
  for (const s of table('zerver_userstatus'))
    if (s.emoji_name) checkEmojiRef(`user status ${String(s.id)}`, s);
  for (const t of table('zerver_usertopic')) {
    if (!profile.enums.visibility_policy.includes(t.visibility_policy as number))
      problem(`user topic ${String(t.id)}: visibility_policy ${String(t.visibility_policy)}`);
  }

  // Message files: contiguous, both keys, rows with their messages.
  const messageIds = new Set<unknown>();
  const withAttachment = new Set<unknown>();
  const crossRealmIds = new Set(crossRealm.map((b) => b.id));
  const flagBits = Object.values(profile.flags).reduce((a, b) => a | b, 0);
  tableIds.zerver_message = messageIds;
  for (let n = 1; existsSync(path.join(dir, messageFileName(n))); n++) {
    const name = messageFileName(n);
    let data: { zerver_message?: Row[]; zerver_usermessage?: Row[] };
    try {
      data = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as typeof data;
    } catch (err) {
      problem(`${name} cannot be read: ${(err as Error).message}`);
      continue;
    }
    if (!Array.isArray(data.zerver_message) || !Array.isArray(data.zerver_usermessage)) {
      problem(`${name} needs both zerver_message and zerver_usermessage`);
      continue;
    }
    checkRows('zerver_message', data.zerver_message, name);
    checkRows('zerver_usermessage', data.zerver_usermessage, name);
    const here = new Map<unknown, Row>();
    for (const m of data.zerver_message) {
      here.set(m.id, m);
      messageIds.add(m.id);
      if (m.has_attachment === true) withAttachment.add(m.id);
      if (
        crossRealmIds.has(m.sender) &&
        (m.rendered_content === null || m.rendered_content === undefined)
      ) {
        problem(
          `${name} message ${String(m.id)}: a cross-realm bot's message needs rendered_content`,
        );
      }
      const r = recipients.get(m.recipient);
      if (r?.type === stream && String(m.subject ?? '').length > profile.limits.topic_length) {
        problem(
          `${name} message ${String(m.id)}: topic longer than ${profile.limits.topic_length}`,
        );
      }
      if (typeof m.edit_history === 'string') {
        let entries: Row[] = [];
        try {
          entries = JSON.parse(m.edit_history) as Row[];
        } catch {
          problem(`${name} message ${String(m.id)}: edit_history is not JSON`);
        }
        for (const e of entries) {
          if (!everyone.has(e.user_id))
            problem(`${name} message ${String(m.id)}: edit by unknown user ${String(e.user_id)}`);
          if ('prev_content' in e && !('prev_rendered_content' in e))
            problem(
              `${name} message ${String(m.id)}: edit with prev_content but no prev_rendered_content`,
            );
        }
      } else if (m.edit_history !== null && m.edit_history !== undefined) {
        problem(`${name} message ${String(m.id)}: edit_history must be a JSON string`);
      }
    }
    checkForeignKeys('zerver_message', data.zerver_message, name);
    const seenPairs = new Set<string>();
    for (const um of data.zerver_usermessage) {
      const m = here.get(um.message);
      if (!m) {
        problem(
          `${name} usermessage ${String(um.id)}: message ${String(um.message)} is not in this file`,
        );
        continue;
      }
      if (!userIds.has(um.user_profile))
        problem(
          `${name} usermessage ${String(um.id)}: user ${String(um.user_profile)} is not exported`,
        );
      const pair = `${String(um.user_profile)}:${String(um.message)}`;
      if (seenPairs.has(pair)) problem(`${name}: two rows for user and message ${pair}`);
      seenPairs.add(pair);
      const flags = um.flags_mask as number;
      if (!Number.isInteger(flags) || (flags & ~flagBits) !== 0)
        problem(
          `${name} usermessage ${String(um.id)}: flags ${String(flags)} outside Zulip's bits`,
        );
      const isPrivate = (flags & (profile.flags.is_private ?? 0)) !== 0;
      const isDm = recipients.get(m.recipient)?.type !== stream;
      if (isPrivate !== isDm)
        problem(
          `${name} usermessage ${String(um.id)}: is_private must be set exactly on direct messages`,
        );
    }
  }
  for (const name of ['zerver_reaction', 'zerver_scheduledmessage']) {
    if (name in realm) checkForeignKeys(name, table(name), 'realm.json');
  }

  // Attachments and files.
  const recordsOf = async (folder: string): Promise<Row[] | null> => {
    const file = path.join(dir, folder, 'records.json');
    if (!existsSync(file)) return null;
    try {
      const records = JSON.parse(await readFile(file, 'utf8')) as Row[];
      if (!Array.isArray(records)) throw new Error('not a list');
      for (const r of records) {
        const p = String(r.path);
        if (!isSafeRelativePath(p)) problem(`${folder}/records.json: path ${p} leaves the folder`);
        else if (!existsSync(path.join(dir, folder, p)))
          problem(`${folder}/records.json: ${p} is not on disk`);
        if (!('s3_path' in r) || !('realm_id' in r))
          problem(`${folder}/records.json: ${p} lacks s3_path or realm_id`);
      }
      return records;
    } catch (err) {
      problem(`${folder}/records.json cannot be read: ${(err as Error).message}`);
      return [];
    }
  };
  const uploads = (await recordsOf('uploads')) ?? [];
  const avatars = (await recordsOf('avatars')) ?? [];
  await recordsOf('emoji');
  await recordsOf('realm_icons');
  for (const r of [...uploads, ...avatars]) {
    if (!everyone.has(r.user_profile_id))
      problem(`record ${String(r.path)}: user ${String(r.user_profile_id)} is not exported`);
  }
  const uploadPaths = new Set(uploads.map((r) => r.s3_path));
  try {
    const attachments = JSON.parse(await readFile(path.join(dir, 'attachment.json'), 'utf8')) as {
      zerver_attachment?: Row[];
    };
    if (!Array.isArray(attachments.zerver_attachment))
      problem('attachment.json needs zerver_attachment');
    const rows = attachments.zerver_attachment ?? [];
    checkRows('zerver_attachment', rows, 'attachment.json');
    checkForeignKeys('zerver_attachment', rows, 'attachment.json');
    for (const a of rows) {
      if (!uploadPaths.has(a.path_id))
        problem(`attachment ${String(a.id)}: no uploads record for ${String(a.path_id)}`);
      for (const id of (a.messages as unknown[]) ?? []) {
        if (!messageIds.has(id))
          problem(`attachment ${String(a.id)}: message ${String(id)} is not exported`);
        else if (!withAttachment.has(id))
          problem(`attachment ${String(a.id)}: message ${String(id)} has has_attachment false`);
      }
    }
  } catch (err) {
    problem(`attachment.json cannot be read: ${(err as Error).message}`);
  }
  return problems;
}
