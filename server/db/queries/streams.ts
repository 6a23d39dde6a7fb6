import type { Db } from '../open.js';
import { stmt, stmtPluck } from '../prepared.js';

export interface StreamRow {
  id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  message_retention_days: number | null;
  date_created: number;
  creator_id: number | null;
  is_archived: number;
  first_message_id: number | null;
  folder_id: number | null;
  topics_policy: string;
  is_recently_active: number;
  permissions: string;
}

export interface SubscriptionRow {
  stream_id: number;
  user_id: number;
  active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
  read_through: number;
}

export interface NewStream {
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  date_created: number;
  creator_id: number | null;
  message_retention_days?: number | null;
  topics_policy?: string;
  permissions?: string;
}

export const streamById = (db: Db, id: number) =>
  stmt<[number], StreamRow>(db, 'SELECT * FROM streams WHERE id = ?').get(id);

/** How channel names compare, as Zulip's do: case-insensitively (the `name_key` column). */
export const channelNameKey = (name: string) => name.toLowerCase();

export const streamByName = (db: Db, name: string) =>
  stmt<[string], StreamRow>(db, 'SELECT * FROM streams WHERE name_key = ?').get(
    channelNameKey(name),
  );

export const allStreams = (db: Db) =>
  stmt<[], StreamRow>(db, 'SELECT * FROM streams ORDER BY name_key').all();

