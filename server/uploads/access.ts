import type { AppContext } from '../core/context.js';
import { type AttachmentRow, attachmentMessageIds } from '../db/queries/attachments.js';
import { messageById } from '../db/queries/messages.js';
import { streamById } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import { canAccessMessage } from '../narrow/index.js';

/**
 * Zulip's validate_attachment_request: the uploader may always see their
 * file; anyone else only through a message linking it that they may see
 * (a public channel's message for non-guests, a private channel's for
 * subscribers as its history setting allows, a direct message's recipients).
 */
export function mayAccessAttachment(
  ctx: AppContext,
  user: UserRow,
  attachment: AttachmentRow,
): boolean {
  if (attachment.owner_id === user.id) return true;
  return attachmentMessageIds(ctx.db, attachment.id).some((messageId) => {
    const message = messageById(ctx.db, messageId);
    if (!message) return false;
    const stream = message.stream_id === null ? undefined : streamById(ctx.db, message.stream_id);
    return canAccessMessage(ctx, user, message, stream);
  });
}
