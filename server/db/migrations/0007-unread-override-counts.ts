import type { Migration } from './index.js';

/**
 * Per user and conversation, two counts over the sparse flag rows that the
 * unread count needs (db/DESIGN.md, "Unread counts"), kept exact by triggers
 * so that no writer has to remember them and counting never scans a user's
 * rows: a user with 43,000 unread mentions made the count take 17–45 ms.
 *
 * - unread_rows: rows without `read`.
 * - rows_above_watermark: rows on others' messages above the user's
 *   watermark in that conversation (0 while the user has none there).
 *
 * A channel conversation has dm_group_id 0, a direct one stream_id 0. Rows
 * change through INSERT and ON CONFLICT DO UPDATE (never INSERT OR REPLACE,
 * whose implicit delete fires no trigger); membership keys never change,
 * only their watermarks.
 */

/** The user's watermark in message `m`'s conversation; NULL when not a member. */
const watermark = (user: string, m: string) => `CASE WHEN ${m}.stream_id IS NOT NULL
    THEN (SELECT s.read_through FROM subscriptions s WHERE s.stream_id = ${m}.stream_id AND s.user_id = ${user})
    ELSE (SELECT g.read_through FROM dm_group_members g WHERE g.dm_group_id = ${m}.dm_group_id AND g.user_id = ${user}) END`;

/** 1 when a row of `user` on message `m` lies above the watermark, else 0. */
const aboveWatermark = (user: string, m: string) =>
  `coalesce(${m}.sender_id <> ${user} AND ${m}.id > (${watermark(user, m)}), 0)`;

const isUnread = (flags: string) => `((${flags} & 1) = 0)`;

/** Adds the selected deltas to the counts, creating rows as needed. */
const addCounts = (select: string) => `
  INSERT INTO unread_override_counts (user_id, stream_id, dm_group_id, unread_rows, rows_above_watermark)
  ${select}
  ON CONFLICT DO UPDATE SET
    unread_rows = unread_rows + excluded.unread_rows,
    rows_above_watermark = rows_above_watermark + excluded.rows_above_watermark;`;

/** One flag row's contribution, negated with sign -1. */
const flagRow = (row: 'new' | 'old', sign: 1 | -1) =>
  addCounts(`SELECT ${row}.user_id, coalesce(m.stream_id, 0), coalesce(m.dm_group_id, 0),
      ${sign} * ${isUnread(`${row}.flags`)}, ${sign} * ${aboveWatermark(`${row}.user_id`, 'm')}
    FROM messages m WHERE m.id = ${row}.message_id`);

/** Every flag row of message `m` (old or new image of the messages row). */
const messageRows = (m: 'new' | 'old', sign: 1 | -1) =>
  addCounts(`SELECT f.user_id, coalesce(${m}.stream_id, 0), coalesce(${m}.dm_group_id, 0),
      ${sign} * ${isUnread('f.flags')}, ${sign} * ${aboveWatermark('f.user_id', m)}
    FROM user_message_flags f WHERE f.message_id = ${m}.id`);

/**
 * Rows of a member on others' messages of the conversation in the id range
 * (low, high], added with `sign` to rows_above_watermark.
 */
function membershipRange(
  kind: 'stream' | 'dm_group',
  row: 'new' | 'old',
  sign: string,
  low: string,
  high: string | null,
): string {
  const conversation = kind === 'stream' ? `${row}.stream_id, 0` : `0, ${row}.dm_group_id`;
  return addCounts(`SELECT ${row}.user_id, ${conversation}, 0, ${sign} * count(*)
    FROM user_message_flags f JOIN messages m ON m.id = f.message_id
    WHERE f.user_id = ${row}.user_id AND f.message_id > ${low}
      ${high === null ? '' : `AND f.message_id <= ${high}`}
      AND m.${kind}_id = ${row}.${kind}_id AND m.sender_id <> ${row}.user_id`);
}

function membershipTriggers(table: string, kind: 'stream' | 'dm_group'): string {
  return `
    CREATE TRIGGER ${table}_unread_joined AFTER INSERT ON ${table} BEGIN
      ${membershipRange(kind, 'new', '1', 'new.read_through', null)}
    END;
    CREATE TRIGGER ${table}_unread_left AFTER DELETE ON ${table} BEGIN
      ${membershipRange(kind, 'old', '-1', 'old.read_through', null)}
    END;
    CREATE TRIGGER ${table}_unread_watermark AFTER UPDATE OF read_through ON ${table}
      WHEN old.read_through <> new.read_through BEGIN
      ${membershipRange(
        kind,
        'new',
        'CASE WHEN new.read_through > old.read_through THEN -1 ELSE 1 END',
        'min(old.read_through, new.read_through)',
        'max(old.read_through, new.read_through)',
      )}
    END;`;
}

export const unreadOverrideCounts: Migration = {
  version: 7,
  name: 'unread override counts',
  up(db) {
    db.exec(`
      CREATE TABLE unread_override_counts (
        user_id INTEGER NOT NULL,
        stream_id INTEGER NOT NULL,
        dm_group_id INTEGER NOT NULL,
        unread_rows INTEGER NOT NULL,
        rows_above_watermark INTEGER NOT NULL,
        PRIMARY KEY (user_id, stream_id, dm_group_id)
      ) WITHOUT ROWID;

      INSERT INTO unread_override_counts
      SELECT f.user_id, coalesce(m.stream_id, 0), coalesce(m.dm_group_id, 0),
             sum(${isUnread('f.flags')}), sum(${aboveWatermark('f.user_id', 'm')})
        FROM user_message_flags f JOIN messages m ON m.id = f.message_id
       GROUP BY 1, 2, 3;

      CREATE TRIGGER user_message_flags_unread_added AFTER INSERT ON user_message_flags BEGIN
        ${flagRow('new', 1)}
      END;
      CREATE TRIGGER user_message_flags_unread_removed AFTER DELETE ON user_message_flags BEGIN
        ${flagRow('old', -1)}
      END;
      CREATE TRIGGER user_message_flags_unread_changed AFTER UPDATE ON user_message_flags
        WHEN old.user_id <> new.user_id OR old.message_id <> new.message_id
          OR (old.flags & 1) <> (new.flags & 1) BEGIN
        ${flagRow('old', -1)}
        ${flagRow('new', 1)}
      END;

      -- Moving a message takes its rows to the other conversation's counts.
      CREATE TRIGGER messages_unread_moved AFTER UPDATE OF stream_id, dm_group_id ON messages
        WHEN old.stream_id IS NOT new.stream_id OR old.dm_group_id IS NOT new.dm_group_id BEGIN
        ${messageRows('old', -1)}
        ${messageRows('new', 1)}
      END;
      CREATE TRIGGER messages_unread_deleted BEFORE DELETE ON messages BEGIN
        ${messageRows('old', -1)}
      END;
      ${membershipTriggers('subscriptions', 'stream')}
      ${membershipTriggers('dm_group_members', 'dm_group')}
    `);
  },
};
