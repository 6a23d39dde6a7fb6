import type { AppContext, Tx } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { removeStoredFile } from '../core/file-store.js';
import {
  type AttachmentRow,
  attachmentById,
  attachmentMessages,
  attachmentsOwnedBy,
  deleteAttachmentRow,
  type StoredThumbnail,
  totalUploadBytes,
} from '../db/queries/attachments.js';
import type { UserRow } from '../db/queries/users.js';
import type { Attachment, EventBody } from '../shared/zulip-api/index.js';
import { removeThumbnails } from './thumbnails.js';

/** Zulip's Attachment.to_dict(): times in milliseconds. */
export function formatAttachment(ctx: AppContext, row: AttachmentRow): Attachment {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time_ms,
    messages: attachmentMessages(ctx.db, row.id).map((m) => ({
      id: m.id,
      date_sent: m.date_sent * 1000,
    })),
  };
}

/** A removed upload is named by its id alone. */
type AttachmentChange =
  | { op: 'add' | 'update'; attachment: Attachment }
  | { op: 'remove'; attachment: { id: number } };

/**
 * An `attachment` event to the owner alone (their list of uploads changed).
 * `upload_space_used` is the organization's total, as in Zulip.
 */
export function emitAttachmentEvent(
  ctx: AppContext,
  tx: Tx,
  ownerId: number,
  change: AttachmentChange,
): void {
  tx.emit({
    type: 'attachment',
    users: [ownerId],
    payload: {
      type: 'attachment',
      ...change,
      upload_space_used: totalUploadBytes(ctx.db),
    } satisfies EventBody<'attachment'>,
  });
}

/** GET /attachments */
export function listAttachments(ctx: AppContext, user: UserRow) {
  return {
    attachments: attachmentsOwnedBy(ctx.db, user.id).map((row) => formatAttachment(ctx, row)),
    upload_space_used: totalUploadBytes(ctx.db),
  };
}

const invalidAttachment = () => new ApiError('Invalid attachment');

/**
 * DELETE /attachments/{attachment_id}: only the owner's own uploads (anyone
 * else's look missing). Messages linking the file keep their text.
 */
export function removeAttachment(
  ctx: AppContext,
  user: UserRow,
  attachmentId: number,
): Record<string, never> {
  const row = attachmentById(ctx.db, attachmentId);
  if (!row || row.owner_id !== user.id) throw invalidAttachment();
  deleteAttachments(ctx, () => [row]);
  return {};
}

/**
 * Deletes the attachments `select` picks inside the transaction (so nothing
 * can claim them in between); each owner hears `remove`. The files and
 * thumbnails go once the rows are committed.
 */
export function deleteAttachments(ctx: AppContext, select: () => AttachmentRow[]): AttachmentRow[] {
  const rows = ctx.transaction((tx) => {
    const chosen = select();
    for (const row of chosen) deleteAttachmentRow(ctx.db, row.id);
    for (const row of chosen)
      emitAttachmentEvent(ctx, tx, row.owner_id, { op: 'remove', attachment: { id: row.id } });
    return chosen;
  });
  for (const row of rows) {
    removeStoredFile(ctx, row.storage_key);
    removeThumbnails(ctx, JSON.parse(row.thumbnails) as StoredThumbnail[]);
  }
  return rows;
}
