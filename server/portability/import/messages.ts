import type { Db } from '../../db/open.js';
import { catchUpSearchIndex } from '../../db/queries/search-index.js';
import { writeImportedFlagRow } from '../../flags/index.js';
import { defaultFlags, Flag } from '../../shared/flags.js';
import { escapeHtml } from '../../shared/html.js';
import { toHearthFlags } from '../flag-bits.js';
import type { ExportProfile } from '../profiles/index.js';
import type { OrganizationImport } from './organization.js';
import { ImportRefused, readMessageFile } from './source.js';

type Row = Record<string, unknown>;

interface Conversation {
  streamId: number | null;
  dmGroupId: number | null;
}

interface Run {
  open: number | null;
  last: number;
  periods: [number, number | null][];
  any: boolean;
}

const secs = (v: unknown) => (typeof v === 'number' ? Math.floor(v) : null);

/**
 * Messages, and Zulip's per-recipient rows folded into Hearth's storage
 * (db/DESIGN.md): who received a channel message becomes subscription
 * periods (maximal runs of received messages), read state becomes one
 * watermark per conversation (just below the oldest received unread
 * message), and only flags that differ from the watermark's default stay
 * as override rows. Two passes over the message files, one file in memory
 * at a time: the first inserts messages and finds runs and watermarks, the
 * second writes the override rows against the final watermarks.
 */
export class MessageImport {
  private readonly runs = new Map<string, Run>();
  /** `${kind}:${conversation}:${user}` -> oldest received, unread message not their own. */
  private readonly firstUnread = new Map<string, number>();
  private readonly newest = new Map<string, number>();
  readonly messageIds = new Set<number>();
  private maxMessageId = 0;
  messages = 0;
  flagRows = 0;

  constructor(
    private readonly db: Db,
    private readonly profile: ExportProfile,
    private readonly org: OrganizationImport,
  ) {}

  private conversationOf(m: Row, file: string): Conversation {
    const r = this.org.recipients.get(m.recipient as number);
    if (r?.type === this.profile.enums.recipient_type.stream)
      return { streamId: r.typeId, dmGroupId: null };
    const dm = this.org.dmGroupOfMessage(m.recipient as number, m.sender as number);
    if (dm === null)
      throw new ImportRefused(
        `${file}: message ${String(m.id)} has recipient ${String(m.recipient)}, which the export does not hold`,
      );
    return { streamId: null, dmGroupId: dm };
  }

  private received(um: Row | undefined): boolean {
    return (
      um !== undefined && ((um.flags_mask as number) & (this.profile.flags.historical ?? 0)) === 0
    );
  }

