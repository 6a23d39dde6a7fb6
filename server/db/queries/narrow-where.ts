import { RESOLVED_TOPIC_PREFIX } from '../../shared/resolved-topics.js';

/**
 * Reading messages through a narrow (GET /messages, matches_narrow, flags
 * over a narrow). narrow/resolve.ts resolves a client's narrow (names, emails,
 * conversations) into the conditions below; this module turns them into one
 * WHERE clause over `messages m` with named parameters only, so each narrow
 * *shape* is prepared once however its operands vary.
 *
 * Per-user flags are never stored for every recipient (db/DESIGN.md): the
 * flag conditions recompute them from the override row, the conversation's
 * read watermark and the subscription periods, exactly as FlagReader does.
 */
export type NarrowCondition = { negated: boolean } & (
  | { kind: 'stream'; streamId: number }
  | { kind: 'streamIn'; streamIds: number[] }
  | { kind: 'topic'; topicKey: string }
  | { kind: 'dmGroup'; dmGroupId: number }
  /** DM conversations that include this user (dm-including). */
  | { kind: 'dmWith'; userId: number; groupsOnly: boolean }
  | { kind: 'isDm' }
  | { kind: 'sender'; userId: number }
  | { kind: 'id'; ids: number[] }
  | { kind: 'hasColumn'; column: 'has_link' | 'has_image' | 'has_attachment' }
  | { kind: 'hasReaction' }
  | { kind: 'unread' }
  /** Bits that only override rows can carry (starred, mentions, alert words). */
  | { kind: 'rowFlag'; mask: number }
  | { kind: 'followed' }
  | { kind: 'muted' }
  | { kind: 'resolved' }
  | { kind: 'search'; ftsQuery: string }
  | { kind: 'none' }
);

/** Which messages the user may see at all in this query (see narrow.ts for the rules). */
export interface Visibility {
  userId: number;
  /** Channels whose messages the user may read (content access). */
  contentStreamIds: number[];
  /**
   * Channels whose whole history is in scope; elsewhere only messages the
   * user received (or has an override row for, like a starred historical
   * message) are, Zulip's "UserMessage rows".
   */
  historyStreamIds: number[];
  /**
   * Lowest id an unread message of this user can have (unreadLowerBound);
   * lets unread conditions start their scan there.
   */
  unreadFrom: number;
}

export type Params = Record<string, unknown>;

/**
 * A parameter compared with messages_fts.rowid. better-sqlite3 binds a JS
 * number as a REAL, and FTS5 ignores a rowid bound that is not an INTEGER:
 * it then reads every match and leaves the bound to SQLite (15 ms instead of
 * 0.1 ms for a common word's matches among 1,000 ids).
 */
export const ftsRowid = (param: string) => `CAST(${param} AS INTEGER)`;

const RECEIVED_IN_CHANNEL = `EXISTS (SELECT 1 FROM subscription_periods p
  WHERE p.user_id = @u AND p.stream_id = m.stream_id AND p.first_message_id <= m.id
    AND (p.last_message_id IS NULL OR p.last_message_id >= m.id))`;

const FLAG_ROW =
  '(SELECT f.flags FROM user_message_flags f WHERE f.user_id = @u AND f.message_id = m.id)';

/** The user's flags on m (as flags/reader.ts computes them). */
export const EFFECTIVE_FLAGS = `ifnull(${FLAG_ROW}, CASE
  WHEN m.dm_group_id IS NOT NULL THEN
    CASE WHEN m.sender_id = @u OR m.id <= ifnull((SELECT g.read_through FROM dm_group_members g
      WHERE g.dm_group_id = m.dm_group_id AND g.user_id = @u), 0) THEN 1 ELSE 0 END
  WHEN ${RECEIVED_IN_CHANNEL} THEN
    CASE WHEN m.sender_id = @u OR m.id <= ifnull((SELECT s.read_through FROM subscriptions s
      WHERE s.stream_id = m.stream_id AND s.user_id = @u), 0) THEN 1 ELSE 0 END
  ELSE 129 END)`;

const TOPIC_POLICY = `ifnull((SELECT t.visibility_policy FROM user_topics t
  WHERE t.user_id = @u AND t.stream_id = m.stream_id AND t.topic_key = m.topic_key), 0)`;

const CHANNEL_MUTED = `EXISTS (SELECT 1 FROM subscriptions s
  WHERE s.stream_id = m.stream_id AND s.user_id = @u AND s.active = 1 AND s.is_muted = 1)`;

/** Muted topic, or a muted channel where the topic is not unmuted or followed (Zulip's is:muted). */
export const MUTED = `(m.stream_id IS NOT NULL AND CASE ${TOPIC_POLICY} WHEN 1 THEN 1 WHEN 0 THEN ${CHANNEL_MUTED} ELSE 0 END)`;

