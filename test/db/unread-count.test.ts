import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { dmGroupFor } from '../../server/db/queries/dm-groups.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { unreadCount } from '../../server/db/queries/unread.js';
import { insertUser } from '../../server/db/queries/users.js';
import { defaultFlags, Flag } from '../../server/shared/flags.js';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** The definition the fast query must agree with: every received message, one by one. */
function bruteForceUnread(db: Database.Database, userId: number): number {
  const messages = db
    .prepare('SELECT id, sender_id, stream_id, dm_group_id FROM messages')
    .all() as {
    id: number;
    sender_id: number;
    stream_id: number | null;
    dm_group_id: number | null;
  }[];
  let count = 0;
  for (const m of messages) {
    let readThrough: number | undefined;
    if (m.stream_id !== null) {
      const sub = db
        .prepare(
          'SELECT read_through FROM subscriptions WHERE stream_id = ? AND user_id = ? AND active = 1',
        )
        .get(m.stream_id, userId) as { read_through: number } | undefined;
      readThrough = sub?.read_through;
    } else {
      const member = db
        .prepare('SELECT read_through FROM dm_group_members WHERE dm_group_id = ? AND user_id = ?')
        .get(m.dm_group_id, userId) as { read_through: number } | undefined;
      readThrough = member?.read_through;
    }
    if (readThrough === undefined) continue;
    const row = db
      .prepare('SELECT flags FROM user_message_flags WHERE user_id = ? AND message_id = ?')
      .get(userId, m.id) as { flags: number } | undefined;
    const flags = row ? row.flags : defaultFlags(m.id, m.sender_id, userId, readThrough);
    if (!(flags & Flag.read)) count++;
  }
  return count;
}

describe('unreadCount', () => {
  it('agrees with the per-message definition over random histories', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = rng(seed);
      const db = new Database(':memory:');
      migrate(db);
      const users = Array.from({ length: 6 }, (_, i) =>
        insertUser(db, {
          delivery_email: `u${i}@x.test`,
          full_name: `U${i}`,
          role: 400,
          is_bot: false,
          bot_type: null,
          bot_owner_id: null,
          api_key: `k${i}`.padEnd(32, '0'),
          password_hash: null,
          date_joined_ms: 0,
        }),
      );
      const streams = [0, 1, 2].map((i) =>
        insertStream(db, {
          name: `s${i}`,
          description: '',
          rendered_description: '',
          invite_only: false,
          is_web_public: false,
          history_public_to_subscribers: true,
          date_created: 0,
          creator_id: null,
        }),
      );
      const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
      for (let step = 0; step < 300; step++) {
        const r = random();
        if (r < 0.1) {
          insertSubscription(db, pick(streams), pick(users), '#000000');
        } else if (r < 0.15) {
          db.prepare('UPDATE subscriptions SET active = 0 WHERE stream_id = ? AND user_id = ?').run(
            pick(streams),
            pick(users),
          );
        } else if (r < 0.7) {
          const isDm = random() < 0.3;
          const sender = pick(users);
          const id = insertMessage(db, {
            sender_id: sender,
            stream_id: isDm ? null : pick(streams),
            dm_group_id: isDm ? dmGroupFor(db, [sender, pick(users)]) : null,
            topic: isDm ? '' : 't',
            content: 'x',
            rendered_content: '<p>x</p>',
            date_sent: 0,
            sending_client: 'test',
          });
          if (random() < 0.3) {
            db.prepare('INSERT OR REPLACE INTO user_message_flags VALUES (?, ?, ?)').run(
              pick(users),
              id,
              random() < 0.5 ? Flag.mentioned : Flag.mentioned | Flag.read,
            );
          }
        } else if (r < 0.85) {
          // Move a watermark somewhere (up or down), as marking read/unread may.
          const max =
            (db.prepare('SELECT max(id) AS m FROM messages').get() as { m: number | null }).m ?? 0;
          db.prepare('UPDATE subscriptions SET read_through = ? WHERE user_id = ?').run(
            Math.floor(random() * (max + 1)),
            pick(users),
          );
          db.prepare('UPDATE dm_group_members SET read_through = ? WHERE user_id = ?').run(
            Math.floor(random() * (max + 1)),
            pick(users),
          );
        } else {
          const max =
            (db.prepare('SELECT max(id) AS m FROM messages').get() as { m: number | null }).m ?? 0;
          if (max > 0) {
            db.prepare('INSERT OR REPLACE INTO user_message_flags VALUES (?, ?, ?)').run(
              pick(users),
              1 + Math.floor(random() * max),
              random() < 0.5 ? 0 : Flag.read | Flag.starred,
            );
          }
        }
      }
      for (const user of users) {
        expect(unreadCount(db, user), `seed ${seed}, user ${user}`).toBe(
          bruteForceUnread(db, user),
        );
      }
      db.close();
    }
  });
});
