import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** One stored edit-history snapshot; null columns are the fields the edit did not change. */
export interface MessageEditRow {
  id: number;
  message_id: number;
  user_id: number | null;
  timestamp: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  topic: string | null;
  prev_stream_id: number | null;
  stream_id: number | null;
  content_html_diff: string | null;
}

export type NewMessageEdit = Omit<MessageEditRow, 'id'>;

export const insertMessageEdit = (db: Db, e: NewMessageEdit) =>
  stmt(
    db,
    `INSERT INTO message_edits (message_id, user_id, timestamp, prev_content, prev_rendered_content,
       prev_topic, topic, prev_stream_id, stream_id, content_html_diff)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.message_id,
    e.user_id,
    e.timestamp,
    e.prev_content,
    e.prev_rendered_content,
    e.prev_topic,
    e.topic,
    e.prev_stream_id,
    e.stream_id,
    e.content_html_diff,
  );

/** A message's snapshots, oldest first. */
export const messageEdits = (db: Db, messageId: number) =>
  stmt<[number], MessageEditRow>(
    db,
    'SELECT * FROM message_edits WHERE message_id = ? ORDER BY id',
  ).all(messageId);

/** The snapshot fields GET /messages shows as edit_history. */
export type EditSnapshotRow = Omit<MessageEditRow, 'id' | 'content_html_diff'>;

/** Edit snapshots of these messages, newest first per message. */
export const editSnapshotsFor = (db: Db, messageIds: readonly number[]) =>
  stmt<[string], EditSnapshotRow>(
    db,
    `SELECT e.message_id, e.user_id, e.timestamp, e.prev_content, e.prev_rendered_content,
            e.prev_topic, e.topic, e.prev_stream_id, e.stream_id
       FROM json_each(?) j JOIN message_edits e ON e.message_id = j.value
      ORDER BY e.message_id, e.id DESC`,
  ).all(JSON.stringify(messageIds));
