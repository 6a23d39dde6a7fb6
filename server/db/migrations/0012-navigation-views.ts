import type { Migration } from './index.js';

/**
 * `navigation_views` (Zulip's NavigationView): each user's pinned or hidden
 * views of the left sidebar, built-in ones (by fragment) and their own
 * named narrows. One row per user and fragment.
 */
export const navigationViews: Migration = {
  version: 12,
  name: 'navigation views',
  up(db) {
    db.exec(`
      CREATE TABLE navigation_views (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id),
        fragment TEXT NOT NULL,
        is_pinned INTEGER NOT NULL DEFAULT 0,
        name TEXT,
        UNIQUE (user_id, fragment)
      );
    `);
  },
};
