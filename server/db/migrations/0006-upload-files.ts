import type { Migration } from './index.js';

/**
 * What serving and previewing an upload needs beyond 0001's `attachments`:
 * where its bytes are (a server-made file-store key, never the client's
 * name), its content type, and for images the rendered dimensions, frame
 * count and the thumbnails made at upload time (JSON list of
 * {name, key, content_type, width, height, byte_size}).
 */
export const uploadFiles: Migration = {
  version: 6,
  name: 'upload files',
  up(db) {
    db.exec(`
      ALTER TABLE attachments ADD COLUMN storage_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE attachments ADD COLUMN content_type TEXT NOT NULL DEFAULT 'application/octet-stream';
      ALTER TABLE attachments ADD COLUMN image_width INTEGER;
      ALTER TABLE attachments ADD COLUMN image_height INTEGER;
      ALTER TABLE attachments ADD COLUMN image_frames INTEGER;
      ALTER TABLE attachments ADD COLUMN thumbnails TEXT NOT NULL DEFAULT '[]';
      CREATE INDEX attachments_by_owner ON attachments(owner_id, id);
      CREATE INDEX attachment_messages_by_message ON attachment_messages(message_id);
    `);
  },
};
