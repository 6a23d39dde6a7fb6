import type { Db } from '../db/open.js';
import {
  type Conversation,
  conversationOf,
  deleteFlagRow,
  deletePlainReadRows,
  flagRows,
  newestMessageIdIn,
  oldestUnreadAbove,
  readThroughOf,
  setFlagRow,
  setReadThrough,
  unreadIdsIn,
} from '../db/queries/flags.js';
import { type MessageRow, messagesByIds } from '../db/queries/messages.js';
import { Flag } from '../shared/flags.js';
import { FlagReader } from './reader.js';

/**
 * Writing per-user flags under the storage design of db/DESIGN.md: a row
 * exists only where a user's flags differ from the default computed from the
 * conversation's read watermark, and marking messages read moves the
 * watermark up as far as the oldest message still unread.
 */

/** One message whose flag is about to change, with what is needed to store it. */
export interface FlagChange {
  message: MessageRow;
  before: number;
  after: number;
  /** Whether an override row exists now. */
  hasRow: boolean;
  /** Got the message when it was sent (a DM member, or subscribed then); else it is history. */
  received: boolean;
  /** The flags the message has without a row, under the current watermark. */
  fallback: number;
}

/**
 * The messages whose `bit` would change by setting (`add`) or clearing it,
 * in the order given (each message once). Messages the user did not receive
 * read as `read | historical`, so a row written for them keeps `historical`.
 */
export function planFlagChange(
  db: Db,
  userId: number,
  messages: readonly MessageRow[],
  bit: number,
  add: boolean,
): FlagChange[] {
  const rows = flagRows(
    db,
    userId,
    messages.map((m) => m.id),
  );
  // No rows loaded: the reader answers with the watermark default.
  const defaults = new FlagReader(db, userId);
  const changes: FlagChange[] = [];
  const seen = new Set<number>();
  for (const message of messages) {
    if (seen.has(message.id)) continue;
    seen.add(message.id);
    const fallback = defaults.flagsOf(message);
    const row = rows.get(message.id);
    const before = row ?? fallback;
    const after = add ? before | bit : before & ~bit;
    if (after === before) continue;
    changes.push({
      message,
      before,
      after,
      hasRow: row !== undefined,
      received: defaults.received(message),
      fallback,
    });
  }
  return changes;
}

/**
 * Stores planned changes: a row where the new flags differ from the
 * default, none where they equal it. Adding `read` then advances the
 * watermarks of the conversations involved.
 */
export function applyFlagChanges(db: Db, userId: number, changes: readonly FlagChange[]): void {
  const advance = new Map<string, Conversation>();
  for (const change of changes) {
    writeFlags(db, userId, change.message.id, change.after, change.fallback, change.hasRow);
    if (change.after & Flag.read && !(change.before & Flag.read)) {
      const conversation = conversationOf(change.message);
      advance.set(`${conversation.kind}:${conversation.id}`, conversation);
    }
  }
  for (const conversation of advance.values()) advanceWatermark(db, userId, conversation);
}

function writeFlags(
  db: Db,
  userId: number,
  messageId: number,
  flags: number,
  fallback: number,
  rowExists: boolean,
): void {
  if (flags !== fallback) setFlagRow(db, userId, messageId, flags);
  else if (rowExists) deleteFlagRow(db, userId, messageId);
}

/**
 * Moves the watermark up to just below the oldest message still unread in
 * the conversation (or to its newest message) and drops the rows that now
 * merely repeat the default "read".
 */
export function advanceWatermark(db: Db, userId: number, conversation: Conversation): void {
  const current = readThroughOf(db, userId, conversation);
  if (current === undefined) return;
  const oldestUnread = oldestUnreadAbove(db, userId, conversation, current);
  const target =
    oldestUnread !== undefined
      ? oldestUnread - 1
      : (newestMessageIdIn(db, conversation) ?? current);
  if (target <= current) return;
  setReadThrough(db, userId, conversation, target);
  deletePlainReadRows(db, userId, conversation, current, target);
}

/**
 * Marks every unread message of a conversation (or of one topic of a
 * channel) read; returns their ids, ascending. A whole conversation moves
 * its watermark to the newest message without writing a row per message.
 */
export function markConversationRead(
  db: Db,
  userId: number,
  conversation: Conversation,
  topicKey: string | null = null,
): number[] {
  const current = readThroughOf(db, userId, conversation);
  // Without an active subscription only stray unread rows can remain.
  const ids = unreadIdsIn(db, userId, conversation, current ?? Number.MAX_SAFE_INTEGER, topicKey);
  if (ids.length === 0) return [];
  const changes = planFlagChange(db, userId, messagesByIds(db, ids), Flag.read, true);
  if (topicKey !== null || current === undefined) {
    applyFlagChanges(db, userId, changes);
    return ids;
  }
  const newest = newestMessageIdIn(db, conversation) ?? current;
  for (const change of changes) {
    if (!change.hasRow) continue;
    // Below the new watermark the default is read (read|historical if not received).
    const fallback = change.received ? Flag.read : Flag.read | Flag.historical;
    writeFlags(db, userId, change.message.id, change.after, fallback, true);
  }
  if (newest > current) {
    setReadThrough(db, userId, conversation, newest);
    deletePlainReadRows(db, userId, conversation, current, newest);
  }
  return ids;
}
