import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { memberKey } from './dm-groups.js';
import type { MessageRow } from './messages.js';
import {
  EFFECTIVE_FLAGS,
  ftsRowid,
  MUTED,
  MUTED_TOPIC,
  type NarrowCondition,
  type Params,
  type Visibility,
  WhereBuilder,
} from './narrow-where.js';

export type { NarrowCondition, Visibility };

export interface NarrowQuery {
  where: string;
  params: Params;
  /**
   * Set when the narrow has search words and no given ids: the window then
   * reads the search index's matches newest (or oldest) first. `where` is
   * the rest of the narrow; `driver`, when set, is the part of the rest
   * whose own index reads a stretch of ids (see searchWindow).
   */
  search?: { ftsQuery: string; where: string; driver?: string };
  /**
   * Set for `has:reaction` without a search or a term with its own index:
   * the window then walks the reacted messages, and `reacted` is the rest
   * of the narrow.
   */
  reacted?: string;
}

/**
 * Positive terms whose index reads the messages of an id range in order
 * (messages_by_stream, _by_stream_topic, _by_dm_group, _by_sender, the
 * `has:` partial indexes).
 */
const DRIVERS = new Set<NarrowCondition['kind']>([
  'stream',
  'topic',
  'dmGroup',
  'sender',
  'hasColumn',
]);

export function narrowQuery(visibility: Visibility, conditions: NarrowCondition[]): NarrowQuery {
  const builder = new WhereBuilder(visibility);
  for (const condition of conditions) builder.add(condition);
  const query: NarrowQuery = { where: builder.where, params: builder.params };
  const positive = conditions.filter((c) => !c.negated);
  const givenIds = positive.flatMap((c) => (c.kind === 'id' ? [c.ids] : []));
  if (givenIds.length > 0) {
    // A few given ids: the words' matches are needed only in their range.
    Object.assign(query.params, searchRange(givenIds.flat()));
    return query;
  }
  const searches: NarrowCondition[] = positive.filter((c) => c.kind === 'search');
  const reacted = positive.find((c) => c.kind === 'hasReaction');
  if (searches.length === 0 && reacted && !positive.some((c) => DRIVERS.has(c.kind))) {
    // Reactions are rare next to messages: walking every message to find
    // them read a million rows when none was reacted to.
    const rest = new WhereBuilder(visibility, 'r');
    for (const condition of conditions) if (condition !== reacted) rest.add(condition);
    Object.assign(query.params, rest.params);
    query.reacted = rest.where;
  }
  if (searches.length > 0) {
    const rest = new WhereBuilder(visibility, 'r');
    for (const condition of conditions) if (!searches.includes(condition)) rest.add(condition);
    Object.assign(query.params, rest.params);
    query.search = {
      ftsQuery: searches.map((c) => `(${(c as { ftsQuery: string }).ftsQuery})`).join(' AND '),
      where: rest.where,
    };
    const drivers = positive.filter((c) => DRIVERS.has(c.kind));
    if (drivers.length > 0) {
      const driver = new WhereBuilder(visibility, 'd', false);
      for (const condition of drivers) driver.add(condition);
      Object.assign(query.params, driver.params);
      query.search.driver = driver.where;
    }
  }
  return query;
}

const searchRange = (ids: readonly number[]) => ({
  search_lo: Math.min(...ids),
  search_hi: Math.max(...ids),
});

/** The FTS5 side of a search window: the words' matches from `@bound` on, newest or oldest first. */
const matchesFrom = (order: 'ASC' | 'DESC') =>
  `messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
  WHERE messages_fts MATCH @fts_query AND messages_fts.rowid ${order === 'DESC' ? '<=' : '>='} ${ftsRowid('@bound')}`;

/**
 * Reacted messages from `@bound` on, walked through the reactions' primary
 * key (message id first); GROUP BY keeps one row per message, in that order.
 */
const reactedWindow = (where: string, order: 'ASC' | 'DESC') =>
  `SELECT m.* FROM reactions r CROSS JOIN messages m ON m.id = r.message_id
  WHERE r.message_id ${order === 'DESC' ? '<=' : '>='} @bound AND ${where}
  GROUP BY r.message_id ORDER BY r.message_id ${order} LIMIT @limit`;

/**
 * The two sides of a message window, and one stretch of a search window
 * (exported so tests can EXPLAIN them). Driven by the search index, its
 * matches come newest (or oldest) first and the scan stops at `limit`
 * visible ones, however common the word.
 */
