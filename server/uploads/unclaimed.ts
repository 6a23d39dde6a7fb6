import type { AppContext } from '../core/context.js';
import { unclaimedAttachmentsBefore } from '../db/queries/attachments.js';
import { deleteAttachments } from './attachments.js';

/**
 * How long an upload no message links is kept: Zulip's default for
 * delete_old_unclaimed_attachments, long enough for a draft or a message
 * being edited to claim it.
 */
export const UNCLAIMED_UPLOAD_GRACE_MS = 5 * 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes uploads older than the grace period that no message links and no
 * scheduled message still to be sent mentions, files and thumbnails with
 * them. Answers how many went.
 */
export function deleteOldUnclaimedUploads(ctx: AppContext): number {
  const cutoff = ctx.now() - UNCLAIMED_UPLOAD_GRACE_MS;
  const removed = deleteAttachments(ctx, () => unclaimedAttachmentsBefore(ctx.db, cutoff));
  if (removed.length > 0) {
    ctx.log.info(`Deleted ${removed.length} uploads no message used for 5 weeks`);
  }
  return removed.length;
}
