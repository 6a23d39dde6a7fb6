import type { Db } from '../db/open.js';
import {
  deleteFlagRow,
  deleteMessageFlagRows,
  flagRowHolders,
  setFlagRow,
} from '../db/queries/flags.js';
import type { MessageRow } from '../db/queries/messages.js';
import { Flag } from '../shared/flags.js';
import { FlagReader } from './reader.js';

/** Mention bits, which a content edit recomputes. */
export const MENTION_BITS =
  Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

/**
 * Sets a user's flags on a message the sparse way (db/DESIGN.md): a row only
 * where the flags differ from the default computed from watermarks and
 * subscription periods, and no row where they match it.
 */
export function storeUserFlags(db: Db, userId: number, message: MessageRow, flags: number): void {
  const fallback = new FlagReader(db, userId).flagsOf(message);
  if (flags === fallback) deleteFlagRow(db, userId, message.id);
  else setFlagRow(db, userId, message.id, flags);
}

/** A user's current flags on one message, overrides included. */
export const currentFlags = (db: Db, userId: number, message: MessageRow) =>
  new FlagReader(db, userId).load([message.id]).flagsOf(message);

/**
 * A new message's flags for its recipients. The default for a message newer
 * than every watermark is read for its sender and unread for everyone else,
 * so rows are written only for recipients whose flags differ from that.
 */
export function storeNewMessageFlags(
  db: Db,
  messageId: number,
  senderId: number,
  flagsByUser: ReadonlyMap<number, number>,
): void {
  for (const [userId, flags] of flagsByUser) {
    const fallback = userId === senderId ? Flag.read : 0;
    if (flags !== fallback) setFlagRow(db, userId, messageId, flags);
  }
}

/**
 * A user who did not receive a channel message but acts on it (reacting)
 * gets a read, historical row, as Zulip creates a UserMessage for them.
 */
export function markHistorical(db: Db, userId: number, messageId: number): void {
  setFlagRow(db, userId, messageId, Flag.read | Flag.historical);
}

/** Who holds a flag row on the message, with its bits (the rest have the default flags). */
export const flagRowsOf = (db: Db, messageId: number) => flagRowHolders(db, messageId);

/** Drops every flag row of a message that is being deleted. */
export function forgetMessageFlags(db: Db, messageId: number): void {
  deleteMessageFlagRows(db, messageId);
}

/** Drops a user's flags on a message they can no longer see (moved away from them). */
export function forgetUserFlags(db: Db, userId: number, messageId: number): void {
  deleteFlagRow(db, userId, messageId);
}
