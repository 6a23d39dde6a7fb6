import type { Migration } from './index.js';

/**
 * `realm_exports`: the organization's data exports (POST /export/realm,
 * Zulip's RealmExport). Status 1 requested, 2 started, 3 succeeded,
 * 4 failed, 5 deleted; times are UNIX seconds (floats, as Zulip reports
 * them). The file lives under `<data dir>/exports/`, named by a random
 * token that its download URL carries. Ids are never reused (AUTOINCREMENT):
 * clients keep them.
 */
export const realmExports: Migration = {
  version: 15,
  name: 'realm exports',
  up(db) {
    db.exec(`
      CREATE TABLE realm_exports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        acting_user_id INTEGER NOT NULL REFERENCES users(id),
        export_type INTEGER NOT NULL,
        status INTEGER NOT NULL,
        date_requested REAL NOT NULL,
        date_started REAL,
        date_succeeded REAL,
        date_failed REAL,
        date_deleted REAL,
        token TEXT NOT NULL,
        file_name TEXT,
        failure_reason TEXT
      );
    `);
  },
};