export const MUTED_TOPIC = `(m.stream_id IS NOT NULL AND ${TOPIC_POLICY} = 1)`;

/**
 * The unary + keeps these terms from driving the query: as an OR of two
 * indexable terms they would make SQLite collect every visible message and
 * sort them. Narrow terms (channel, topic, DM, sender) pick the index instead,
 * and without one the newest messages come first from the primary key.
 */
const VISIBLE = `(+m.dm_group_id IN (SELECT dm_group_id FROM dm_group_members WHERE user_id = @u)
  OR (+m.stream_id IN (SELECT value FROM json_each(@content_streams))
      AND (m.stream_id IN (SELECT value FROM json_each(@history_streams))
           OR ${RECEIVED_IN_CHANNEL}
           OR EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @u AND f.message_id = m.id))))`;

export class WhereBuilder {
  readonly parts: string[] = [];
  readonly params: Params;
  private n = 0;

  /**
   * `prefix` keeps the parameters of two builders of one query apart;
   * without `visible` the clause holds only the conditions added.
   */
  constructor(
    visibility: Visibility,
    private readonly prefix = 'p',
    visible = true,
  ) {
    this.params = {
      u: visibility.userId,
      content_streams: JSON.stringify(visibility.contentStreamIds),
      history_streams: JSON.stringify(visibility.historyStreamIds),
      unread_from: visibility.unreadFrom,
      // The id range a search term looks in; callers narrow it when they can.
      search_lo: 0,
      search_hi: Number.MAX_SAFE_INTEGER,
    };
    this.parts.push(visible ? VISIBLE : '1');
  }

  param(value: unknown): string {
    const name = `${this.prefix}${this.n++}`;
    this.params[name] = value;
    return `@${name}`;
  }

  add(condition: NarrowCondition): void {
    const sql = this.sqlOf(condition);
    // NULL (e.g. stream_id = ? on a DM) must count as "no match" before NOT.
    this.parts.push(condition.negated ? `NOT ifnull(${sql}, 0)` : `(${sql})`);
  }

  private sqlOf(c: NarrowCondition): string {
    switch (c.kind) {
      case 'stream':
        return `m.stream_id = ${this.param(c.streamId)}`;
      case 'streamIn':
        return `m.stream_id IN (SELECT value FROM json_each(${this.param(JSON.stringify(c.streamIds))}))`;
      case 'topic':
        return `m.stream_id IS NOT NULL AND m.topic_key = ${this.param(c.topicKey)}`;
      case 'dmGroup':
        return `m.dm_group_id = ${this.param(c.dmGroupId)}`;
      case 'dmWith': {
        const user = this.param(c.userId);
        return c.groupsOnly
          ? `m.dm_group_id IN (SELECT w.dm_group_id FROM dm_group_members w WHERE w.user_id = ${user}
               AND (SELECT count(*) FROM dm_group_members c WHERE c.dm_group_id = w.dm_group_id) > 2)`
          : `m.dm_group_id IN (SELECT w.dm_group_id FROM dm_group_members w WHERE w.user_id = ${user})`;
      }
      case 'isDm':
        return 'm.dm_group_id IS NOT NULL';
      case 'sender':
        return `m.sender_id = ${this.param(c.userId)}`;
      case 'id':
        return c.ids.length === 1
          ? `m.id = ${this.param(c.ids[0])}`
          : `m.id IN (SELECT value FROM json_each(${this.param(JSON.stringify(c.ids))}))`;
      case 'hasColumn':
        return `m.${c.column} = 1`;
      case 'hasReaction':
        return 'EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)';
      case 'unread':
        return `m.id >= @unread_from AND (${EFFECTIVE_FLAGS} & 1) = 0`;
      case 'rowFlag':
        return `m.id IN (SELECT f.message_id FROM user_message_flags f WHERE f.user_id = @u AND (f.flags & ${this.param(c.mask)}) <> 0)`;
      case 'followed':
        return `m.stream_id IS NOT NULL AND ${TOPIC_POLICY} = 3`;
      case 'muted':
        return MUTED;
      case 'resolved':
        return `m.stream_id IS NOT NULL AND substr(m.topic, 1, ${RESOLVED_TOPIC_PREFIX.length}) = ${this.param(RESOLVED_TOPIC_PREFIX)}`;
      case 'search':
        // The range keeps FTS5 from listing matches no candidate row can have.
        return `m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${this.param(c.ftsQuery)}
          AND rowid >= ${ftsRowid('@search_lo')} AND rowid <= ${ftsRowid('@search_hi')})`;
      case 'none':
        return '0';
    }
  }

  get where(): string {
    return this.parts.join('\n  AND ');
  }
}
