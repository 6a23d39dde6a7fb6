import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import {
  deleteScheduledMessage,
  dueScheduledMessages,
  insertScheduledMessage,
  markScheduledMessageDelivered,
  markScheduledMessageFailed,
  pendingScheduledMessage,
  pendingScheduledMessagesOf,
  type ScheduledMessageFields,
  type ScheduledMessageRow,
  updateScheduledMessage,
} from '../db/queries/scheduled-messages.js';
import { type UserRow, userById } from '../db/queries/users.js';
import {
  deliverMessage,
  type MessageTarget,
  parseJsonExactIntegers,
  prepareMessage,
} from '../messages/index.js';
import { loadRealm } from '../shared/realm.js';
import {
  canonicalTopic,
  checkTopicCharacters,
  emptyTopicReplacement,
  truncateTopic,
} from '../shared/topics.js';
import type { EventBody, EventFields } from '../shared/zulip-api/index.js';
import { formatScheduledMessage } from './format.js';
import { sendNotificationBotDm } from './notification-bot.js';

export type ScheduledMessageType = 'direct' | 'private' | 'stream' | 'channel';

/** `to` as clients send it (JSON): a channel id, or direct-message recipients' ids. */
export type ScheduledTarget = number | number[];

/**
 * `to` of POST and PATCH /scheduled_messages: a channel id or a list of user
 * ids (Zulip's Json[int | list[int]]); which one the message type needs is
 * checked later. Anything else gets the message pydantic's union gives, its
 * first branch named in the variable.
 */
