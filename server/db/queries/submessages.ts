import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export function insertSubmessage(
  db: Db,
  row: { message_id: number; sender_id: number; msg_type: string; content: string },
): number {
  return Number(
    stmt(
      db,
      'INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?)',
    ).run(row.message_id, row.sender_id, row.msg_type, row.content).lastInsertRowid,
  );
}

/** The content of the message's first `widget` submessage (its widget declaration). */
export const firstWidgetContent = (db: Db, messageId: number) =>
  stmt<[number], { content: string }>(
    db,
    "SELECT content FROM submessages WHERE message_id = ? AND msg_type = 'widget' ORDER BY id LIMIT 1",
  ).get(messageId)?.content;

export const hasSubmessageFrom = (db: Db, messageId: number, senderId: number) =>
  stmt<[number, number], { one: number }>(
    db,
    'SELECT 1 AS one FROM submessages WHERE message_id = ? AND sender_id = ? LIMIT 1',
  ).get(messageId, senderId) !== undefined;
