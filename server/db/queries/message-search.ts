import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { memberKey } from './dm-groups.js';
import type { MessageRow } from './messages.js';

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

type Params = Record<string, unknown>;

const RECEIVED_IN_CHANNEL = `EXISTS (SELECT 1 FROM subscription_periods p
  WHERE p.user_id = @u AND p.stream_id = m.stream_id AND p.first_message_id <= m.id
    AND (p.last_message_id IS NULL OR p.last_message_id >= m.id))`;

const FLAG_ROW =
  '(SELECT f.flags FROM user_message_flags f WHERE f.user_id = @u AND f.message_id = m.id)';

/** The user's flags on m (as flags/reader.ts computes them). */
const EFFECTIVE_FLAGS = `ifnull(${FLAG_ROW}, CASE
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
const MUTED = `(m.stream_id IS NOT NULL AND CASE ${TOPIC_POLICY} WHEN 1 THEN 1 WHEN 0 THEN ${CHANNEL_MUTED} ELSE 0 END)`;

const MUTED_TOPIC = `(m.stream_id IS NOT NULL AND ${TOPIC_POLICY} = 1)`;

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

class WhereBuilder {
  readonly parts: string[] = [];
  readonly params: Params;
  private n = 0;

  /** `prefix` keeps the parameters of two builders of one query apart. */
  constructor(
    visibility: Visibility,
    private readonly prefix = 'p',
  ) {
    this.params = {
      u: visibility.userId,
      content_streams: JSON.stringify(visibility.contentStreamIds),
      history_streams: JSON.stringify(visibility.historyStreamIds),
      unread_from: visibility.unreadFrom,
    };
    this.parts.push(VISIBLE);
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
        return `m.stream_id IS NOT NULL AND substr(m.topic, 1, 2) = '✔ '`;
      case 'search':
        return `m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${this.param(c.ftsQuery)})`;
      case 'none':
        return '0';
    }
  }

  get where(): string {
    return this.parts.join('\n  AND ');
  }
}

export interface NarrowQuery {
  where: string;
  params: Params;
  /**
   * Set when the search index should drive a message window: the narrow has
   * search words and no term that picks out a conversation or a few ids.
   * `where` is then the rest of the narrow.
   */
  search?: { ftsQuery: string; where: string };
}

/**
 * Terms that leave so few candidates that collecting every match of the
 * words (`m.id IN (...)`) and reading the candidates beats walking the
 * matches: a topic, a conversation, given ids. A channel or a sender still
 * leaves a large share of a common word's matches, which the search index
 * walks newest first (a probe of the index per candidate row costs far more).
 */
const INDEX_DRIVEN = new Set<NarrowCondition['kind']>(['topic', 'dmGroup', 'id']);

export function narrowQuery(visibility: Visibility, conditions: NarrowCondition[]): NarrowQuery {
  const builder = new WhereBuilder(visibility);
  for (const condition of conditions) builder.add(condition);
  const query: NarrowQuery = { where: builder.where, params: builder.params };
  const searches = conditions.filter((c) => c.kind === 'search' && !c.negated);
  if (searches.length > 0 && !conditions.some((c) => !c.negated && INDEX_DRIVEN.has(c.kind))) {
    const rest = new WhereBuilder(visibility, 'r');
    for (const condition of conditions) if (!searches.includes(condition)) rest.add(condition);
    Object.assign(query.params, rest.params);
    query.search = {
      ftsQuery: searches.map((c) => `(${(c as { ftsQuery: string }).ftsQuery})`).join(' AND '),
      where: rest.where,
    };
  }
  return query;
}

/**
 * The two sides of a message window (exported so tests can EXPLAIN them).
 * Driven by the search index, its matches come newest (or oldest) first and
 * the scan stops at `limit` visible ones, however common the word.
 */
export const windowSql = {
  upTo: (q: NarrowQuery) =>
    q.search
      ? `SELECT m.* FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
  WHERE messages_fts MATCH @fts_query AND messages_fts.rowid <= @bound AND ${q.search.where}
  ORDER BY messages_fts.rowid DESC LIMIT @limit`
      : `SELECT m.* FROM messages m WHERE ${q.where}\n  AND m.id <= @bound ORDER BY m.id DESC LIMIT @limit`,
  from: (q: NarrowQuery) =>
    q.search
      ? `SELECT m.* FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
  WHERE messages_fts MATCH @fts_query AND messages_fts.rowid >= @bound AND ${q.search.where}
  ORDER BY messages_fts.rowid ASC LIMIT @limit`
      : `SELECT m.* FROM messages m WHERE ${q.where}\n  AND m.id >= @bound ORDER BY m.id ASC LIMIT @limit`,
};

const windowParams = (q: NarrowQuery, bound: number, limit: number) =>
  q.search
    ? { ...q.params, fts_query: q.search.ftsQuery, bound, limit }
    : { ...q.params, bound, limit };

/** Up to `limit` matching messages with id <= `through`, newest first. */
export const messagesUpTo = (db: Db, q: NarrowQuery, through: number, limit: number) =>
  stmt<[Params], MessageRow>(db, windowSql.upTo(q)).all(windowParams(q, through, limit));

/** Up to `limit` matching messages with id >= `from`, oldest first. */
export const messagesFrom = (db: Db, q: NarrowQuery, from: number, limit: number) =>
  stmt<[Params], MessageRow>(db, windowSql.from(q)).all(windowParams(q, from, limit));

/** The matching messages among `ids`, ascending. */
export const messagesAmong = (db: Db, q: NarrowQuery, ids: readonly number[]) =>
  stmt<[Params], MessageRow>(
    db,
    `SELECT m.* FROM messages m WHERE m.id IN (SELECT value FROM json_each(@ids)) AND ${q.where}
     ORDER BY m.id`,
  ).all({ ...q.params, ids: JSON.stringify(ids) });

/**
 * The oldest unread matching message outside muted conversations (Zulip's
 * find_first_unread_anchor with exclude_muting_conditions). Channel muting
 * counts only when the narrow is not already one channel.
 */
export function firstUnreadId(db: Db, q: NarrowQuery, oneChannel: boolean): number | undefined {
  const notMuted = oneChannel ? `NOT ifnull(${MUTED_TOPIC}, 0)` : `NOT ifnull(${MUTED}, 0)`;
  return stmt<[Params], { id: number }>(
    db,
    `SELECT m.id FROM messages m WHERE ${q.where}
       AND m.id >= @unread_from AND (${EFFECTIVE_FLAGS} & 1) = 0 AND ${notMuted}
     ORDER BY m.id ASC LIMIT 1`,
  ).get(q.params)?.id;
}

/**
 * No unread message of the user has a smaller id: per active subscription and
 * DM membership, the first message from someone else above the watermark
 * (an index seek each), and the oldest override row without `read`. Null when
 * the user has nothing unread at all.
 */
export const unreadLowerBound = (db: Db, userId: number) =>
  stmt<[{ u: number }], { id: number | null }>(
    db,
    `SELECT min(x) AS id FROM (
       SELECT (SELECT min(m.id) FROM messages m
                WHERE m.stream_id = s.stream_id AND m.id > s.read_through AND m.sender_id <> @u) AS x
         FROM subscriptions s WHERE s.user_id = @u AND s.active = 1
       UNION ALL
       SELECT (SELECT min(m.id) FROM messages m
                WHERE m.dm_group_id = g.dm_group_id AND m.id > g.read_through AND m.sender_id <> @u)
         FROM dm_group_members g WHERE g.user_id = @u
       UNION ALL
       SELECT min(message_id) FROM user_message_flags INDEXED BY user_message_flags_unread
        WHERE user_id = @u AND (flags & 1) = 0)`,
  ).get({ u: userId })!.id;

/** Message ids only grow with time, so the first message at or after a time is found by bisection. */
export function firstMessageIdAtOrAfter(db: Db, timestamp: number): number | undefined {
  const probe = stmt<[number], { id: number; date_sent: number }>(
    db,
    'SELECT id, date_sent FROM messages WHERE id >= ? ORDER BY id LIMIT 1',
  );
  const bounds = stmt<[], { lo: number | null; hi: number | null }>(
    db,
    'SELECT min(id) AS lo, max(id) AS hi FROM messages',
  ).get()!;
  if (bounds.lo === null || bounds.hi === null) return undefined;
  let lo = bounds.lo;
  let hi = bounds.hi;
  if (probe.get(hi)!.date_sent < timestamp) return undefined;
  // Invariant: the message at or after `hi` is at or after the time.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = probe.get(mid)!;
    if (row.date_sent >= timestamp) hi = mid;
    else lo = row.id + 1;
  }
  return probe.get(lo)?.id;
}

export const dmGroupIdByMembers = (db: Db, memberIds: readonly number[]) =>
  stmt<[string], { id: number }>(db, 'SELECT id FROM dm_groups WHERE member_key = ?').get(
    memberKey(memberIds),
  )?.id;
