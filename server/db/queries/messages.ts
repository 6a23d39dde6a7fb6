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
  is_me_message?: boolean;
  has_link?: boolean;
  has_image?: boolean;
  has_attachment?: boolean;
  /** Text indexed for search; defaults to the raw content. */
  search_body?: string;
}

export interface MessageRow {
  id: number;
  sender_id: number;
  stream_id: number | null;
  dm_group_id: number | null;
  topic: string;
  topic_key: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  last_edit_time: number | null;
  last_moved_time: number | null;
  sending_client: string;
  is_me_message: number;
  has_link: number;
  has_image: number;
  has_attachment: number;
}

export const messageById = (db: Db, id: number) =>
  stmt<[number], MessageRow>(db, 'SELECT * FROM messages WHERE id = ?').get(id);

/** Rows for many ids in one prepared statement (ids passed as a JSON array). */
export const messagesByIds = (db: Db, ids: readonly number[]) =>
  stmt<[string], MessageRow>(
    db,
    'SELECT m.* FROM json_each(?) j JOIN messages m ON m.id = j.value ORDER BY m.id',
  ).all(JSON.stringify(ids));

export function insertMessage(db: Db, m: NewMessage): number {
  const id = Number(
    stmt(
      db,
      `INSERT INTO messages (sender_id, stream_id, dm_group_id, topic, topic_key, content, rendered_content,
         date_sent, sending_client, is_me_message, has_link, has_image, has_attachment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      m.is_me_message ? 1 : 0,
      m.has_link ? 1 : 0,
      m.has_image ? 1 : 0,
      m.has_attachment ? 1 : 0,
    ).lastInsertRowid,
  );
  stmt(db, 'INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(
    id,
    m.topic,
    m.content,
  );
  return id;
}

/** Case-folded topic key; Zulip compares topics case-insensitively. */
export const topicKey = (topic: string) => topic.toLowerCase();

export interface ReactionRow {
  message_id: number;
  user_id: number;
  reaction_type: string;
  emoji_code: string;
  emoji_name: string;
  id: number;
}

export const reactionsFor = (db: Db, messageIds: readonly number[]) =>
  stmt<[string], ReactionRow>(
    db,
    'SELECT r.* FROM json_each(?) j JOIN reactions r ON r.message_id = j.value ORDER BY r.message_id, r.id',
  ).all(JSON.stringify(messageIds));

export interface SubmessageRow {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export const submessagesFor = (db: Db, messageIds: readonly number[]) =>
  stmt<[string], SubmessageRow>(
    db,
    'SELECT s.* FROM json_each(?) j JOIN submessages s ON s.message_id = j.value ORDER BY s.id',
  ).all(JSON.stringify(messageIds));

export const dmGroupMemberIds = (db: Db, dmGroupId: number) =>
  stmt<[number], { user_id: number }>(
    db,
    'SELECT user_id FROM dm_group_members WHERE dm_group_id = ? ORDER BY user_id',
  )
    .all(dmGroupId)
    .map((r) => r.user_id);
