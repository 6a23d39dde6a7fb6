import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** The user's override rows for these messages (see db/DESIGN.md). */
export function flagRows(
  db: Db,
  userId: number,
  messageIds: readonly number[],
): Map<number, number> {
  // IN (subquery), not a join on json_each: the planner would otherwise scan
  // all of the user's rows once per id.
  const rows = stmt<[number, string], { message_id: number; flags: number }>(
    db,
    `SELECT message_id, flags FROM user_message_flags
      WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))`,
  ).all(userId, JSON.stringify(messageIds));
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

export const setFlagRow = (db: Db, userId: number, messageId: number, flags: number) =>
  stmt(
    db,
    'INSERT INTO user_message_flags (user_id, message_id, flags) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET flags = excluded.flags',
  ).run(userId, messageId, flags);

export const deleteFlagRow = (db: Db, userId: number, messageId: number) =>
  stmt(db, 'DELETE FROM user_message_flags WHERE user_id = ? AND message_id = ?').run(
    userId,
    messageId,
  );

/** Read watermarks of all the user's channel subscriptions (active or not). */
export function channelWatermarks(
  db: Db,
  userId: number,
): Map<number, { readThrough: number; active: boolean }> {
  const rows = stmt<[number], { stream_id: number; read_through: number; active: number }>(
    db,
    'SELECT stream_id, read_through, active FROM subscriptions WHERE user_id = ?',
  ).all(userId);
  return new Map(
    rows.map((r) => [r.stream_id, { readThrough: r.read_through, active: r.active === 1 }]),
  );
}

export function dmWatermarks(db: Db, userId: number): Map<number, number> {
  const rows = stmt<[number], { dm_group_id: number; read_through: number }>(
    db,
    'SELECT dm_group_id, read_through FROM dm_group_members WHERE user_id = ?',
  ).all(userId);
  return new Map(rows.map((r) => [r.dm_group_id, r.read_through]));
}

/** The user's subscription periods per channel: [first, last] message ids (last null = open). */
export function subscriptionPeriods(
  db: Db,
  userId: number,
): Map<number, Array<[number, number | null]>> {
  const rows = stmt<
    [number],
    { stream_id: number; first_message_id: number; last_message_id: number | null }
  >(
    db,
    'SELECT stream_id, first_message_id, last_message_id FROM subscription_periods WHERE user_id = ? ORDER BY first_message_id',
  ).all(userId);
  const map = new Map<number, Array<[number, number | null]>>();
  for (const r of rows) {
    let list = map.get(r.stream_id);
    if (!list) {
      list = [];
      map.set(r.stream_id, list);
    }
    list.push([r.first_message_id, r.last_message_id]);
  }
  return map;
}

/**
 * A conversation whose read state has one watermark: a channel (for one
 * subscriber) or a direct-message group (for one member).
 */
export type Conversation = { kind: 'channel'; id: number } | { kind: 'dm'; id: number };

export function conversationOf(m: {
  stream_id: number | null;
  dm_group_id: number | null;
}): Conversation {
  return m.stream_id !== null
    ? { kind: 'channel', id: m.stream_id }
    : { kind: 'dm', id: m.dm_group_id! };
}

/** The watermark, or undefined when the user has no active part in the conversation. */
export function readThroughOf(db: Db, userId: number, c: Conversation): number | undefined {
  const row =
    c.kind === 'channel'
      ? stmt<[number, number], { w: number }>(
          db,
          'SELECT read_through AS w FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1',
        ).get(userId, c.id)
      : stmt<[number, number], { w: number }>(
          db,
          'SELECT read_through AS w FROM dm_group_members WHERE user_id = ? AND dm_group_id = ?',
        ).get(userId, c.id);
  return row?.w;
}

export function setReadThrough(db: Db, userId: number, c: Conversation, readThrough: number): void {
  if (c.kind === 'channel') {
    stmt(db, 'UPDATE subscriptions SET read_through = ? WHERE user_id = ? AND stream_id = ?').run(
      readThrough,
      userId,
      c.id,
    );
  } else {
    stmt(
      db,
      'UPDATE dm_group_members SET read_through = ? WHERE user_id = ? AND dm_group_id = ?',
    ).run(readThrough, userId, c.id);
  }
}

/** The newest message id of the conversation (undefined when it has none). */
export function newestMessageIdIn(db: Db, c: Conversation): number | undefined {
  const row =
    c.kind === 'channel'
      ? stmt<[number], { id: number | null }>(
          db,
          'SELECT max(id) AS id FROM messages WHERE stream_id = ?',
        ).get(c.id)
      : stmt<[number], { id: number | null }>(
          db,
          'SELECT max(id) AS id FROM messages WHERE dm_group_id = ?',
        ).get(c.id);
  return row?.id ?? undefined;
}

/**
 * The oldest message above `readThrough` that is unread for the user: one
 * from someone else without an override row, or one whose row lacks `read`.
 * Walks only the read-out-of-order messages above the watermark.
 */
export function oldestUnreadAbove(
  db: Db,
  userId: number,
  c: Conversation,
  readThrough: number,
): number | undefined {
  const column = c.kind === 'channel' ? 'stream_id' : 'dm_group_id';
  return stmt<[{ user: number; conversation: number; after: number }], { id: number }>(
    db,
    `SELECT m.id FROM messages m
       LEFT JOIN user_message_flags f ON f.user_id = @user AND f.message_id = m.id
      WHERE m.${column} = @conversation AND m.id > @after
        AND CASE WHEN f.flags IS NULL THEN m.sender_id <> @user ELSE (f.flags & 1) = 0 END
      ORDER BY m.id LIMIT 1`,
  ).get({ user: userId, conversation: c.id, after: readThrough })?.id;
}

/**
 * Deletes the user's rows in (after, through] of the conversation that say
 * only "read": below a watermark that is the default.
 */
export function deletePlainReadRows(
  db: Db,
  userId: number,
  c: Conversation,
  after: number,
  through: number,
): void {
  const column = c.kind === 'channel' ? 'stream_id' : 'dm_group_id';
  stmt<[{ user: number; conversation: number; after: number; through: number }]>(
    db,
    `DELETE FROM user_message_flags
      WHERE user_id = @user AND message_id > @after AND message_id <= @through AND flags = 1
        AND EXISTS (SELECT 1 FROM messages m WHERE m.id = message_id AND m.${column} = @conversation)`,
  ).run({ user: userId, conversation: c.id, after, through });
}

/**
 * Ids of the user's unread messages in the conversation (optionally one
 * topic of a channel), ascending: others' messages above the watermark
 * without a row, plus rows without `read`.
 */
export function unreadIdsIn(
  db: Db,
  userId: number,
  c: Conversation,
  readThrough: number,
  topicKey: string | null = null,
): number[] {
  const column = c.kind === 'channel' ? 'stream_id' : 'dm_group_id';
  return stmt<
    [{ user: number; conversation: number; after: number; topic: string | null }],
    { id: number }
  >(
    db,
    `SELECT m.id FROM messages m
       LEFT JOIN user_message_flags f ON f.user_id = @user AND f.message_id = m.id
      WHERE m.${column} = @conversation AND m.id > @after AND f.message_id IS NULL
        AND m.sender_id <> @user AND (@topic IS NULL OR m.topic_key = @topic)
     UNION ALL
     SELECT f.message_id FROM user_message_flags f INDEXED BY user_message_flags_unread
       JOIN messages m ON m.id = f.message_id
      WHERE f.user_id = @user AND (f.flags & 1) = 0 AND m.${column} = @conversation
        AND (@topic IS NULL OR m.topic_key = @topic)
     ORDER BY 1`,
  )
    .all({ user: userId, conversation: c.id, after: readThrough, topic: topicKey })
    .map((r) => r.id);
}

/** Ids of the user's starred messages, ascending (Zulip caps the list at 10,000). */
export const starredMessageIds = (db: Db, userId: number, limit = 10_000) =>
  stmt<[number, number], { message_id: number }>(
    db,
    'SELECT message_id FROM user_message_flags WHERE user_id = ? AND (flags & 2) <> 0 ORDER BY message_id LIMIT ?',
  )
    .all(userId, limit)
    .map((r) => r.message_id);

/**
 * The newest message the user received or has a row for (Zulip: the newest
 * UserMessage), or -1.
 */
export const newestReceivedMessageId = (db: Db, userId: number) =>
  stmt<[{ user: number }], { id: number | null }>(
    db,
    `SELECT max(x) AS id FROM (
       SELECT max(message_id) AS x FROM user_message_flags WHERE user_id = @user
       UNION ALL
       SELECT (SELECT max(m.id) FROM messages m WHERE m.dm_group_id = g.dm_group_id)
         FROM dm_group_members g WHERE g.user_id = @user
       UNION ALL
       SELECT (SELECT max(m.id) FROM messages m
                WHERE m.stream_id = p.stream_id AND m.id >= p.first_message_id
                  AND (p.last_message_id IS NULL OR m.id <= p.last_message_id))
         FROM subscription_periods p WHERE p.user_id = @user)`,
  ).get({ user: userId })!.id ?? -1;

/** Zulip's user_message_exists_for_topic: did the user receive (or flag) a message in the topic? */
export const userHasMessageInTopic = (db: Db, userId: number, streamId: number, topicKey: string) =>
  stmt<[{ user: number; stream: number; topic: string }], { x: number }>(
    db,
    `SELECT 1 AS x FROM messages m
      WHERE m.stream_id = @stream AND m.topic_key = @topic
        AND (EXISTS (SELECT 1 FROM subscription_periods p
                      WHERE p.user_id = @user AND p.stream_id = @stream AND m.id >= p.first_message_id
                        AND (p.last_message_id IS NULL OR m.id <= p.last_message_id))
          OR EXISTS (SELECT 1 FROM user_message_flags f WHERE f.user_id = @user AND f.message_id = m.id))
      LIMIT 1`,
  ).get({ user: userId, stream: streamId, topic: topicKey }) !== undefined;

/** The channels and DM groups in which the user has rows without `read`. */
export const conversationsWithUnreadRows = (db: Db, userId: number) =>
  stmt<[number], { stream_id: number | null; dm_group_id: number | null }>(
    db,
    `SELECT DISTINCT m.stream_id, m.dm_group_id
       FROM user_message_flags f INDEXED BY user_message_flags_unread
       JOIN messages m ON m.id = f.message_id
      WHERE f.user_id = ? AND (f.flags & 1) = 0`,
  ).all(userId);

/**
 * Who has read a message, by the same default-plus-override rule as the
 * FlagReader but for all users at once: an override row with `read`, or
 * (without a row) having received the message at or below one's watermark.
 * Only active users who share read receipts, are not `excludeUserId`, and
 * neither muted nor were muted by `viewerId` (Zulip's read_receipts view).
 */
export function messageReaders(
  db: Db,
  message: { id: number; stream_id: number | null; dm_group_id: number | null },
  excludeUserId: number,
  viewerId: number,
): number[] {
  const received =
    message.dm_group_id !== null
      ? `SELECT d.user_id FROM dm_group_members d
          WHERE d.dm_group_id = :conversation AND d.read_through >= :message`
      : `SELECT DISTINCT s.user_id FROM subscriptions s
           JOIN subscription_periods p ON p.user_id = s.user_id AND p.stream_id = s.stream_id
          WHERE s.stream_id = :conversation AND p.first_message_id <= :message
            AND (p.last_message_id IS NULL OR p.last_message_id >= :message)
            AND s.read_through >= :message`;
  const rows = stmt<
    [{ message: number; conversation: number; exclude: number; viewer: number }],
    { id: number }
  >(
    db,
    `SELECT u.id FROM users u
      WHERE u.id IN (
              SELECT f.user_id FROM user_message_flags f
               WHERE f.message_id = :message AND (f.flags & 1) = 1
              UNION
              SELECT r.user_id FROM (${received}) r
               WHERE NOT EXISTS (SELECT 1 FROM user_message_flags f
                                  WHERE f.user_id = r.user_id AND f.message_id = :message))
        AND u.is_active = 1 AND u.id != :exclude
        AND coalesce(json_extract(u.settings, '$.send_read_receipts'), 1) != 0
        AND NOT EXISTS (SELECT 1 FROM muted_users m
                         WHERE (m.user_id = u.id AND m.muted_user_id = :viewer)
                            OR (m.user_id = :viewer AND m.muted_user_id = u.id))
      ORDER BY u.id`,
  ).all({
    message: message.id,
    conversation: (message.dm_group_id ?? message.stream_id)!,
    exclude: excludeUserId,
    viewer: viewerId,
  });
  return rows.map((r) => r.id);
}

/** Every override row on messages with ids in [low, high] (an export's batch). */
export const flagRowsForMessages = (db: Db, low: number, high: number) =>
  stmt<[number, number], { user_id: number; message_id: number; flags: number }>(
    db,
    `SELECT user_id, message_id, flags FROM user_message_flags
      WHERE message_id BETWEEN ? AND ? ORDER BY message_id, user_id`,
  ).all(low, high);

/** Users with an override flag row on the message (Zulip's UserMessage rows that differ from the default). */
export const flagRowHolders = (db: Db, messageId: number) =>
  stmt<[number], { user_id: number; flags: number }>(
    db,
    'SELECT user_id, flags FROM user_message_flags WHERE message_id = ?',
  ).all(messageId);

/** Every flag row of a message, when the message itself is deleted. */
export const deleteMessageFlagRows = (db: Db, messageId: number) =>
  stmt(db, 'DELETE FROM user_message_flags WHERE message_id = ?').run(messageId);