export const windowSql = {
  upTo: (q: NarrowQuery) =>
    q.reacted !== undefined
      ? reactedWindow(q.reacted, 'DESC')
      : q.search
        ? `SELECT m.* FROM ${matchesFrom('DESC')} AND ${q.search.where}
  ORDER BY messages_fts.rowid DESC LIMIT @limit`
        : `SELECT m.* FROM messages m WHERE ${q.where}\n  AND m.id <= @bound ORDER BY m.id DESC LIMIT @limit`,
  from: (q: NarrowQuery) =>
    q.reacted !== undefined
      ? reactedWindow(q.reacted, 'ASC')
      : q.search
        ? `SELECT m.* FROM ${matchesFrom('ASC')} AND ${q.search.where}
  ORDER BY messages_fts.rowid ASC LIMIT @limit`
        : `SELECT m.* FROM messages m WHERE ${q.where}\n  AND m.id >= @bound ORDER BY m.id ASC LIMIT @limit`,
  /**
   * The words' matches among the ids [@lo, @hi], checked first against the
   * ids the driver's index lists there (the unary + keeps that list from
   * being probed into the search index), so only those read their row.
   */
  stretch: (q: NarrowQuery, order: 'ASC' | 'DESC') =>
    `SELECT m.* FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
  WHERE messages_fts MATCH @fts_query AND messages_fts.rowid >= ${ftsRowid('@lo')} AND messages_fts.rowid <= ${ftsRowid('@hi')}
  AND +messages_fts.rowid IN (SELECT m.id FROM messages m WHERE ${q.search!.driver}
    AND m.id >= @lo AND m.id <= @hi)
  AND ${q.search!.where}
  ORDER BY messages_fts.rowid ${order} LIMIT @limit`,
};

/** Matches of the words that make a word common enough for stretches. */
const FIRST_STRETCH_MATCHES = 256;

/**
 * A search window whose narrow also has a term with its own index (a
 * channel, a sender, `has:link`). Walking the words' matches and reading
 * each one's row to check the term reads 25,000 rows for 100 messages of a
 * common word in one channel of fifty. If the words have fewer than
 * FIRST_STRETCH_MATCHES matches beyond the bound, that walk is cheap and
 * stays. Otherwise the window steps through stretches of ids, the first
 * holding that many matches and each next one four times longer, stopping
 * as soon as it has `limit` rows: in each, the matches are checked against
 * the ids the term's index lists there before any row is read. Every id
 * from the bound on lies in exactly one stretch, so the answer is the
 * walk's, in the same order.
 */
function searchWindow(
  db: Db,
  q: NarrowQuery,
  order: 'ASC' | 'DESC',
  bound: number,
  limit: number,
): MessageRow[] {
  const up = order === 'ASC';
  const ftsQuery = q.search!.ftsQuery;
  const farEnd = stmt<[Params], { id: number }>(
    db,
    `SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH @fts_query
       AND rowid ${up ? '>=' : '<='} ${ftsRowid('@bound')} ORDER BY rowid ${order} LIMIT 1 OFFSET @skip`,
  ).get({ fts_query: ftsQuery, bound, skip: FIRST_STRETCH_MATCHES - 1 })?.id;
  if (farEnd === undefined) {
    return stmt<[Params], MessageRow>(db, up ? windowSql.from(q) : windowSql.upTo(q)).all(
      windowParams(q, bound, limit),
    );
  }
  const stretch = stmt<[Params], MessageRow>(db, windowSql.stretch(q, order));
  const ids = idBounds(db);
  if (ids.lo === null || ids.hi === null) return [];
  const rows: MessageRow[] = [];
  let edge = up ? Math.max(bound, ids.lo) : Math.min(bound, ids.hi);
  let length = Math.abs(farEnd - edge) + 1;
  // The share of the first stretch's ids that the driver lists predicts how
  // many of its FIRST_STRETCH_MATCHES matches are rows: too few, and the
  // stretch is sized from that prediction instead of found out too short.
  const [firstLo, firstHi] = up ? [edge, edge + length - 1] : [edge - length + 1, edge];
  const driverIds = stmt<[Params], { n: number }>(
    db,
    `SELECT count(*) AS n FROM messages m WHERE ${q.search!.driver} AND m.id >= @lo AND m.id <= @hi`,
  ).get({ ...q.params, lo: firstLo, hi: firstHi })!.n;
  const predicted = (FIRST_STRETCH_MATCHES * driverIds) / length;
  if (predicted > 0 && predicted < limit) {
    length = nextStretchLength(length, length, predicted, limit);
  }
  let covered = 0;
  while (rows.length < limit && (up ? edge <= ids.hi : edge >= ids.lo)) {
    const [lo, hi] = up ? [edge, edge + length - 1] : [edge - length + 1, edge];
    rows.push(
      ...stretch.all({ ...q.params, fts_query: ftsQuery, lo, hi, limit: limit - rows.length }),
    );
    covered += length;
    edge = up ? hi + 1 : lo - 1;
    length = nextStretchLength(length, covered, rows.length, limit - rows.length);
  }
  return rows;
}

