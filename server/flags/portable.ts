import type { Db } from '../db/open.js';
import { flagRowsForMessages, setFlagRow } from '../db/queries/flags.js';

/**
 * Flag rows as a whole organization's data moves in or out (portability/):
 * the export reads every override row of a batch of messages, the import
 * writes the rows it derived from Zulip's per-recipient rows. Both go
 * through here so flag rows keep one owner (db/DESIGN.md).
 */
export function overrideRowsForMessages(db: Db, low: number, high: number) {
  return flagRowsForMessages(db, low, high);
}

/** Upserts one imported row (ON CONFLICT, so the unread-count triggers fire). */
export function writeImportedFlagRow(db: Db, userId: number, messageId: number, flags: number) {
  setFlagRow(db, userId, messageId, flags);
}
