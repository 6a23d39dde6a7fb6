import type { Migration } from './index.js';

/**
 * What bounded search needs (db/DESIGN.md, "Search"):
 *
 * - One small partial index per `has:` column, so `has:link` (or image,
 *   attachment) walks only the messages that have one, newest first, instead
 *   of every message: a link in one message in 1,000 cost 300 ms p50.
 * - `messages_fts_terms`, FTS5's vocabulary of the search index, so a
 *   search's prefix (the last word "matches as you type") can be expanded
 *   into the few indexed words that start with it: FTS5 answers a prefix
 *   query by merging every match of every such word before returning the
 *   first, while an OR of whole words is read newest first and lazily.
 */
export const searchIndexes: Migration = {
  version: 8,
  name: 'search indexes',
  up(db) {
    db.exec(`
      CREATE INDEX messages_with_link ON messages(id) WHERE has_link = 1;
      CREATE INDEX messages_with_image ON messages(id) WHERE has_image = 1;
      CREATE INDEX messages_with_attachment ON messages(id) WHERE has_attachment = 1;
      CREATE VIRTUAL TABLE messages_fts_terms USING fts5vocab(messages_fts, row);
    `);
  },
};
