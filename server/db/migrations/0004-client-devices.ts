import type { Migration } from './index.js';

/**
 * Two small additions, one per area that needed them:
 *
 * - `client_devices`: logged-in client devices (POST /register_client_device,
 *   feature level 468). The mobile apps register one at every account load
 *   and remove it at logout. Ids are never reused (AUTOINCREMENT): a client
 *   keeps the id it was given, and a recycled one would name another device.
 *   Only the row is kept; Hearth has no push notification service, so the
 *   end-to-end-encrypted push registration Zulip attaches to a device is
 *   refused and nothing of it is stored.
 *
 * - `bot_storage.size`: each entry's size as Zulip counts it (characters of
 *   key plus value), so the per-bot limit is a SUM and not a scan of every
 *   value. SQLite's length() stops at a NUL character, so the server computes
 *   the size when it writes; rows already there are counted by length().
 */
export const clientDevices: Migration = {
  version: 4,
  name: 'client devices, bot storage sizes',
  up(db) {
    db.exec(`
      CREATE TABLE client_devices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id),
        date_created INTEGER NOT NULL
      );
      CREATE INDEX client_devices_by_user ON client_devices(user_id, id);

      ALTER TABLE bot_storage ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
      UPDATE bot_storage SET size = length(key) + length(value);
    `);
  },
};
