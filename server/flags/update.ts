import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { type MessageRow, messagesByIds } from '../db/queries/messages.js';
import { streamById } from '../db/queries/streams.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventQueue } from '../events/queue.js';
import {
  canAccessMessage,
  checkAnchorExclusion,
  fetchMessageWindow,
  invalidMessage,
  type NarrowTerm,
  parseAnchor,
} from '../narrow/index.js';
import { Flag, type FlagName } from '../shared/flags.js';
import { MAX_MESSAGES_PER_UPDATE } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { topicShownAs } from '../shared/topics.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { applyFlagChanges, planFlagChange } from './read-state.js';
import { FlagReader } from './reader.js';
import { type UnreadMessageDetail, unreadMessageDetails } from './unread.js';

/** Flags clients may name (Zulip's UserMessage flags less the internal ones). */
const apiFlags = new Set<string>([...Object.keys(Flag), 'wildcard_mentioned']);
/** The only flags a user sets directly; the others follow from message content. */
const editableFlags = new Set<string>(['read', 'starred', 'collapsed']);

export interface FlagOperation {
  op: string;
  flag: string;
}

/** Zulip's checks, in its order, before any message is looked at. */
export function checkFlagOperation(input: FlagOperation): { bit: number; add: boolean } {
  if (!apiFlags.has(input.flag)) throw badRequest(`Invalid flag: '${input.flag}'`);
  if (!editableFlags.has(input.flag)) throw badRequest(`Flag not editable: '${input.flag}'`);
  if (input.op !== 'add' && input.op !== 'remove') {
    throw badRequest(`Invalid message flag operation: '${input.op}'`);
  }
  return { bit: Flag[input.flag as FlagName], add: input.op === 'add' };
}

export interface FlagUpdateResult {
  /** Ids whose flag changed, in the order asked. */
  changed: number[];
  ignored_because_not_subscribed_channels: number[];
}

/**
 * Zulip's do_update_message_flags, inside the caller's transaction. Unread
 * messages must lie in subscribed channels, so marking unread skips the
 * others and reports their channels. A message the user never received
 * needs a row only if the flag really changes; then it must be accessible.
 */
export function updateFlags(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  operation: FlagOperation,
  messageIds: readonly number[],
): FlagUpdateResult {
  const { bit, add } = checkFlagOperation(operation);
  const rows = new Map(messagesByIds(ctx.db, messageIds).map((m) => [m.id, m]));
  const reader = new FlagReader(ctx.db, user.id);
  const ignoredChannels = new Set<number>();
  const targets: MessageRow[] = [];
  for (const id of messageIds) {
    const message = rows.get(id) ?? missingMessage(id);
    if (bit === Flag.read && !add && message.stream_id !== null && message.stream_id > 0) {
      if (!reader.isSubscribed(message.stream_id)) {
        // Reporting the channel of a message the user may not see would reveal it exists.
        const stream = streamById(ctx.db, message.stream_id);
        if (!canAccessMessage(ctx, user, message, stream)) throw invalidMessage();
        ignoredChannels.add(message.stream_id);
        continue;
      }
    }
    targets.push(message);
  }

  const changes = planFlagChange(ctx.db, user.id, targets, bit, add);
  for (const change of changes) {
    if (change.hasRow || change.received) continue;
    // Zulip's historical UserMessage: only for messages the user may read.
    const message = change.message;
    if (!rows.has(message.id)) throw invalidMessage();
    const stream = message.stream_id !== null ? streamById(ctx.db, message.stream_id) : undefined;
    if (!canAccessMessage(ctx, user, message, stream)) throw invalidMessage();
  }
  applyFlagChanges(ctx.db, user.id, changes);

  const changed = changes.map((c) => c.message.id);
  const details =
    bit === Flag.read && !add
      ? unreadMessageDetails(
          ctx.db,
          user.id,
          changes.map((c) => ({ ...c.message, flags: c.after })),
        )
      : undefined;
  emitFlagsEvent(ctx, tx, user.id, operation, changed, details);
  return {
    changed,
    ignored_because_not_subscribed_channels: [...ignoredChannels].sort((a, b) => a - b),
  };
}

/**
 * A stand-in for an id with no message: it reads as Zulip's default for a
 * message without a UserMessage row, so an operation that would not change
 * that default is a no-op and any other is "Invalid message(s)".
 */