/**
 * Each stretch costs a fixed 0.15-0.3 ms (the words' doclists sought afresh
 * in every FTS5 segment) besides its matches, so once rows (found, or
 * predicted for the first stretch) show how dense they are, the next stretch
 * is sized to hold twice the rows still wanted at that density: 100 messages
 * of a word in one message in five, in one channel of fifty, take one
 * stretch instead of three. Without a row yet it is four times longer; never
 * more than 32 times, which bounds the driver's ids read for a stretch that
 * turns out too long.
 */
export function nextStretchLength(
  length: number,
  covered: number,
  found: number,
  wanted: number,
): number {
  if (found === 0) return length * 4;
  const estimate = Math.ceil(((2 * wanted) / found) * covered);
  return Math.min(Math.max(estimate, length), length * 32);
}

const windowParams = (q: NarrowQuery, bound: number, limit: number) =>
  q.search
    ? { ...q.params, fts_query: q.search.ftsQuery, bound, limit }
    : { ...q.params, bound, limit };

/** Up to `limit` matching messages with id <= `through`, newest first. */
export const messagesUpTo = (db: Db, q: NarrowQuery, through: number, limit: number) =>
  q.search?.driver
    ? searchWindow(db, q, 'DESC', through, limit)
    : stmt<[Params], MessageRow>(db, windowSql.upTo(q)).all(windowParams(q, through, limit));

/** Up to `limit` matching messages with id >= `from`, oldest first. */
export const messagesFrom = (db: Db, q: NarrowQuery, from: number, limit: number) =>
  q.search?.driver
    ? searchWindow(db, q, 'ASC', from, limit)
    : stmt<[Params], MessageRow>(db, windowSql.from(q)).all(windowParams(q, from, limit));

/** The matching messages among `ids`, ascending. */
export const messagesAmong = (db: Db, q: NarrowQuery, ids: readonly number[]) =>
  ids.length === 0
    ? []
    : stmt<[Params], MessageRow>(
        db,
        `SELECT m.* FROM messages m WHERE m.id IN (SELECT value FROM json_each(@ids)) AND ${q.where}
     ORDER BY m.id`,
      ).all({ ...q.params, ...narrowedSearchRange(q, ids), ids: JSON.stringify(ids) });

/** The search range of `q` narrowed to the span of `ids`. */
function narrowedSearchRange(q: NarrowQuery, ids: readonly number[]) {
  const span = searchRange(ids);
  return {
    search_lo: Math.max(q.params.search_lo as number, span.search_lo),
    search_hi: Math.min(q.params.search_hi as number, span.search_hi),
  };
}

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

/**
 * The smallest and largest message id. Asked together in one SELECT, min and
 * max make SQLite scan the table; each alone reads one end of the rowid tree.
 */
const idBounds = (db: Db) =>
  stmt<[], { lo: number | null; hi: number | null }>(
    db,
    'SELECT (SELECT min(id) FROM messages) AS lo, (SELECT max(id) FROM messages) AS hi',
  ).get()!;

/** Message ids only grow with time, so the first message at or after a time is found by bisection. */
export function firstMessageIdAtOrAfter(db: Db, timestamp: number): number | undefined {
  const probe = stmt<[number], { id: number; date_sent: number }>(
    db,
    'SELECT id, date_sent FROM messages WHERE id >= ? ORDER BY id LIMIT 1',
  );
  const bounds = idBounds(db);
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

/**
 * The indexed words longer than `prefix` that start with it, at most `limit`
 * (undefined when there are more). FTS5's vocabulary reads each word's
 * matches to count them, so the range starts just above the prefix itself:
 * a common word typed whole costs nothing here.
 */
export function longerWordsStartingWith(
  db: Db,
  prefix: string,
  limit: number,
): string[] | undefined {
  const words = stmt<[{ above: string; below: string; n: number }], { term: string }>(
    db,
    'SELECT term FROM messages_fts_terms WHERE term >= @above AND term < @below LIMIT @n',
  )
    .all({ above: `${prefix}\u0001`, below: `${prefix}\u{10FFFF}`, n: limit + 1 })
    .map((r) => r.term);
  return words.length > limit ? undefined : words;
}

export const dmGroupIdByMembers = (db: Db, memberIds: readonly number[]) =>
  stmt<[string], { id: number }>(db, 'SELECT id FROM dm_groups WHERE member_key = ?').get(
    memberKey(memberIds),
  )?.id;
