import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import { unindexMessage } from './search-index.js';

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

/** Stores a new message; returns its id. */
export const insertMessage = (db: Db, m: NewMessage): number => insertMessageRow(db, m).id;

/** Stores a new message; returns its row as stored (a send formats its event from it). */
export function insertMessageRow(db: Db, m: NewMessage): MessageRow {
  // Its search row comes later, in a batch (search-index.ts).
  return stmt<unknown[], MessageRow>(
    db,
    `INSERT INTO messages (sender_id, stream_id, dm_group_id, topic, topic_key, content, rendered_content,
       date_sent, sending_client, is_me_message, has_link, has_image, has_attachment)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  ).get(
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
  )!;
}

export interface ContentUpdate {
  content: string;
  rendered_content: string;
  is_me_message: boolean;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  last_edit_time: number;
}

export const updateMessageContent = (db: Db, id: number, u: ContentUpdate) =>
  stmt(
    db,
    `UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ?, has_link = ?,
       has_image = ?, has_attachment = ?, last_edit_time = ? WHERE id = ?`,
  ).run(
    u.content,
    u.rendered_content,
    u.is_me_message ? 1 : 0,
    u.has_link ? 1 : 0,
    u.has_image ? 1 : 0,
    u.has_attachment ? 1 : 0,
    u.last_edit_time,
    id,
  );

/** Moves one message; `lastMovedTime` null leaves last_moved_time alone (resolving is not a move). */
export const moveMessage = (
  db: Db,
  id: number,
  to: { streamId: number; topic: string; lastMovedTime: number | null },
) =>
  stmt(
    db,
    `UPDATE messages SET stream_id = ?, topic = ?, topic_key = ?,
       last_moved_time = coalesce(?, last_moved_time) WHERE id = ?`,
  ).run(to.streamId, to.topic, topicKey(to.topic), to.lastMovedTime, id);

/**
 * Deletes a message with everything hanging off it (edits, reactions,
 * submessages cascade); its flag rows are the flags area's (forgetMessageFlags).
 */
export function deleteMessageRow(db: Db, id: number): void {
  unindexMessage(db, id);
  stmt(db, 'DELETE FROM attachment_messages WHERE message_id = ?').run(id);
  stmt(db, 'DELETE FROM messages WHERE id = ?').run(id);
}

/** A topic's messages, oldest first (topics compare case-insensitively). */
export const topicMessages = (db: Db, streamId: number, topic: string) =>
  stmt<[number, string], { id: number; date_sent: number }>(
    db,
    'SELECT id, date_sent FROM messages WHERE stream_id = ? AND topic_key = ? ORDER BY id',
  ).all(streamId, topicKey(topic));

/** Up to `limit` of a topic's messages older than `beforeId`, newest first (topic deletion's batches). */
export const topicMessagesBefore = (
  db: Db,
  streamId: number,
  topic: string,
  beforeId: number,
  limit: number,
) =>
  stmt<[number, string, number, number], MessageRow>(
    db,
    `SELECT * FROM messages WHERE stream_id = ? AND topic_key = ? AND id < ?
      ORDER BY id DESC LIMIT ?`,
  ).all(streamId, topicKey(topic), beforeId, limit);

/** The newest message of a topic, if any. */
export const lastTopicMessage = (db: Db, streamId: number, topic: string) =>
  stmt<[number, string], MessageRow>(
    db,
    'SELECT * FROM messages WHERE stream_id = ? AND topic_key = ? ORDER BY id DESC LIMIT 1',
  ).get(streamId, topicKey(topic));

/** The oldest remaining message of a channel (for first_message_id after a deletion). */
export const firstChannelMessageId = (db: Db, streamId: number) =>
  stmt<[number], { id: number | null }>(
    db,
    'SELECT min(id) AS id FROM messages WHERE stream_id = ?',
  ).get(streamId)!.id;

/** Users whose subscription periods cover a channel message: Zulip's UserMessage holders. */
export const channelMessageReceivers = (db: Db, streamId: number, messageId: number) =>
  stmt<[number, number, number], { user_id: number }>(
    db,
    `SELECT user_id FROM subscription_periods
      WHERE stream_id = ? AND first_message_id <= ? AND (last_message_id IS NULL OR last_message_id >= ?)`,
  )
    .all(streamId, messageId, messageId)
    .map((r) => r.user_id);

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

/** Whether the conversation of exactly these participants has any message. */
export const dmConversationHasMessages = (db: Db, memberIds: readonly number[]) =>
  stmt<[string], { x: number }>(
    db,
    `SELECT 1 AS x FROM dm_groups g JOIN messages m ON m.dm_group_id = g.id
      WHERE g.member_key = ? LIMIT 1`,
  ).get([...new Set(memberIds)].sort((a, b) => a - b).join(',')) !== undefined;
