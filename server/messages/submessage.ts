import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { dmGroupMemberIds, type MessageRow } from '../db/queries/messages.js';
import {
  firstWidgetContent,
  hasSubmessageFrom,
  insertSubmessage,
} from '../db/queries/submessages.js';
import type { UserRow } from '../db/queries/users.js';
import { accessMessage, channelMessageHolders } from '../narrow/index.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { applyParticipationPolicy } from '../topics/index.js';
import { widgetDataError, widgetTypeOf } from './widgets.js';

export interface SubmessageInput {
  messageId: number;
  msgType: string;
  content: string;
}

/**
 * POST /submessage (Zulip's process_submessage): anyone who can see the
 * message may add one once its sender has (the sender starts); content is
 * JSON, checked against the message's poll or to-do widget. Everyone who
 * received the message gets a `submessage` event.
 */
export function addSubmessage(
  ctx: AppContext,
  user: UserRow,
  input: SubmessageInput,
): Record<string, never> {
  return ctx.transaction((tx) => {
    const { message, stream } = accessMessage(ctx, user, input.messageId);
    if (
      message.sender_id !== user.id &&
      !hasSubmessageFrom(ctx.db, message.id, message.sender_id)
    ) {
      throw badRequest('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = JSON.parse(input.content);
    } catch {
      throw badRequest('Invalid json for submessage');
    }
    const widgetType = widgetTypeOf(firstWidgetContent(ctx.db, message.id));
    const error = widgetDataError(widgetType, data, message.sender_id === user.id);
    if (error !== null) throw badRequest(error);

    const id = insertSubmessage(ctx.db, {
      message_id: message.id,
      sender_id: user.id,
      msg_type: input.msgType,
      content: input.content,
    });
    // Taking part in a widget is participation in its topic (Zulip's do_add_submessage).
    if (stream) applyParticipationPolicy(ctx, tx, user, stream, message.topic);
    tx.emit({
      type: 'submessage',
      users: receivedBy(ctx, message),
      payload: {
        type: 'submessage',
        msg_type: input.msgType,
        message_id: message.id,
        submessage_id: id,
        sender_id: user.id,
        content: input.content,
      } satisfies EventBody<'submessage'>,
    });
    return {};
  });
}

/** Who holds the message (Zulip's UserMessage rows): DM members, channel receivers. */
function receivedBy(ctx: AppContext, message: MessageRow): number[] {
  if (message.dm_group_id !== null) return dmGroupMemberIds(ctx.db, message.dm_group_id);
  return [...channelMessageHolders(ctx, message)].sort((a, b) => a - b);
}
