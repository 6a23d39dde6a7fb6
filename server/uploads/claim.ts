import type { AppContext, Tx } from '../core/context.js';
import {
  attachmentById,
  attachmentByPathId,
  attachmentMessageIds,
  attachmentsOfMessage,
  linkAttachment,
  unlinkAttachment,
} from '../db/queries/attachments.js';
import type { UserRow } from '../db/queries/users.js';
import { mayAccessAttachment } from './access.js';
import { emitAttachmentEvent, formatAttachment } from './attachments.js';

/**
 * Links a message to the uploads it references (Zulip's
 * do_claim_attachments), but only those its sender may share: their own, or
 * ones they can already see through another message. Anything else (a
 * made-up path, someone else's private file) stays a plain link. Each owner
 * hears of the new message in an `update` event. Returns whether any was
 * claimed, which is the message's has_attachment.
 */
export function claimAttachments(
  ctx: AppContext,
  tx: Tx,
  sender: UserRow,
  messageId: number,
  pathIds: readonly string[],
): boolean {
  let claimed = false;
  for (const pathId of pathIds) {
    const attachment = attachmentByPathId(ctx.db, pathId);
    if (!attachment || !mayAccessAttachment(ctx, sender, attachment)) continue;
    linkAttachment(ctx.db, attachment.id, messageId);
    claimed = true;
    emitAttachmentEvent(ctx, tx, attachment.owner_id, {
      op: 'update',
      attachment: formatAttachment(ctx, attachmentById(ctx.db, attachment.id)!),
    });
  }
  return claimed;
}

/**
 * After an edit of a message's content (Zulip's
 * check_attachment_reference_change): uploads no longer linked are released,
 * new ones claimed. `detached` lists the sender's own uploads that no message
 * links any more (the edit response's detached_uploads).
 */
export function updateAttachmentReferences(
  ctx: AppContext,
  tx: Tx,
  sender: UserRow,
  messageId: number,
  pathIds: readonly string[],
): { hasAttachment: boolean; detached: ReturnType<typeof formatAttachment>[] } {
  const before = attachmentsOfMessage(ctx.db, messageId);
  const wanted = new Set(pathIds);
  const detached: ReturnType<typeof formatAttachment>[] = [];
  for (const attachment of before) {
    if (wanted.has(attachment.path_id)) continue;
    unlinkAttachment(ctx.db, attachment.id, messageId);
    if (
      attachment.owner_id === sender.id &&
      attachmentMessageIds(ctx.db, attachment.id).length === 0
    ) {
      detached.push(formatAttachment(ctx, attachment));
    }
  }
  const had = new Set(before.map((a) => a.path_id));
  claimAttachments(
    ctx,
    tx,
    sender,
    messageId,
    pathIds.filter((p) => !had.has(p)),
  );
  return { hasAttachment: attachmentsOfMessage(ctx.db, messageId).length > 0, detached };
}
