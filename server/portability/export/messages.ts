import path from 'node:path';
import type Database from 'better-sqlite3';
import type { MessageRow } from '../../db/queries/messages.js';
import { overrideRowsForMessages } from '../../flags/index.js';
import { defaultFlags, Flag } from '../../shared/flags.js';
import { toZulipFlags } from '../flag-bits.js';
import type { ExportProfile } from '../profiles/index.js';
import type { ExportIds } from './ids.js';
import { JsonFileWriter } from './json-file.js';
import type { OrganizationTables } from './organization.js';

interface Period {
  user: number;
  first: number;
  last: number | null;
}

interface EditRow {
  message_id: number;
  user_id: number | null;
  timestamp: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  topic: string | null;
  prev_stream_id: number | null;
  stream_id: number | null;
}

export interface MessageFilesResult {
  files: number;
  messages: number;
  userMessages: number;
  /** The messages a public or consent export holds (null: all of them). */
  exported: Set<number> | null;
}

export const messageFileName = (n: number) => `messages-${String(n).padStart(6, '0')}.json`;

/**
 * Writes messages-NNNNNN.json, `profile.message_batch_size` messages each in
 * ascending id order, each file with the UserMessage rows of its own
 * messages (the importer asserts they are there). Hearth keeps no
 * per-recipient rows (db/DESIGN.md), so they are expanded here: a channel
 * message goes to everyone whose subscription period covers it, a direct
 * message to its group's members, and a user's flags are their override
 * row or else the watermark default. Memory holds one batch plus the
 * subscriptions, whatever the number of messages.
 */
export async function writeMessageFiles(options: {
  db: Database.Database;
  profile: ExportProfile;
  org: OrganizationTables;
  ids: ExportIds;
  dir: string;
  attachmentMessageIds: ReadonlySet<number>;
  onProgress(done: number, total: number): void;
}): Promise<MessageFilesResult> {
  const { db, profile, org, ids, dir, attachmentMessageIds } = options;
  const botId = org.notificationBotId;
  const batchSize = profile.message_batch_size;

  const periods = new Map<number, Period[]>();
  for (const p of db
    .prepare(
      'SELECT user_id, stream_id, first_message_id, last_message_id FROM subscription_periods',
    )
    .all() as {
    user_id: number;
    stream_id: number;
    first_message_id: number;
    last_message_id: number | null;
  }[]) {
    if (p.user_id === botId) continue;
    const list = periods.get(p.stream_id) ?? [];
    list.push({ user: p.user_id, first: p.first_message_id, last: p.last_message_id });
    periods.set(p.stream_id, list);
  }
  const streamWatermarks = new Map<number, Map<number, number>>();
  for (const s of db
    .prepare('SELECT stream_id, user_id, read_through FROM subscriptions')
    .all() as {
    stream_id: number;
    user_id: number;
    read_through: number;
  }[]) {
    const map = streamWatermarks.get(s.stream_id) ?? new Map<number, number>();
    map.set(s.user_id, s.read_through);
    streamWatermarks.set(s.stream_id, map);
  }
  const dmMembers = new Map<number, { user: number; readThrough: number }[]>();
  for (const m of db
    .prepare('SELECT dm_group_id, user_id, read_through FROM dm_group_members')
    .all() as { dm_group_id: number; user_id: number; read_through: number }[]) {
    const list = dmMembers.get(m.dm_group_id) ?? [];
    list.push({ user: m.user_id, readThrough: m.read_through });
    dmMembers.set(m.dm_group_id, list);
  }

  const total = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  const page = db.prepare('SELECT * FROM messages WHERE id > ? ORDER BY id LIMIT ?');
  const edits = db.prepare(
    `SELECT message_id, user_id, timestamp, prev_content, prev_rendered_content, prev_topic, topic,
            prev_stream_id, stream_id
       FROM message_edits WHERE message_id BETWEEN ? AND ? ORDER BY message_id, id DESC`,
  );

  let after = 0;
  let files = 0;
  let done = 0;
  let written = 0;
  let userMessages = 0;
  const scope = org.scope;
  const exported = scope === 'full' ? null : new Set<number>();
  const covers = (streamId: number, userId: number, messageId: number) =>
    (periods.get(streamId) ?? []).some(
      (p) => p.user === userId && messageId >= p.first && (p.last === null || messageId <= p.last),
    );
  /** Zulip's export types: what a public or consent export leaves out. */
  const holds = (m: MessageRow): boolean => {
    if (scope === 'full') return true;
    if (m.dm_group_id !== null) return org.exportedDmGroups.has(m.dm_group_id);
    if (!org.privateStreams.has(m.stream_id!)) return true;
    if (scope === 'public') return false;
    // A private channel's message travels when someone who consented received it.
    return [...org.consenting].some((userId) => covers(m.stream_id!, userId, m.id));
  };
  for (;;) {
    const batch = page.all(after, batchSize) as MessageRow[];
    if (batch.length === 0) break;
    const low = batch[0]!.id;
    const high = batch[batch.length - 1]!.id;
    after = high;

    const overrides = new Map<number, Map<number, number>>();
    for (const r of overrideRowsForMessages(db, low, high)) {
      const map = overrides.get(r.message_id) ?? new Map<number, number>();
      map.set(r.user_id, r.flags);
      overrides.set(r.message_id, map);
    }
    const history = new Map<number, EditRow[]>();
    for (const e of edits.all(low, high) as EditRow[]) {
      const list = history.get(e.message_id) ?? [];
      list.push(e);
      history.set(e.message_id, list);
    }

    const messageRows: Record<string, unknown>[] = [];
    // The most numerous rows: written as JSON text directly (all integers).
    const userMessageRows: string[] = [];
    for (const m of batch) {
      if (!holds(m)) continue;
      exported?.add(m.id);
      messageRows.push(
        messageRow(m, { profile, org, ids, history, attachmentMessageIds, botId: botId }),
      );
      const rows = overrides.get(m.id);
      const isPrivate = m.dm_group_id !== null;
      const add = (userId: number, hearthFlags: number) => {
        if (userId === botId) return;
        // A consent export keeps only the per-message rows of those who consented.
        if (scope === 'consent' && !org.consenting.has(userId)) return;
        const flags = toZulipFlags(profile, hearthFlags, isPrivate);
        userMessageRows.push(
          `{"id":${ids.next('usermessage')},"user_profile":${userId},"message":${m.id},"flags_mask":${flags}}`,
        );
      };
      const covered = new Set<number>();
      if (m.stream_id !== null) {
        const watermarks = streamWatermarks.get(m.stream_id);
        for (const p of periods.get(m.stream_id) ?? []) {
          if (m.id < p.first || (p.last !== null && m.id > p.last) || covered.has(p.user)) continue;
          covered.add(p.user);
          add(
            p.user,
            rows?.get(p.user) ??
              defaultFlags(m.id, m.sender_id, p.user, watermarks?.get(p.user) ?? 0),
          );
        }
      } else {
        for (const member of dmMembers.get(m.dm_group_id!) ?? []) {
          covered.add(member.user);
          add(
            member.user,
            rows?.get(member.user) ??
              defaultFlags(m.id, m.sender_id, member.user, member.readThrough),
          );
        }
      }
      // Rows of users who did not receive the message: starred or read from history.
      for (const [userId, flags] of rows ?? []) {
        if (!covered.has(userId)) add(userId, flags | Flag.historical);
      }
    }

    done += batch.length;
    if (messageRows.length === 0) {
      options.onProgress(done, total);
      continue;
    }
    files++;
    const writer = await JsonFileWriter.create(path.join(dir, messageFileName(files)));
    try {
      await writer.raw('{"zerver_message":');
      await writer.rows(messageRows);
      await writer.raw(',\n"zerver_usermessage":');
      await writer.jsonRows(userMessageRows);
      await writer.raw('}\n');
    } catch (err) {
      await writer.abandon();
      throw err;
    }
    await writer.close();
    userMessages += userMessageRows.length;
    written += messageRows.length;
    options.onProgress(done, total);
  }
  return { files, messages: written, userMessages, exported };
}

