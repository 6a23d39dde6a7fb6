import { hasContentAccess, hasMetadataAccess } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
// Who holds a flag row is who received the message: flags/ checks access through
// this area, so this one read of flag rows is allowed here (.dependency-cruiser.cjs).
import { flagRowHolders } from '../db/queries/flags.js';
import {
  channelMessageReceivers,
  dmGroupMemberIds,
  type MessageRow,
  messageById,
} from '../db/queries/messages.js';
import { type StreamRow, streamById, subscriberIds } from '../db/queries/streams.js';
import { activeUserIds, type UserRow, userById } from '../db/queries/users.js';
import { isGuest } from '../shared/roles.js';

export const invalidMessage = () => badRequest('Invalid message(s)');

/**
 * Did the user get the message (Zulip: has a UserMessage row)? A channel
 * message is received inside a subscription period; a flag row (a
 * historical star or reaction) counts too, as Zulip's historical rows do.
 */
export function hasReceived(ctx: AppContext, userId: number, message: MessageRow): boolean {
  if (message.dm_group_id !== null) {
    return dmGroupMemberIds(ctx.db, message.dm_group_id).includes(userId);
  }
  return (
    channelMessageReceivers(ctx.db, message.stream_id!, message.id).includes(userId) ||
    flagRowHolders(ctx.db, message.id).some((r) => r.user_id === userId)
  );
}

/**
 * Everyone who received a channel message (hasReceived for all users at
 * once): subscription periods covering it, plus flag-row holders.
 */
export function channelMessageHolders(ctx: AppContext, message: MessageRow): Set<number> {
  return new Set<number>([
    ...channelMessageReceivers(ctx.db, message.stream_id!, message.id),
    ...flagRowHolders(ctx.db, message.id).map((r) => r.user_id),
  ]);
}

/**
 * Zulip's has_message_access. Modifying (editing, reacting, deleting) also
 * requires the channel not to be archived. Callers checking many users pass
 * `received` (hasReceived, worked out for all of them at once).
 */
export function canAccessMessage(
  ctx: AppContext,
  user: UserRow,
  message: MessageRow,
  stream: StreamRow | undefined,
  opts: { modifying?: boolean; received?: boolean } = {},
): boolean {
  if (message.dm_group_id !== null) {
    return dmGroupMemberIds(ctx.db, message.dm_group_id).includes(user.id);
  }
  if (!stream) return false;
  if (opts.modifying && stream.is_archived) return false;
  if (!stream.invite_only && !isGuest(user)) return true;
  if (!stream.history_public_to_subscribers) {
    const received = opts.received ?? hasReceived(ctx, user.id, message);
    return received && hasContentAccess(ctx, user, stream);
  }
  return hasContentAccess(ctx, user, stream);
}

export interface AccessedMessage {
  message: MessageRow;
  /** The channel of a channel message; undefined for direct messages. */
  stream: StreamRow | undefined;
}

/** The message if the user may see it, else "Invalid message(s)" (missing or hidden alike). */
export function accessMessage(
  ctx: AppContext,
  user: UserRow,
  messageId: number,
  opts: { modifying?: boolean } = {},
): AccessedMessage {
  const message = messageById(ctx.db, messageId);
  if (!message) throw invalidMessage();
  const stream = message.stream_id !== null ? streamById(ctx.db, message.stream_id) : undefined;
  if (!canAccessMessage(ctx, user, message, stream, opts)) throw invalidMessage();
  return { message, stream };
}

/**
 * Who gets events about a message (Zulip's
 * event_recipient_ids_for_action_on_messages): active users who received it,
 * hold a flag row on it, or are subscribed to its channel, and may still see it.
 */
export function usersWithMessageAccess(ctx: AppContext, message: MessageRow): number[] {
  if (message.dm_group_id !== null) {
    return dmGroupMemberIds(ctx.db, message.dm_group_id).filter(
      (id) => userById(ctx.db, id)?.is_active === 1,
    );
  }
  const stream = streamById(ctx.db, message.stream_id!);
  if (!stream) return [];
  const received = channelMessageHolders(ctx, message);
  const candidates = new Set<number>([...received, ...subscriberIds(ctx.db, stream.id)]);
  const result: number[] = [];
  for (const id of [...candidates].sort((a, b) => a - b)) {
    const user = userById(ctx.db, id);
    if (!user?.is_active) continue;
    if (canAccessMessage(ctx, user, message, stream, { received: received.has(id) })) {
      result.push(id);
    }
  }
  return result;
}

/** Active users who may know the channel exists (channel update events). */
export function usersWithMetadataAccess(ctx: AppContext, stream: StreamRow): number[] {
  return activeUserIds(ctx.db).filter((id) => {
    const user = userById(ctx.db, id);
    return user !== undefined && hasMetadataAccess(ctx, user, stream);
  });
}
