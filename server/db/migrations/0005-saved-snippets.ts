import type { Migration } from './index.js';

/**
 * `saved_snippets`: reusable message texts a user keeps for composing
 * (feature level 297). Private to their owner; ids are never reused
 * (AUTOINCREMENT), since clients keep them.
 */
export const savedSnippets: Migration = {
  version: 5,
  name: 'saved snippets',
  up(db) {
    db.exec(`
      CREATE TABLE saved_snippets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id),
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        date_created INTEGER NOT NULL
      );
      CREATE INDEX saved_snippets_by_user ON saved_snippets(user_id, id);
    `);
  },
};
