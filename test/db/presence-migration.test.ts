import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { initialSchema } from '../../server/db/migrations/0001-initial-schema.js';
import { presenceUpdateId } from '../../server/db/migrations/0002-presence-update-id.js';
import { migrations } from '../../server/db/migrations/index.js';
import { nextPresenceUpdateId } from '../../server/db/queries/presence.js';

/** A database as Hearth left it before presence update ids: version 1, with data. */
function versionOneDatabase(presenceUserIds: number[]): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  initialSchema.up(db);
  db.pragma('user_version = 1');
  const addUser = db.prepare(
    `INSERT INTO users (id, delivery_email, email_key, full_name, api_key, date_joined_ms)
     VALUES (?, ?, ?, ?, ?, 0)`,
  );
  const addPresence = db.prepare(
    'INSERT INTO user_presence (user_id, last_active_time, last_connected_time) VALUES (?, ?, ?)',
  );
  for (const id of presenceUserIds) {
    addUser.run(id, `u${id}@x.y`, `u${id}@x.y`, `U${id}`, `key${id}`);
    addPresence.run(id, 1000 + id, 2000 + id);
  }
  return db;
}

describe('migration 2: presence update ids', () => {
  it('is registered right after the initial schema', () => {
    expect(migrations[1]).toBe(presenceUpdateId);
    expect(presenceUpdateId.version).toBe(2);
  });

  it('numbers existing presence rows distinctly, keeps their times, and starts the counter above them', () => {
    const db = versionOneDatabase([3, 7, 12]);
    expect(migrate(db)).toEqual({ from: 1, to: migrations[migrations.length - 1]!.version });
    const rows = db
      .prepare(
        'SELECT user_id, last_active_time, last_connected_time, last_update_id FROM user_presence ORDER BY user_id',
      )
      .all() as Array<Record<string, number>>;
    expect(rows).toEqual([
      { user_id: 3, last_active_time: 1003, last_connected_time: 2003, last_update_id: 3 },
      { user_id: 7, last_active_time: 1007, last_connected_time: 2007, last_update_id: 7 },
      { user_id: 12, last_active_time: 1012, last_connected_time: 2012, last_update_id: 12 },
    ]);
    expect(nextPresenceUpdateId(db)).toBe(13);
    expect(nextPresenceUpdateId(db)).toBe(14);
    // Incremental fetches read by update id through an index.
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT user_id FROM user_presence WHERE last_update_id > ?')
      .all(5) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/user_presence_by_update_id/);
    db.close();
  });

  it('starts the counter at zero on a database without presence data', () => {
    const db = versionOneDatabase([]);
    migrate(db);
    expect(nextPresenceUpdateId(db)).toBe(1);
    // One counter row, ever.
    expect(() => db.prepare('INSERT INTO presence_sequence VALUES (2, 0)').run()).toThrow(
      /CHECK constraint/,
    );
    db.close();
  });
});
