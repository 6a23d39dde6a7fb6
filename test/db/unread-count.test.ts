import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { latestSchemaVersion, migrate } from '../../server/db/migrate.js';
import { unreadOverrideCounts } from '../../server/db/migrations/0007-unread-override-counts.js';
import { migrations } from '../../server/db/migrations/index.js';
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

type Counts = {
  user_id: number;
  stream_id: number;
  dm_group_id: number;
  unread: number;
  above: number;
}[];

/** unread_override_counts without its zero rows, in key order. */
function storedCounts(db: Database.Database): Counts {
  return db
    .prepare(
      `SELECT user_id, stream_id, dm_group_id, unread_rows AS unread, rows_above_watermark AS above
         FROM unread_override_counts WHERE unread_rows <> 0 OR rows_above_watermark <> 0
        ORDER BY 1, 2, 3`,
    )
    .all() as Counts;
}

/** The same counts from the flag rows themselves, as migration 0007 fills them. */
function recountedCounts(db: Database.Database): Counts {
  return db
    .prepare(
      `SELECT * FROM (
         SELECT f.user_id, coalesce(m.stream_id, 0) AS stream_id, coalesce(m.dm_group_id, 0) AS dm_group_id,
                sum((f.flags & 1) = 0) AS unread,
                sum(coalesce(m.sender_id <> f.user_id AND m.id > CASE WHEN m.stream_id IS NOT NULL
                  THEN (SELECT read_through FROM subscriptions s WHERE s.stream_id = m.stream_id AND s.user_id = f.user_id)
                  ELSE (SELECT read_through FROM dm_group_members g WHERE g.dm_group_id = m.dm_group_id AND g.user_id = f.user_id) END, 0)) AS above
           FROM user_message_flags f JOIN messages m ON m.id = f.message_id
          GROUP BY 1, 2, 3)
        WHERE unread <> 0 OR above <> 0 ORDER BY 1, 2, 3`,
    )
    .all() as Counts;
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
      // The server's writer: an upsert, so the counting triggers see the change.
      const setFlags = db.prepare(
        'INSERT INTO user_message_flags VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET flags = excluded.flags',
      );
      const someMessage = () =>
        db.prepare('SELECT id FROM messages ORDER BY random() LIMIT 1').get() as
          | { id: number }
          | undefined;
      for (let step = 0; step < 400; step++) {
        if (step % 50 === 49) {
          expect(storedCounts(db), `seed ${seed}, step ${step}`).toEqual(recountedCounts(db));
        }
        if (random() < 0.2) {
          // What the triggers must follow besides flag writes: moves between
          // channels, deletions (flags first, as the server does, or not),
          // flag rows removed, memberships removed.
          const message = someMessage();
          const kind = random();
          if (!message) continue;
          if (kind < 0.35) {
            db.prepare(
              'UPDATE messages SET stream_id = ? WHERE id = ? AND stream_id IS NOT NULL',
            ).run(pick(streams), message.id);
          } else if (kind < 0.55) {
            if (random() < 0.5) {
              db.prepare('DELETE FROM user_message_flags WHERE message_id = ?').run(message.id);
            }
            db.prepare('DELETE FROM messages_fts WHERE rowid = ?').run(message.id);
            db.prepare('DELETE FROM messages WHERE id = ?').run(message.id);
          } else if (kind < 0.85) {
            db.prepare('DELETE FROM user_message_flags WHERE user_id = ? AND message_id = ?').run(
              pick(users),
              message.id,
            );
          } else {
            db.prepare('DELETE FROM subscriptions WHERE stream_id = ? AND user_id = ?').run(
              pick(streams),
              pick(users),
            );
          }
          continue;
        }
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
            setFlags.run(
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
            setFlags.run(
              pick(users),
              1 + Math.floor(random() * max),
              random() < 0.5 ? 0 : Flag.read | Flag.starred,
            );
          }
        }
      }
      expect(storedCounts(db), `seed ${seed}`).toEqual(recountedCounts(db));
      for (const user of users) {
        expect(unreadCount(db, user), `seed ${seed}, user ${user}`).toBe(
          bruteForceUnread(db, user),
        );
      }
      db.close();
    }
  });
});

describe('migration 7: unread override counts', () => {
  it('is registered after the upload files', () => {
    expect(migrations[6]).toBe(unreadOverrideCounts);
    expect(unreadOverrideCounts.version).toBe(7);
  });

  it('counts the rows a version 6 database already holds', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const migration of migrations.slice(0, 6)) migration.up(db);
    db.pragma('user_version = 6');
    const user = (i: number) =>
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
      });
    const [reader, sender] = [user(0), user(1)];
    const stream = insertStream(db, {
      name: 's',
      description: '',
      rendered_description: '',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      date_created: 0,
      creator_id: null,
    });
    insertSubscription(db, stream, reader!, '#000000');
    const dm = dmGroupFor(db, [reader!, sender!]);
    const send = (streamId: number | null) =>
      insertMessage(db, {
        sender_id: sender!,
        stream_id: streamId,
        dm_group_id: streamId === null ? dm : null,
        topic: streamId === null ? '' : 't',
        content: 'x',
        rendered_content: '<p>x</p>',
        date_sent: 0,
        sending_client: 'test',
      });
    const ids = [send(stream), send(stream), send(stream), send(null), send(null)];
    // Read through the second channel message: an unread mention below the
    // watermark, a read star above it, an unread direct message row.
    db.prepare('UPDATE subscriptions SET read_through = ? WHERE user_id = ?').run(ids[1], reader);
    const setFlags = db.prepare('INSERT INTO user_message_flags VALUES (?, ?, ?)');
    setFlags.run(reader, ids[0], Flag.mentioned);
    setFlags.run(reader, ids[2], Flag.read | Flag.starred);
    setFlags.run(reader, ids[3], Flag.mentioned);

    expect(migrate(db)).toEqual({ from: 6, to: latestSchemaVersion() });
    expect(storedCounts(db)).toEqual([
      { user_id: reader, stream_id: 0, dm_group_id: dm, unread: 1, above: 1 },
      { user_id: reader, stream_id: stream, dm_group_id: 0, unread: 1, above: 1 },
    ]);
    // The channel mention and both direct messages; the starred one is read.
    expect(unreadCount(db, reader!)).toBe(bruteForceUnread(db, reader!));
    expect(unreadCount(db, reader!)).toBe(3);
    db.close();
  });
});
