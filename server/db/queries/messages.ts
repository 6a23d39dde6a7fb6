import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** The newest message id, or -1 when there are none (GET /users/me, register). */
export const maxMessageId = (db: Db) =>
  stmt<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM messages').get()!.id ?? -1;

export interface NewMessage {
  sender_id: number;
  stream_id: number | null;
  dm_group_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  sending_client: string;
}

export function insertMessage(db: Db, m: NewMessage): number {
  const id = Number(
    stmt(
      db,
      `INSERT INTO messages (sender_id, stream_id, dm_group_id, topic, topic_key, content, rendered_content,
         date_sent, sending_client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      m.sender_id,
      m.stream_id,
      m.dm_group_id,
      m.topic,
      m.topic.toLowerCase(),
      m.content,
      m.rendered_content,
      m.date_sent,
      m.sending_client,
    ).lastInsertRowid,
  );
  stmt(db, 'INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(
    id,
    m.topic,
    m.content,
  );
  return id;
}