export function insertStream(db: Db, s: NewStream): number {
  return Number(
    stmt(
      db,
      `INSERT INTO streams (name, name_key, description, rendered_description, invite_only, is_web_public,
         history_public_to_subscribers, date_created, creator_id, message_retention_days, topics_policy, permissions)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      s.name,
      channelNameKey(s.name),
      s.description,
      s.rendered_description,
      s.invite_only ? 1 : 0,
      s.is_web_public ? 1 : 0,
      s.history_public_to_subscribers ? 1 : 0,
      s.date_created,
      s.creator_id,
      s.message_retention_days ?? null,
      s.topics_policy ?? 'inherit',
      s.permissions ?? '{}',
    ).lastInsertRowid,
  );
}

/** The id the next message will get (AUTOINCREMENT never reuses ids). */
export const nextMessageId = (db: Db) =>
  (stmt<[], { seq: number }>(db, "SELECT seq FROM sqlite_sequence WHERE name = 'messages'").get()
    ?.seq ?? 0) + 1;

/**
 * Subscribes (or resubscribes): earlier history reads as read and a new
 * subscription period starts at the next message id (db/DESIGN.md).
 */
export function insertSubscription(db: Db, streamId: number, userId: number, color: string): void {
  const next = nextMessageId(db);
  stmt(
    db,
    `INSERT INTO subscriptions (stream_id, user_id, active, color, read_through) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT (stream_id, user_id) DO UPDATE SET active = 1, read_through = max(read_through, excluded.read_through)`,
  ).run(streamId, userId, color, next - 1);
  // Unsubscribing and resubscribing with no message in between meets the
  // (empty) period just closed: reopen it rather than leave it closed.
  stmt(
    db,
    `INSERT INTO subscription_periods (user_id, stream_id, first_message_id) VALUES (?, ?, ?)
     ON CONFLICT (user_id, stream_id, first_message_id) DO UPDATE SET last_message_id = NULL`,
  ).run(userId, streamId, next);
}

/** Ends the subscription: the period closes and the channel counts as read. */
export function deactivateSubscription(db: Db, streamId: number, userId: number): void {
  const last = nextMessageId(db) - 1;
  stmt(
    db,
    'UPDATE subscriptions SET active = 0, read_through = max(read_through, ?) WHERE stream_id = ? AND user_id = ?',
  ).run(last, streamId, userId);
  stmt(
    db,
    'UPDATE subscription_periods SET last_message_id = ? WHERE user_id = ? AND stream_id = ? AND last_message_id IS NULL',
  ).run(last, userId, streamId);
}

export const subscriptionOf = (db: Db, streamId: number, userId: number) =>
  stmt<[number, number], SubscriptionRow>(
    db,
    'SELECT * FROM subscriptions WHERE stream_id = ? AND user_id = ?',
  ).get(streamId, userId);

export const subscriptionsOfUser = (db: Db, userId: number) =>
  stmt<[number], SubscriptionRow>(db, 'SELECT * FROM subscriptions WHERE user_id = ?').all(userId);

/** Active subscribers who are active users. */
/** Every send reads this list, so it comes back as plain ids. */
export const subscriberIds = (db: Db, streamId: number) =>
  stmtPluck<[number], number>(
    db,
    `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
      WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id`,
  ).all(streamId);

export const subscriberCount = (db: Db, streamId: number) =>
  stmt<[number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
      WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1`,
  ).get(streamId)!.n;

/** subscriberCount of every channel with any subscriber, in one query. */
export const subscriberCounts = (db: Db): Map<number, number> =>
  new Map(
    stmt<[], { stream_id: number; n: number }>(
      db,
      `SELECT s.stream_id, count(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.active = 1 AND u.is_active = 1 GROUP BY s.stream_id`,
    )
      .all()
      .map((r) => [r.stream_id, r.n]),
  );

export const setStreamFirstMessageId = (db: Db, streamId: number, messageId: number | null) =>
  stmt(db, 'UPDATE streams SET first_message_id = ? WHERE id = ?').run(messageId, streamId);

export const subscribedStreamIds = (db: Db, userId: number) =>
  stmt<[number], { stream_id: number }>(
    db,
    'SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id',
  )
    .all(userId)
    .map((r) => r.stream_id);

/** Every channel's active subscribers who are active users, by channel id. */
export function subscribersByStream(db: Db): Map<number, number[]> {
  // One row per channel and no join: a 30,000-subscription organization
  // costs 200 rows to JavaScript rather than 30,000 (five times faster);
  // the few deactivated users are dropped here instead.
  const inactive = new Set(
    stmtPluck<[], number>(db, 'SELECT id FROM users WHERE is_active = 0').all(),
  );
  const rows = stmt<[], { stream_id: number; ids: string }>(
    db,
    `SELECT stream_id, group_concat(user_id) AS ids FROM subscriptions
      WHERE active = 1 GROUP BY stream_id`,
  ).all();
  const byStream = new Map<number, number[]>();
  for (const row of rows) {
    const ids = row.ids.split(',').map(Number);
    const active = inactive.size > 0 ? ids.filter((id) => !inactive.has(id)) : ids;
    if (active.length > 0)
      byStream.set(
        row.stream_id,
        active.sort((a, b) => a - b),
      );
  }
  return byStream;
}

export const renameStream = (db: Db, streamId: number, name: string) =>
  stmt(db, 'UPDATE streams SET name = ?, name_key = ? WHERE id = ?').run(
    name,
    channelNameKey(name),
    streamId,
  );

export const setStreamDescription = (
  db: Db,
  streamId: number,
  description: string,
  renderedDescription: string,
) =>
  stmt(db, 'UPDATE streams SET description = ?, rendered_description = ? WHERE id = ?').run(
    description,
    renderedDescription,
    streamId,
  );

export const setStreamPrivacy = (
  db: Db,
  streamId: number,
  privacy: { inviteOnly: boolean; historyPublicToSubscribers: boolean; isWebPublic: boolean },
) =>
  stmt(
    db,
    'UPDATE streams SET invite_only = ?, history_public_to_subscribers = ?, is_web_public = ? WHERE id = ?',
  ).run(
    privacy.inviteOnly ? 1 : 0,
    privacy.historyPublicToSubscribers ? 1 : 0,
    privacy.isWebPublic ? 1 : 0,
    streamId,
  );

export const setStreamArchived = (db: Db, streamId: number, archived: boolean) =>
  stmt(db, 'UPDATE streams SET is_archived = ? WHERE id = ?').run(archived ? 1 : 0, streamId);

export const setStreamPermissions = (db: Db, streamId: number, permissionsJson: string) =>
  stmt(db, 'UPDATE streams SET permissions = ? WHERE id = ?').run(permissionsJson, streamId);

export const setStreamTopicsPolicy = (db: Db, streamId: number, policy: string) =>
  stmt(db, 'UPDATE streams SET topics_policy = ? WHERE id = ?').run(policy, streamId);

export const setStreamRetentionDays = (db: Db, streamId: number, days: number | null) =>
  stmt(db, 'UPDATE streams SET message_retention_days = ? WHERE id = ?').run(days, streamId);

/** The per-user subscription settings that POST /users/me/subscriptions/properties may change. */
export type SubscriptionSettingColumn =
  | 'color'
  | 'is_muted'
  | 'pin_to_top'
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

export const setSubscriptionSetting = (
  db: Db,
  streamId: number,
  userId: number,
  column: SubscriptionSettingColumn,
  value: string | number,
) =>
  // The column comes from the closed union above, never from the request.
  stmt(db, `UPDATE subscriptions SET ${column} = ? WHERE stream_id = ? AND user_id = ?`).run(
    value,
    streamId,
    userId,
  );

/** Active subscriptions of the channel, deactivated users included. */
export const activeSubscriptionCount = (db: Db, streamId: number) =>
  stmt<[number], { n: number }>(
    db,
    'SELECT count(*) AS n FROM subscriptions WHERE stream_id = ? AND active = 1',
  ).get(streamId)!.n;