  async firstPass(files: string[], onProgress: (done: number) => void): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO messages (id, sender_id, stream_id, dm_group_id, topic, topic_key, content, rendered_content,
         date_sent, last_edit_time, last_moved_time, sending_client, is_me_message, has_link, has_image, has_attachment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const edit = this.db.prepare(
      `INSERT INTO message_edits (message_id, user_id, timestamp, prev_content, prev_rendered_content, prev_topic,
         topic, prev_stream_id, stream_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const file of files) {
      const { messages, userMessages } = await readMessageFile(file);
      const rows = groupRows(userMessages);
      messages.sort((a, b) => (a.id as number) - (b.id as number));
      for (const m of messages) {
        const id = m.id as number;
        if (!Number.isInteger(id) || this.messageIds.has(id))
          throw new ImportRefused(`${file}: message id ${String(m.id)} is missing or repeated`);
        if (id <= this.maxMessageId)
          throw new ImportRefused(`${file}: messages are not in ascending id order (${id})`);
        this.maxMessageId = id;
        if (!this.org.userIds.has(m.sender as number))
          throw new ImportRefused(
            `${file}: message ${id} was sent by user ${String(m.sender)}, who is not in the export`,
          );
        const c = this.conversationOf(m, file);
        const topic = c.streamId !== null ? String(m.subject ?? m.topic_name ?? '') : '';
        const content = String(m.content ?? '');
        const rendered =
          typeof m.rendered_content === 'string'
            ? m.rendered_content
            : `<p>${escapeHtml(content)}</p>`;
        const history = parseHistory(m.edit_history);
        let lastEdit: number | null = null;
        let lastMove: number | null = null;
        for (const e of history) {
          const t = secs(e.timestamp) ?? 0;
          if ('prev_content' in e) lastEdit = Math.max(lastEdit ?? 0, t);
          if ('prev_topic' in e || 'prev_subject' in e || 'prev_stream' in e)
            lastMove = Math.max(lastMove ?? 0, t);
        }
        if (history.length === 0 && typeof m.last_edit_time === 'number')
          lastEdit = secs(m.last_edit_time);
        insert.run(
          id,
          m.sender,
          c.streamId,
          c.dmGroupId,
          topic,
          topic.toLowerCase(),
          content,
          rendered,
          secs(m.date_sent) ?? 0,
          lastEdit,
          lastMove,
          this.org.clientNames.get(m.sending_client as number) ?? '',
          /^\/me /.test(content) ? 1 : 0,
          m.has_link ? 1 : 0,
          m.has_image ? 1 : 0,
          m.has_attachment ? 1 : 0,
        );
        // Zulip keeps the newest edit first; Hearth numbers them oldest first.
        for (const e of [...history].reverse()) {
          const user = e.user_id as number;
          edit.run(
            id,
            this.org.userIds.has(user) ? user : null,
            secs(e.timestamp) ?? 0,
            'prev_content' in e ? String(e.prev_content) : null,
            'prev_content' in e ? ((e.prev_rendered_content as string | null) ?? null) : null,
            'prev_topic' in e
              ? String(e.prev_topic)
              : 'prev_subject' in e
                ? String(e.prev_subject)
                : null,
            'prev_topic' in e || 'prev_subject' in e ? String(e.topic ?? e.subject ?? topic) : null,
            (e.prev_stream as number | null) ?? null,
            (e.stream as number | null) ?? (typeof e.prev_stream === 'number' ? c.streamId : null),
          );
        }
        this.messageIds.add(id);
        this.messages++;
        this.track(m, c, rows.get(id));
      }
      onProgress(this.messages);
    }
    // The search rows, as the server adds them after sends (search-index.ts).
    catchUpSearchIndex(this.db);
  }

  /** Runs (who received it) and the oldest unread message, per user and conversation. */
  private track(m: Row, c: Conversation, rows: Map<number, Row> | undefined): void {
    const id = m.id as number;
    const sender = m.sender as number;
    const read = this.profile.flags.read ?? 1;
    const note = (key: string, userId: number, um: Row | undefined) => {
      if (!this.received(um) || userId === sender) return;
      if (((um!.flags_mask as number) & read) === 0 && !this.firstUnread.has(key))
        this.firstUnread.set(key, id);
    };
    if (c.streamId !== null) {
      this.newest.set(`s:${c.streamId}`, id);
      for (const sub of this.org.streamSubscribers.get(c.streamId) ?? []) {
        const key = `s:${c.streamId}:${sub.user}`;
        const um = rows?.get(sub.user);
        let run = this.runs.get(key);
        if (!run) {
          run = { open: null, last: 0, periods: [], any: false };
          this.runs.set(key, run);
        }
        if (this.received(um)) {
          if (run.open === null) run.open = id;
          run.last = id;
          run.any = true;
        } else if (run.open !== null) {
          run.periods.push([run.open, run.last]);
          run.open = null;
        }
        note(key, sub.user, um);
      }
    } else {
      this.newest.set(`d:${c.dmGroupId}`, id);
      for (const userId of this.org.dmGroups.get(c.dmGroupId!) ?? []) {
        note(`d:${c.dmGroupId}:${userId}`, userId, rows?.get(userId));
      }
    }
  }

  /** A user's watermark in a conversation: just below the oldest received unread message. */
  readThrough(kind: 's' | 'd', conversation: number, userId: number): number {
    const key = `${kind}:${conversation}:${userId}`;
    const unread = this.firstUnread.get(key);
    if (unread !== undefined) return unread - 1;
    return this.newest.get(`${kind}:${conversation}`) ?? 0;
  }

  /** Subscription periods and channel watermarks; DM groups with theirs. */
  writeMemberships(): void {
    // As Zulip's importer recomputes it: the oldest message each channel holds.
    this.db
      .prepare(
        'UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE messages.stream_id = streams.id)',
      )
      .run();
    const period = this.db.prepare(
      'INSERT OR IGNORE INTO subscription_periods (user_id, stream_id, first_message_id, last_message_id) VALUES (?, ?, ?, ?)',
    );
    const watermark = this.db.prepare(
      'UPDATE subscriptions SET read_through = ? WHERE stream_id = ? AND user_id = ?',
    );
    for (const [streamId, subs] of this.org.streamSubscribers) {
      const newest = this.newest.get(`s:${streamId}`) ?? 0;
      for (const sub of subs) {
        const run = this.runs.get(`s:${streamId}:${sub.user}`);
        const periods: [number, number | null][] = [...(run?.periods ?? [])];
        if (run?.open != null) periods.push([run.open, run.last]);
        if (sub.active) {
          const last = periods[periods.length - 1];
          // No rows at all (soft-deactivated, or not consenting to the export):
          // they received the channel's history. Rows that stopped: subscribed again
          // since, or idle: what is sent from now on reaches them.
          if (!run?.any) periods.splice(0, periods.length, [1, null]);
          else if (last && (last[1] === newest || this.org.longTermIdle.has(sub.user)))
            last[1] = null;
          else periods.push([newest + 1, null]);
        }
        for (const [first, lastId] of periods) period.run(sub.user, streamId, first, lastId);
        watermark.run(this.readThrough('s', streamId, sub.user), streamId, sub.user);
      }
    }
    this.org.insertDmGroups((groupId, userId) => this.readThrough('d', groupId, userId));
  }

  /**
   * Second pass: an override row wherever a user's flags differ from the
   * watermark default (read above it, unread own messages, stars, mentions,
   * alert words, messages read from history).
   */
  async secondPass(files: string[]): Promise<void> {
    const member = new Map<string, boolean>();
    for (const [streamId, subs] of this.org.streamSubscribers) {
      for (const s of subs) member.set(`s:${streamId}:${s.user}`, true);
    }
    for (const file of files) {
      const { messages, userMessages } = await readMessageFile(file);
      const byId = new Map(messages.map((m) => [m.id as number, m]));
      for (const um of userMessages) {
        const m = byId.get(um.message as number);
        const userId = um.user_profile as number;
        if (!m || !this.org.userIds.has(userId)) continue;
        const c = this.conversationOf(m, file);
        const kind = c.streamId !== null ? 's' : 'd';
        const conversation = (c.streamId ?? c.dmGroupId)!;
        let flags = toHearthFlags(this.profile, um.flags_mask as number);
        const key = `${kind}:${conversation}:${userId}`;
        const isMember =
          kind === 'd'
            ? (this.org.dmGroups.get(conversation) ?? []).includes(userId)
            : member.has(key);
        if (!isMember && (flags & Flag.historical) === 0) flags |= Flag.historical;
        const expected =
          (flags & Flag.historical) !== 0
            ? -1
            : defaultFlags(
                m.id as number,
                m.sender as number,
                userId,
                this.readThrough(kind, conversation, userId),
              );
        if (flags !== expected) {
          writeImportedFlagRow(this.db, userId, m.id as number, flags);
          this.flagRows++;
        }
      }
    }
  }
}

function groupRows(rows: Row[]): Map<number, Map<number, Row>> {
  const byMessage = new Map<number, Map<number, Row>>();
  for (const um of rows) {
    const map = byMessage.get(um.message as number) ?? new Map<number, Row>();
    map.set(um.user_profile as number, um);
    byMessage.set(um.message as number, map);
  }
  return byMessage;
}

function parseHistory(value: unknown): Row[] {
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? (parsed as Row[]) : [];
  } catch {
    return [];
  }
}