export function parseScheduledTarget(raw: string, name: string): ScheduledTarget {
  let value: unknown;
  try {
    value = parseJsonExactIntegers(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (Number.isSafeInteger(value)) return value as number;
  if (Array.isArray(value) && value.every((v) => Number.isSafeInteger(v))) return value as number[];
  throw badRequest(`${name}["int"] is not an integer`);
}

export interface ScheduleInput {
  type: ScheduledMessageType;
  to: ScheduledTarget;
  content: string;
  topic: string | undefined;
  scheduledDeliveryTimestamp: number;
  readBySender?: boolean;
  clientName: string;
}

/** PATCH: every field optional; absent ones keep their stored value. */
export interface ScheduleEdit {
  type?: ScheduledMessageType;
  to?: ScheduledTarget;
  content?: string;
  topic?: string;
  scheduledDeliveryTimestamp?: number;
  clientName: string;
}

const scheduledMessageNotFound = () =>
  new ApiError('Scheduled message does not exist', { status: 404 });

const futureRequired = () => badRequest('Scheduled delivery time must be in the future.');

/** Zulip's DeliveryTimeNotInFutureError, for scheduled messages and reminders alike. */
export function checkInFuture(ctx: AppContext, timestamp: number): void {
  if (timestamp <= Math.floor(ctx.now() / 1000)) throw futureRequired();
}

const isChannelType = (type: ScheduledMessageType | 'stream' | 'private') =>
  type === 'stream' || type === 'channel';

/**
 * Zulip's extract_stream_id and extract_direct_message_recipient_ids: one
 * channel id for a channel message, a list of user ids for a direct one.
 */
function messageTarget(
  type: ScheduledMessageType | 'stream' | 'private',
  to: ScheduledTarget,
  topic: string | undefined,
): MessageTarget {
  if (isChannelType(type)) {
    if (Array.isArray(to)) throw badRequest('Invalid data type for channel ID');
    return { type: 'stream', channel: { id: to }, topic };
  }
  if (!Array.isArray(to)) throw badRequest('Invalid data type for recipients');
  return { type: 'private', recipients: { ids: [...new Set(to)] } };
}

/**
 * Zulip shows a direct message's `to` as its display recipient: the other
 * person of a one-to-one conversation, everyone in a group conversation.
 */
function displayRecipientIds(members: readonly number[], senderId: number): number[] {
  if (members.length === 2) return members.filter((id) => id !== senderId);
  return [...members];
}

/** Checks a scheduled message exactly as sending it now would be checked, and renders it. */
function validatedFields(
  ctx: AppContext,
  sender: UserRow,
  input: {
    target: MessageTarget;
    content: string;
    readBySender: boolean | undefined;
    clientName: string;
  },
  scheduledTimestamp: number,
): ScheduledMessageFields {
  const draft = prepareMessage(ctx, sender, input);
  const { addressee } = draft;
  return {
    type: addressee.stream ? 'stream' : 'private',
    stream_id: addressee.stream?.id ?? null,
    recipient_ids: addressee.dmMembers ? displayRecipientIds(addressee.dmMembers, sender.id) : null,
    topic: addressee.topic,
    content: draft.content,
    rendered_content: draft.rendered.html,
    scheduled_timestamp: scheduledTimestamp,
    sending_client: input.clientName,
    read_by_sender: input.readBySender ?? null,
  };
}

/** Scheduled messages are private to their owner: events go to the owner's queues only. */
/** `event` is built per queue: the empty topic's name depends on the client. */
function emitToOwner(
  ctx: AppContext,
  tx: Tx,
  ownerId: number,
  event: (emptyTopicName: string | null) => EventFields<'scheduled_messages'>,
): void {
  tx.emit({
    type: 'scheduled_messages',
    users: [ownerId],
    payload: (queue) =>
      ({
        type: 'scheduled_messages',
        ...event(emptyTopicReplacement(ctx, queue.options.capabilities.empty_topic_name)),
      }) satisfies EventBody<'scheduled_messages'>,
  });
}

function emitUpdate(ctx: AppContext, tx: Tx, ownerId: number, id: number): void {
  const row = pendingScheduledMessage(ctx.db, ownerId, id);
  if (!row) return;
  emitToOwner(ctx, tx, ownerId, (emptyName) => ({
    op: 'update',
    scheduled_message: formatScheduledMessage(row, emptyName),
  }));
}

/** POST /scheduled_messages without scheduled_message_id */
export function createScheduledMessage(
  ctx: AppContext,
  sender: UserRow,
  input: ScheduleInput,
): { scheduled_message_id: number } {
  checkInFuture(ctx, input.scheduledDeliveryTimestamp);
  const fields = validatedFields(
    ctx,
    sender,
    {
      target: messageTarget(input.type, input.to, input.topic),
      content: input.content,
      readBySender: input.readBySender,
      clientName: input.clientName,
    },
    input.scheduledDeliveryTimestamp,
  );
  return ctx.transaction((tx) => {
    const id = insertScheduledMessage(ctx.db, sender.id, fields);
    const row = pendingScheduledMessage(ctx.db, sender.id, id)!;
    emitToOwner(ctx, tx, sender.id, (emptyName) => ({
      op: 'add',
      scheduled_messages: [formatScheduledMessage(row, emptyName)],
    }));
    return { scheduled_message_id: id };
  });
}

/** The stored message's recipients, as a message target. */
function storedTarget(row: ScheduledMessageRow, topic: string): MessageTarget {
  if (row.type === 'stream') return { type: 'stream', channel: { id: row.stream_id! }, topic };
  return {
    type: 'private',
    recipients: { ids: JSON.parse(row.recipient_ids ?? '[]') as number[] },
  };
}

const storedReadBySender = (row: ScheduledMessageRow) =>
  row.read_by_sender === null ? undefined : row.read_by_sender === 1;

/**
 * PATCH /scheduled_messages/{id}, and POST /scheduled_messages with
 * scheduled_message_id. In Zulip's order: something must change; a new type
 * needs recipients, and a channel type a topic; a new time must be in the
 * future; then the message must exist (and a failed one needs a new time).
 * A change of recipients or content is checked as a new send would be; a
 * new topic alone is only checked as a topic.
 */
export function editScheduledMessage(
  ctx: AppContext,
  sender: UserRow,
  id: number,
  edit: ScheduleEdit,
): Record<string, never> {
  if (
    edit.type === undefined &&
    edit.to === undefined &&
    edit.topic === undefined &&
    edit.content === undefined &&
    edit.scheduledDeliveryTimestamp === undefined
  ) {
    throw badRequest('Nothing to change');
  }
  if (edit.type !== undefined && edit.to === undefined) {
    throw badRequest('Recipient required when updating type of scheduled message.');
  }
  if (edit.type !== undefined && isChannelType(edit.type) && edit.topic === undefined) {
    throw badRequest('Topic required when updating scheduled message type to channel.');
  }
  if (edit.scheduledDeliveryTimestamp !== undefined) {
    checkInFuture(ctx, edit.scheduledDeliveryTimestamp);
  }
  const row = pendingScheduledMessage(ctx.db, sender.id, id);
  if (!row) throw scheduledMessageNotFound();
  // A failed message is only tried again at a new time.
  if (row.failed === 1 && edit.scheduledDeliveryTimestamp === undefined) throw futureRequired();

  const timestamp = edit.scheduledDeliveryTimestamp ?? row.scheduled_timestamp;
  let fields: ScheduledMessageFields;
  if (edit.type !== undefined || edit.to !== undefined || edit.content !== undefined) {
    const topic = edit.topic ?? row.topic;
    const target =
      edit.to === undefined
        ? storedTarget(row, topic)
        : messageTarget(edit.type ?? (row.type as 'stream' | 'private'), edit.to, topic);
    fields = validatedFields(
      ctx,
      sender,
      {
        target,
        content: edit.content ?? row.content,
        readBySender: storedReadBySender(row),
        clientName: edit.clientName,
      },
      timestamp,
    );
  } else {
    let topic = row.topic;
    if (edit.topic !== undefined && row.type === 'stream') {
      topic = canonicalTopic(edit.topic, loadRealm(ctx).settings.empty_topic_display_name);
      checkTopicCharacters(topic);
      topic = truncateTopic(topic);
    }
    fields = {
      type: row.type as 'stream' | 'private',
      stream_id: row.stream_id,
      recipient_ids:
        row.recipient_ids === null ? null : (JSON.parse(row.recipient_ids) as number[]),
      topic,
      content: row.content,
      rendered_content: row.rendered_content,
      scheduled_timestamp: timestamp,
      sending_client: edit.clientName,
      read_by_sender: storedReadBySender(row) ?? null,
    };
  }
  return ctx.transaction((tx) => {
    updateScheduledMessage(ctx.db, id, fields);
    emitUpdate(ctx, tx, sender.id, id);
    return {};
  });
}

/**
 * POST /scheduled_messages: creates, or with `scheduled_message_id` (the
 * spec's form, before Zulip moved edits to PATCH) replaces, a scheduled message.
 */
export function scheduleMessage(
  ctx: AppContext,
  sender: UserRow,
  input: ScheduleInput & { scheduledMessageId?: number },
): { scheduled_message_id: number } {
  if (input.scheduledMessageId === undefined) return createScheduledMessage(ctx, sender, input);
  editScheduledMessage(ctx, sender, input.scheduledMessageId, input);
  return { scheduled_message_id: input.scheduledMessageId };
}

/** GET /scheduled_messages */
export function listScheduledMessages(
  ctx: AppContext,
  user: UserRow,
): { scheduled_messages: Record<string, unknown>[] } {
  return {
    // GET /scheduled_messages has no allow_empty_topic_name: the display name, as GET /messages.
    scheduled_messages: pendingScheduledMessagesOf(ctx.db, user.id).map((row) =>
      formatScheduledMessage(row, emptyTopicReplacement(ctx, false)),
    ),
  };
}

/** DELETE /scheduled_messages/{id} */
export function removeScheduledMessage(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Record<string, never> {
  if (!pendingScheduledMessage(ctx.db, user.id, id)) throw scheduledMessageNotFound();
  return ctx.transaction((tx) => {
    deleteScheduledMessage(ctx.db, id);
    emitToOwner(ctx, tx, user.id, () => ({ op: 'remove', scheduled_message_id: id }));
    return {};
  });
}

/** Python's str() of a UTC datetime, which Zulip puts in the failure notice's `<time:…>`. */
const pythonUtcString = (seconds: number) =>
  `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;

/**
 * Zulip's send_failed_scheduled_message_notification: a Notification Bot
 * direct message telling the owner why their message was not sent.
 */
function notifyDeliveryFailure(
  ctx: AppContext,
  tx: Tx,
  owner: UserRow,
  row: ScheduledMessageRow,
  reason: string,
): void {
  sendNotificationBotDm(
    ctx,
    tx,
    owner,
    `The message you scheduled for <time:${pythonUtcString(row.scheduled_timestamp)}>  was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)\n\n`,
  );
}

/** Delivers one due message, re-checked and re-rendered as if sent now. */
function deliverScheduledMessage(ctx: AppContext, row: ScheduledMessageRow): boolean {
  try {
    ctx.transaction((tx) => {
      const sender = userById(ctx.db, row.sender_id);
      if (!sender?.is_active) throw badRequest('Account is deactivated');
      const draft = prepareMessage(ctx, sender, {
        target: storedTarget(row, row.topic),
        content: row.content,
        readBySender: storedReadBySender(row),
        clientName: row.sending_client,
      });
      const { id } = deliverMessage(ctx, tx, draft);
      markScheduledMessageDelivered(ctx.db, row.id, id);
      emitToOwner(ctx, tx, row.sender_id, () => ({
        op: 'remove',
        scheduled_message_id: row.id,
      }));
    });
    return true;
  } catch (err) {
    // Anything else is a bug; it still fails the message so it is not retried forever.
    if (!(err instanceof ApiError)) ctx.log.error('scheduled message delivery failed', err);
    const reason = err instanceof ApiError ? err.message : 'Internal server error';
    ctx.transaction((tx) => {
      markScheduledMessageFailed(ctx.db, row.id, reason);
      const owner = userById(ctx.db, row.sender_id);
      if (owner?.is_active) notifyDeliveryFailure(ctx, tx, owner, row, reason);
      emitUpdate(ctx, tx, row.sender_id, row.id);
    });
    return false;
  }
}

/**
 * Sends every scheduled message whose time has come (the scheduler's job,
 * also called directly by tests with a fake clock). Messages that can no
 * longer be sent are marked failed for their owner to edit or delete.
 */
export function deliverDueScheduledMessages(ctx: AppContext): {
  delivered: number;
  failed: number;
} {
  const due = dueScheduledMessages(ctx.db, Math.floor(ctx.now() / 1000));
  let delivered = 0;
  for (const row of due) if (deliverScheduledMessage(ctx, row)) delivered++;
  return { delivered, failed: due.length - delivered };
}
