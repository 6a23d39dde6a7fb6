import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { editSnapshotsFor } from '../db/queries/message-edits.js';
import type { MessageRow } from '../db/queries/messages.js';
import type { UserRow } from '../db/queries/users.js';
import { FlagReader } from '../flags/index.js';
import {
  type Anchor,
  accessMessage,
  fetchMessageWindow,
  highlightContent,
  highlightTopic,
  messagesMatchingNarrow,
  type NarrowTerm,
  nearOfNarrow,
  parseAnchor,
  type SearchQuery,
  searchOfNarrow,
} from '../narrow/index.js';
import { flagNames } from '../shared/flags.js';
import { MAX_MESSAGES_PER_FETCH } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import type { FetchedMessage, Message } from '../shared/zulip-api/index.js';
import { userAccessCheck } from '../user-access/index.js';
import { hideSender, MessageFormatter } from './format.js';

export interface MessageDictOptions {
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
}

type MessageDict = Message & Partial<FetchedMessage>;
type EditHistoryEntry = NonNullable<Message['edit_history']>[number];

/**
 * Zulip's edit_history in message dicts: newest first, per the organization's
 * message_edit_history_visibility_policy ("moves" keeps only topic and
 * channel changes, without content; "none" omits the field).
 */
function attachEditHistory(ctx: AppContext, rows: MessageRow[], dicts: MessageDict[]): void {
  const edited = rows.filter((r) => r.last_edit_time !== null || r.last_moved_time !== null);
  if (edited.length === 0) return;
  const settings = loadRealm(ctx).settings;
  const policy = settings.allow_edit_history
    ? settings.message_edit_history_visibility_policy
    : 'none';
  if (policy === 'none') return;
  const history = new Map<number, EditHistoryEntry[]>();
  for (const e of editSnapshotsFor(
    ctx.db,
    edited.map((r) => r.id),
  )) {
    const moved = e.prev_topic !== null || e.prev_stream_id !== null;
    if (policy === 'moves' && !moved) continue;
    const entry: EditHistoryEntry = { timestamp: e.timestamp, user_id: e.user_id };
    if (policy === 'all' && e.prev_content !== null) {
      entry.prev_content = e.prev_content;
      entry.prev_rendered_content = e.prev_rendered_content ?? '';
    }
    if (e.prev_topic !== null) {
      entry.prev_topic = e.prev_topic;
      entry.topic = e.topic ?? '';
    }
    if (e.prev_stream_id !== null) {
      entry.prev_stream = e.prev_stream_id;
      if (e.stream_id !== null) entry.stream = e.stream_id;
    }
    const list = history.get(e.message_id) ?? [];
    list.push(entry);
    history.set(e.message_id, list);
  }
  rows.forEach((row, i) => {
    const list = history.get(row.id);
    if (list && list.length > 0) dicts[i]!.edit_history = list;
  });
}

/** Full message dicts as GET /messages returns them: flags, edit history, search highlights. */
export function formatMessagesForUser(
  ctx: AppContext,
  user: UserRow,
  rows: MessageRow[],
  options: MessageDictOptions,
  search: SearchQuery | null = null,
): MessageDict[] {
  const formatter = new MessageFormatter(ctx);
  const dicts: MessageDict[] = formatter.format(rows, options);
  const flags = new FlagReader(ctx.db, user.id).load(rows.map((r) => r.id));
  const mayAccess = userAccessCheck(ctx, user);
  rows.forEach((row, i) => {
    dicts[i]!.flags = flagNames(flags.flagsOf(row));
    const sender = formatter.user(row.sender_id);
    if (sender && !mayAccess(sender)) hideSender(ctx, dicts[i]!);
  });
  attachEditHistory(ctx, rows, dicts);
  if (search) {
    rows.forEach((row, i) => {
      dicts[i]!.match_content = highlightContent(row.rendered_content, search);
      dicts[i]!.match_subject = highlightTopic(row.topic, search);
    });
  }
  return dicts;
}

