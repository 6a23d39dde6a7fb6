import type { Migration } from './index.js';

/**
 * `channel_folders` (Zulip's ChannelFolder): named groups of channels an
 * organization's administrators keep, in their own order; archived rather
 * than deleted. `streams.folder_id` (already in the schema) points here.
 */
export const channelFolders: Migration = {
  version: 11,
  name: 'channel folders',
  up(db) {
    db.exec(`
      CREATE TABLE channel_folders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        rendered_description TEXT NOT NULL DEFAULT '',
        sort_order INTEGER NOT NULL,
        creator_id INTEGER REFERENCES users(id),
        date_created INTEGER NOT NULL,
        is_archived INTEGER NOT NULL DEFAULT 0
      );
    `);
  },
};
