import type { Migration } from './index.js';

/**
 * Incremental presence fetches (POST /users/me/presence with last_update_id):
 * every write to a user's presence row takes the next value of one
 * organization-wide counter, so a client asks for "rows changed after N".
 * The counter lives in its own row rather than being MAX(last_update_id),
 * so it never goes back even if presence rows are removed.
 *
 * Rows that exist already are numbered by user id: any distinct ids do,
 * as long as the counter starts above all of them.
 */
export const presenceUpdateId: Migration = {
  version: 2,
  name: 'presence update ids',
  up(db) {
    db.exec(`
      ALTER TABLE user_presence ADD COLUMN last_update_id INTEGER NOT NULL DEFAULT 0;
      UPDATE user_presence SET last_update_id = user_id;
      CREATE INDEX user_presence_by_update_id ON user_presence(last_update_id);

      CREATE TABLE presence_sequence (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_update_id INTEGER NOT NULL
      );
      INSERT INTO presence_sequence (id, last_update_id)
        VALUES (1, COALESCE((SELECT MAX(last_update_id) FROM user_presence), 0));
    `);
  },
};
