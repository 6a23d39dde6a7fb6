import { accessChannelById, checkCanPost } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { dmGroupMemberIds } from '../db/queries/messages.js';
import { subscriberIds } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { memoisePayload } from '../events/hub.js';
import { checkCanEditContent, parseRecipientList, userForEmail } from '../messages/index.js';
import { accessMessage } from '../narrow/index.js';
import { MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { normalizeTopic, topicForQueue } from '../shared/topics.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { apiEmail } from '../users/index.js';

/** Channels bigger than this get no typing notifications (Zulip's default). */

export interface TypingInput {
  type: 'direct' | 'stream' | 'channel';
  op: 'start' | 'stop';
  /** Raw `to`: a JSON list of user ids (or, leniently, e-mails). */
  to?: string;
  streamId?: number;
  topic?: string;
}

const receivesTyping = (user: UserRow | undefined): user is UserRow =>
  user !== undefined &&
  user.is_active === 1 &&
  mergeUserSettings(user.settings).receives_typing_notifications;

/** POST /typing */
export function sendTyping(
  ctx: AppContext,
  sender: UserRow,
  input: TypingInput,
): Record<string, never> {
  const realm = loadRealm(ctx);
  const domain = realm.row.email_domain;
  const settings = mergeUserSettings(sender.settings);
  const senderDict = { user_id: sender.id, email: apiEmail(sender, domain) };

  if (input.type === 'stream' || input.type === 'channel') {
    // Zulip words these like a missing parameter, but as a plain BAD_REQUEST.
    if (input.streamId === undefined) throw badRequest("Missing 'stream_id' argument");
    if (input.topic === undefined) throw badRequest('Missing topic');
    if (!settings.send_stream_typing_notifications) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const stream = accessChannelById(ctx, sender, input.streamId);
    checkCanPost(ctx, sender, stream);
    const topic = normalizeTopic(input.topic, realm.settings.empty_topic_display_name);
    const subscribers = subscriberIds(ctx.db, stream.id);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return {};
    const emptyName = realm.settings.empty_topic_display_name;
    const users = subscribers.filter((id) => receivesTyping(userById(ctx.db, id)));
    ctx.transaction((tx) =>
      tx.emit({
        type: 'typing',
        users,
        // Only clients that said they handle channel typing get it.
        payload: memoisePayload(
          ({ options: { capabilities: c } }) =>
            `${c.stream_typing_notifications}|${c.empty_topic_name}`,
          (queue) =>
            queue.options.capabilities.stream_typing_notifications
              ? ({
                  type: 'typing',
                  op: input.op,
                  message_type: 'stream',
                  sender: senderDict,
                  stream_id: stream.id,
                  topic: topicForQueue(queue, topic, emptyName),
                } satisfies EventBody<'typing', TypingInput['op'], 'recipients'>)
              : null,
        ),
      }),
    );
    return {};
  }

  if (input.to === undefined) throw badRequest("Missing 'to' argument");
  const list = parseRecipientList(input.to);
  const recipients: UserRow[] = [];
  if ('ids' in list) {
    if (list.ids.length === 0) throw badRequest("Empty 'to' list");
    for (const id of list.ids) {
      const user = userById(ctx.db, id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      recipients.push(user);
    }
  } else {
    if (list.emails.length === 0) throw badRequest("Empty 'to' list");
    for (const email of list.emails) {
      const user = userForEmail(ctx, email, domain);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      recipients.push(user);
    }
  }
  if (!settings.send_private_typing_notifications) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  if (!recipients.some((u) => u.id === sender.id)) recipients.push(sender);
  recipients.sort((a, b) => a.id - b.id);
  const payload = {
    type: 'typing',
    op: input.op,
    message_type: 'direct',
    sender: senderDict,
    recipients: recipients.map((u) => ({ user_id: u.id, email: apiEmail(u, domain) })),
  } satisfies EventBody<'typing', TypingInput['op'], 'stream_id' | 'topic'>;
  const users = recipients.filter(receivesTyping).map((u) => u.id);
  ctx.transaction((tx) => tx.emit({ type: 'typing', users, payload }));
  return {};
}

/**
 * POST /messages/{message_id}/typing: that the sender is editing their
 * message (Zulip's send_message_edit_notification_backend), told to the
 * channel's subscribers or the conversation's members who receive typing
 * notifications. Only someone who may edit the message's content may say
 * so, with no grace past the time limit.
 */
export function sendEditTyping(
  ctx: AppContext,
  sender: UserRow,
  messageId: number,
  op: 'start' | 'stop',
): Record<string, never> {
  const { message } = accessMessage(ctx, sender, messageId, { modifying: true });
  checkCanEditContent(ctx, sender, message, 0);
  const settings = mergeUserSettings(sender.settings);
  const event = {
    type: 'typing_edit_message',
    op,
    sender_id: sender.id,
    message_id: message.id,
  } as const;
  type EditTyping = EventBody<'typing_edit_message', typeof op>;
  if (message.stream_id !== null) {
    if (!settings.send_stream_typing_notifications) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const subscribers = subscriberIds(ctx.db, message.stream_id);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return {};
    const users = subscribers.filter((id) => receivesTyping(userById(ctx.db, id)));
    const recipient = {
      type: 'channel',
      channel_id: message.stream_id,
      topic: message.topic,
    } as const;
    ctx.transaction((tx) =>
      tx.emit({
        type: 'typing_edit_message',
        users,
        payload: { ...event, recipient } satisfies EditTyping,
      }),
    );
    return {};
  }
  if (!settings.send_private_typing_notifications) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const users = dmGroupMemberIds(ctx.db, message.dm_group_id!).filter((id) =>
    receivesTyping(userById(ctx.db, id)),
  );
  const recipient = { type: 'direct', user_ids: users } as const;
  ctx.transaction((tx) =>
    tx.emit({
      type: 'typing_edit_message',
      users,
      payload: { ...event, recipient } satisfies EditTyping,
    }),
  );
  return {};
}
