import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface NewStream {
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  date_created: number;
  creator_id: number | null;
}

export function insertStream(db: Db, s: NewStream): number {
  return Number(
    stmt(
      db,
      `INSERT INTO streams (name, name_key, description, rendered_description, invite_only, is_web_public,
         history_public_to_subscribers, date_created, creator_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      s.name,
      s.name.toLowerCase(),
      s.description,
      s.rendered_description,
      s.invite_only ? 1 : 0,
      s.is_web_public ? 1 : 0,
      s.history_public_to_subscribers ? 1 : 0,
      s.date_created,
      s.creator_id,
    ).lastInsertRowid,
  );
}

/** Subscribes (or resubscribes) and opens a subscription period at the next message id. */
export function insertSubscription(db: Db, streamId: number, userId: number, color: string): void {
  const next =
    stmt<[], { id: number | null }>(
      db,
      "SELECT seq AS id FROM sqlite_sequence WHERE name = 'messages'",
    ).get()?.id ?? 0;
  stmt(
    db,
    `INSERT INTO subscriptions (stream_id, user_id, active, color, read_through) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT (stream_id, user_id) DO UPDATE SET active = 1, read_through = max(read_through, excluded.read_through)`,
  ).run(streamId, userId, color, next);
  stmt(
    db,
    'INSERT OR IGNORE INTO subscription_periods (user_id, stream_id, first_message_id) VALUES (?, ?, ?)',
  ).run(userId, streamId, next + 1);
}