function missingMessage(id: number): MessageRow {
  return {
    id,
    sender_id: 0,
    stream_id: -1,
    dm_group_id: null,
    topic: '',
    topic_key: '',
    content: '',
    rendered_content: '',
    date_sent: 0,
    last_edit_time: null,
    last_moved_time: null,
    sending_client: '',
    is_me_message: 0,
    has_link: 0,
    has_image: 0,
    has_attachment: 0,
  };
}

/**
 * update_message_flags, to the user only. Marking unread carries
 * message_details; an empty topic there is shown as the organization's
 * display name to clients without the empty_topic_name capability.
 */
export function emitFlagsEvent(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  operation: FlagOperation,
  messageIds: number[],
  details?: Record<string, UnreadMessageDetail>,
): void {
  // checkFlagOperation let no other operation through.
  const base =
    operation.op === 'add'
      ? ({
          type: 'update_message_flags',
          op: 'add',
          operation: 'add',
          flag: operation.flag,
          messages: messageIds,
          all: false,
        } satisfies EventBody<'update_message_flags', 'add'>)
      : ({
          type: 'update_message_flags',
          op: 'remove',
          operation: 'remove',
          flag: operation.flag,
          messages: messageIds,
          all: false,
        } satisfies EventBody<'update_message_flags', 'remove', 'message_details'>);
  if (!details) {
    tx.emit({ type: 'update_message_flags', users: [userId], payload: base });
    return;
  }
  const emptyTopicName = loadRealm(ctx).settings.empty_topic_display_name;
  const legacyDetails: Record<string, UnreadMessageDetail> = {};
  for (const [id, detail] of Object.entries(details)) {
    legacyDetails[id] =
      detail.type === 'stream' && detail.topic !== undefined
        ? { ...detail, topic: topicShownAs(detail.topic, emptyTopicName) }
        : detail;
  }
  tx.emit({
    type: 'update_message_flags',
    users: [userId],
    payload: (queue: EventQueue) =>
      ({
        ...base,
        // Only marking unread (op remove, flag read) has details.
        op: 'remove',
        operation: 'remove',
        message_details: queue.options.capabilities.empty_topic_name ? details : legacyDetails,
      }) satisfies EventBody<'update_message_flags', 'remove'>,
  });
}

/** POST /messages/flags */
export function updateMessageFlags(
  ctx: AppContext,
  user: UserRow,
  input: FlagOperation & { messages: number[] },
) {
  checkFlagOperation(input);
  const result = ctx.transaction((tx) => updateFlags(ctx, tx, user, input, input.messages));
  return { messages: input.messages, ...ignoredChannelsField(input, result) };
}

/**
 * ignored_because_not_subscribed_channels is part of the answer only when
 * marking unread (flag read, op remove), the one operation that skips them.
 */
function ignoredChannelsField(operation: FlagOperation, result: FlagUpdateResult) {
  return operation.flag === 'read' && operation.op === 'remove'
    ? { ignored_because_not_subscribed_channels: result.ignored_because_not_subscribed_channels }
    : {};
}

export interface NarrowFlagInput extends FlagOperation {
  anchor: string;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
}

/**
 * POST /messages/flags/narrow: the flag over the messages GET /messages
 * would return for the same window (counts lowered to at most 5000 in all),
 * with what a client needs to continue from either end.
 */
export function updateMessageFlagsForNarrow(
  ctx: AppContext,
  user: UserRow,
  input: NarrowFlagInput,
) {
  const anchor = parseAnchor(ctx, input.anchor);
  checkAnchorExclusion(input.numBefore, input.numAfter, input.includeAnchor);
  const numBefore = Math.min(
    input.numBefore,
    Math.max(MAX_MESSAGES_PER_UPDATE - input.numAfter, MAX_MESSAGES_PER_UPDATE / 2),
  );
  const numAfter = Math.min(input.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  return ctx.transaction((tx) => {
    const window = fetchMessageWindow(ctx, user, {
      narrow: input.narrow,
      anchor,
      numBefore,
      numAfter,
      includeAnchor: input.includeAnchor,
    });
    const ids = window.rows.map((m) => m.id);
    const result = updateFlags(ctx, tx, user, input, ids);
    return {
      processed_count: ids.length,
      updated_count: result.changed.length,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids[ids.length - 1] ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ...ignoredChannelsField(input, result),
    };
  });
}
