import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface AttachmentRow {
  id: number;
  owner_id: number;
  /** "{realm_id}/{2 random}/{24 random}/{sanitized name}": the file's URL below /user_uploads/. */
  path_id: string;
  /** The name the uploader gave, as GET /attachments reports it. */
  file_name: string;
  size: number;
  create_time_ms: number;
  /** Where the bytes are in the file store (core/file-store.ts). */
  storage_key: string;
  content_type: string;
  /** Set only for files that decoded as images (and got thumbnails). */
  image_width: number | null;
  image_height: number | null;
  image_frames: number | null;
  /** JSON list of StoredThumbnail. */
  thumbnails: string;
}

/** One thumbnail made at upload time. */
export interface StoredThumbnail {
  /** Its format's name, e.g. "840x560.webp" (the last part of its URL). */
  name: string;
  key: string;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
}

export type NewAttachment = Omit<AttachmentRow, 'id'>;

export function insertAttachment(db: Db, a: NewAttachment): number {
  const result = stmt(
    db,
    `INSERT INTO attachments (owner_id, path_id, file_name, size, create_time_ms, storage_key,
       content_type, image_width, image_height, image_frames, thumbnails)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.owner_id,
    a.path_id,
    a.file_name,
    a.size,
    a.create_time_ms,
    a.storage_key,
    a.content_type,
    a.image_width,
    a.image_height,
    a.image_frames,
    a.thumbnails,
  );
  return Number(result.lastInsertRowid);
}

export const attachmentById = (db: Db, id: number) =>
  stmt<[number], AttachmentRow>(db, 'SELECT * FROM attachments WHERE id = ?').get(id);

export const attachmentByPathId = (db: Db, pathId: string) =>
  stmt<[string], AttachmentRow>(db, 'SELECT * FROM attachments WHERE path_id = ?').get(pathId);

export const attachmentsOwnedBy = (db: Db, ownerId: number) =>
  stmt<[number], AttachmentRow>(db, 'SELECT * FROM attachments WHERE owner_id = ? ORDER BY id').all(
    ownerId,
  );

export const deleteAttachmentRow = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM attachments WHERE id = ?').run(id);

/** Bytes of every upload in the organization (Zulip's currently_used_upload_space_bytes). */
export const totalUploadBytes = (db: Db): number =>
  stmt<[], { total: number | null }>(db, 'SELECT sum(size) AS total FROM attachments').get()!
    .total ?? 0;

export const uploadBytesOf = (db: Db, ownerId: number): number =>
  stmt<[number], { total: number | null }>(
    db,
    'SELECT sum(size) AS total FROM attachments WHERE owner_id = ?',
  ).get(ownerId)!.total ?? 0;

/** The messages linking an attachment, oldest first, with their send times (UNIX seconds). */
export const attachmentMessages = (db: Db, attachmentId: number) =>
  stmt<[number], { id: number; date_sent: number }>(
    db,
    `SELECT m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id
     WHERE am.attachment_id = ? ORDER BY m.id`,
  ).all(attachmentId);

export const attachmentMessageIds = (db: Db, attachmentId: number): number[] =>
  stmt<[number], { message_id: number }>(
    db,
    'SELECT message_id FROM attachment_messages WHERE attachment_id = ? ORDER BY message_id',
  )
    .all(attachmentId)
    .map((r) => r.message_id);

/** The attachments a message claims. */
export const attachmentsOfMessage = (db: Db, messageId: number) =>
  stmt<[number], AttachmentRow>(
    db,
    `SELECT a.* FROM attachment_messages am JOIN attachments a ON a.id = am.attachment_id
     WHERE am.message_id = ? ORDER BY a.id`,
  ).all(messageId);

export const linkAttachment = (db: Db, attachmentId: number, messageId: number) =>
  stmt(
    db,
    'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)',
  ).run(attachmentId, messageId);

export const unlinkAttachment = (db: Db, attachmentId: number, messageId: number) =>
  stmt(db, 'DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id = ?').run(
    attachmentId,
    messageId,
  );

export const setMessageHasAttachment = (db: Db, messageId: number, has: boolean) =>
  stmt(db, 'UPDATE messages SET has_attachment = ? WHERE id = ?').run(has ? 1 : 0, messageId);

/**
 * Uploads made before `cutoffMs` that no message links and no scheduled
 * message still to be sent mentions (Zulip's get_old_unclaimed_attachments;
 * Hearth does not link scheduled messages, so their text is searched).
 */
export const unclaimedAttachmentsBefore = (db: Db, cutoffMs: number) =>
  stmt<[number], AttachmentRow>(
    db,
    `SELECT a.* FROM attachments a
     WHERE a.create_time_ms < ?
       AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id)
       AND NOT EXISTS (SELECT 1 FROM scheduled_messages s
                        WHERE s.delivered = 0 AND instr(s.content, a.path_id) > 0)
     ORDER BY a.id`,
  ).all(cutoffMs);