export interface GetMessagesInput extends MessageDictOptions {
  anchor: string | undefined;
  numBefore: number | undefined;
  numAfter: number | undefined;
  includeAnchor: boolean | undefined;
  useFirstUnreadAnchor: boolean | undefined;
  narrow: NarrowTerm[];
  messageIds: number[] | undefined;
}

const incompatibleWithMessageIds = [
  'num_before',
  'num_after',
  'anchor',
  'message_ids',
  'include_anchor',
  'use_first_unread_anchor',
];

function checkCount(name: string, value: number | undefined): number {
  if (value !== undefined && value < 0) throw badRequest(`${name} is too small`);
  return value ?? 0;
}

function resolveAnchor(ctx: AppContext, input: GetMessagesInput): Anchor {
  if (input.useFirstUnreadAnchor) return 'first_unread';
  if (input.anchor !== undefined) return parseAnchor(ctx, input.anchor);
  // `near:<id>` is an anchor only; it stands in for a missing anchor.
  const near = nearOfNarrow(input.narrow);
  if (near !== null) return near;
  throw badRequest("Missing 'anchor' argument.");
}

/** GET /messages */
export function getMessages(ctx: AppContext, user: UserRow, input: GetMessagesInput) {
  const numBefore = checkCount('num_before', input.numBefore);
  const numAfter = checkCount('num_after', input.numAfter);
  const search = searchOfNarrow(input.narrow);

  if (input.messageIds !== undefined) {
    if (
      input.anchor !== undefined ||
      input.numBefore !== undefined ||
      input.numAfter !== undefined ||
      input.includeAnchor !== undefined ||
      input.useFirstUnreadAnchor
    ) {
      throw new ApiError(
        `Unsupported parameter combination: ${incompatibleWithMessageIds.join(', ')}`,
        { extra: { parameters: incompatibleWithMessageIds.join(', ') } },
      );
    }
    if (input.messageIds.length > MAX_MESSAGES_PER_FETCH) {
      throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    }
    const rows = messagesMatchingNarrow(ctx, user, input.narrow, input.messageIds, {
      allowHistory: true,
    });
    return {
      messages: formatMessagesForUser(ctx, user, rows, input, search),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }

  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) {
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  const window = fetchMessageWindow(ctx, user, {
    narrow: input.narrow,
    anchor: resolveAnchor(ctx, input),
    numBefore,
    numAfter,
    includeAnchor: input.includeAnchor ?? true,
  });
  return {
    messages: formatMessagesForUser(ctx, user, window.rows, input, search),
    anchor: window.anchor,
    found_anchor: window.foundAnchor,
    found_oldest: window.foundOldest,
    found_newest: window.foundNewest,
    history_limited: window.historyLimited,
  };
}

/** GET /messages/{message_id} */
export function getMessage(
  ctx: AppContext,
  user: UserRow,
  messageId: number,
  options: { applyMarkdown: boolean; allowEmptyTopicName: boolean },
) {
  const row = accessMessage(ctx, user, messageId).message;
  const [message] = formatMessagesForUser(ctx, user, [row], {
    applyMarkdown: options.applyMarkdown,
    allowEmptyTopicName: options.allowEmptyTopicName,
  });
  return { raw_content: row.content, message: message! };
}

/**
 * POST (and GET) /messages/matches_narrow: which of these messages, among
 * those the user received, match the narrow, with search highlights.
 */
export function matchesNarrow(
  ctx: AppContext,
  user: UserRow,
  input: { messageIds: number[]; narrow: NarrowTerm[] },
) {
  const search = searchOfNarrow(input.narrow);
  const rows = messagesMatchingNarrow(ctx, user, input.narrow, input.messageIds, {
    allowHistory: false,
  });
  const messages: Record<string, { match_content: string; match_subject: string }> = {};
  for (const row of rows) {
    messages[String(row.id)] = {
      match_content: highlightContent(row.rendered_content, search),
      match_subject: highlightTopic(row.topic, search),
    };
  }
  return { messages };
}