function messageRow(
  m: MessageRow,
  c: {
    profile: ExportProfile;
    org: OrganizationTables;
    ids: ExportIds;
    history: Map<number, EditRow[]>;
    attachmentMessageIds: ReadonlySet<number>;
    botId: number | null;
  },
): Record<string, unknown> {
  const edits = c.history.get(m.id);
  const lastEdit = Math.max(m.last_edit_time ?? 0, m.last_moved_time ?? 0);
  return {
    id: m.id,
    sender: m.sender_id,
    recipient:
      m.stream_id !== null ? c.ids.streamRecipient(m.stream_id) : c.ids.dmRecipient(m.dm_group_id!),
    sending_client: c.org.clientId(m.sending_client),
    realm: 1,
    subject: m.stream_id !== null ? m.topic : '',
    content: m.content,
    rendered_content: m.rendered_content,
    rendered_content_version: 1,
    date_sent: m.date_sent,
    last_edit_time: lastEdit > 0 ? lastEdit : null,
    edit_history: edits ? JSON.stringify(edits.map((e) => editEntry(e, m, c.botId))) : null,
    has_attachment: m.has_attachment === 1 || c.attachmentMessageIds.has(m.id),
    has_image: m.has_image === 1,
    has_link: m.has_link === 1,
    is_channel_message: m.stream_id !== null,
    type: c.profile.enums.message_type_normal,
  };
}

/**
 * One EditHistoryEvent (zerver/lib/types.py): only the parts the edit
 * changed. Zulip's importer maps every entry's user_id and fails on null,
 * so an edit Hearth recorded without a person (a system move) is
 * attributed to the Notification Bot, or else to the sender.
 */
function editEntry(e: EditRow, m: MessageRow, botId: number | null): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    user_id: e.user_id ?? botId ?? m.sender_id,
    timestamp: e.timestamp,
  };
  if (e.prev_content !== null) {
    entry.prev_content = e.prev_content;
    entry.prev_rendered_content = e.prev_rendered_content;
    entry.prev_rendered_content_version = 1;
  }
  if (e.prev_topic !== null) {
    entry.prev_topic = e.prev_topic;
    entry.topic = e.topic;
  }
  if (e.prev_stream_id !== null) {
    entry.prev_stream = e.prev_stream_id;
    entry.stream = e.stream_id;
  }
  return entry;
}
