import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface ScheduledMessageRow {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  stream_id: number | null;
  /** JSON array of user ids, for direct messages. */
  recipient_ids: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  sending_client: string;
  read_by_sender: number | null;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
  /** 1 for a reminder (POST /reminders), delivered by Notification Bot to its owner. */
  is_reminder: number;
  /** A reminder's message. */
  reminder_target_message_id: number | null;
  /** A reminder's note as its owner wrote it (migration 6). */
  reminder_note: string | null;
}

/** What a save writes: the target, the text and when to send it. */
export interface ScheduledMessageFields {
  type: 'stream' | 'private';
  stream_id: number | null;
  recipient_ids: number[] | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  sending_client: string;
  read_by_sender: boolean | null;
}

const params = (f: ScheduledMessageFields) => [
  f.type,
  f.stream_id,
  f.recipient_ids === null ? null : JSON.stringify(f.recipient_ids),
  f.topic,
  f.content,
  f.rendered_content,
  f.scheduled_timestamp,
  f.sending_client,
  f.read_by_sender === null ? null : f.read_by_sender ? 1 : 0,
];

export function insertScheduledMessage(
  db: Db,
  senderId: number,
  fields: ScheduledMessageFields,
): number {
  const result = stmt(
    db,
    `INSERT INTO scheduled_messages (sender_id, type, stream_id, recipient_ids, topic, content,
       rendered_content, scheduled_timestamp, sending_client, read_by_sender)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(senderId, ...params(fields));
  return Number(result.lastInsertRowid);
}

/** An edit replaces every field and clears an earlier failure: the server will try again. */
export function updateScheduledMessage(db: Db, id: number, fields: ScheduledMessageFields): void {
  stmt(
    db,
    `UPDATE scheduled_messages SET type = ?, stream_id = ?, recipient_ids = ?, topic = ?,
       content = ?, rendered_content = ?, scheduled_timestamp = ?, sending_client = ?,
       read_by_sender = ?, failed = 0, failure_message = NULL
     WHERE id = ?`,
  ).run(...params(fields), id);
}

/** A sender's undelivered scheduled message (reminders are a different feature). */
export const pendingScheduledMessage = (db: Db, senderId: number, id: number) =>
  stmt<[number, number], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE id = ? AND sender_id = ? AND delivered = 0 AND is_reminder = 0`,
  ).get(id, senderId);

/** A sender's undelivered scheduled messages, soonest first. */
export const pendingScheduledMessagesOf = (db: Db, senderId: number) =>
  stmt<[number], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE sender_id = ? AND delivered = 0 AND is_reminder = 0
     ORDER BY scheduled_timestamp, id`,
  ).all(senderId);

/** Every sender's undelivered scheduled messages (not reminders), soonest first. */
export const allPendingScheduledMessages = (db: Db) =>
  stmt<[], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE delivered = 0 AND is_reminder = 0
     ORDER BY scheduled_timestamp, id`,
  ).all();

/** Messages whose time has come and that have not been tried yet (the partial index). */
export const dueScheduledMessages = (db: Db, nowSeconds: number) =>
  stmt<[number], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE scheduled_timestamp <= ? AND delivered = 0 AND failed = 0 AND is_reminder = 0
     ORDER BY scheduled_timestamp, id`,
  ).all(nowSeconds);

export const deleteScheduledMessage = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM scheduled_messages WHERE id = ?').run(id);

export const markScheduledMessageDelivered = (db: Db, id: number, messageId: number) =>
  stmt(
    db,
    'UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? WHERE id = ?',
  ).run(messageId, id);

export const markScheduledMessageFailed = (db: Db, id: number, failureMessage: string) =>
  stmt(db, 'UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?').run(
    failureMessage,
    id,
  );

/** A reminder: a direct message to its owner about a message, with an optional note. */
export interface ReminderFields {
  recipient_ids: number[];
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  sending_client: string;
  target_message_id: number;
  note: string | null;
}

export function insertReminder(db: Db, ownerId: number, fields: ReminderFields): number {
  const result = stmt(
    db,
    `INSERT INTO scheduled_messages (sender_id, type, recipient_ids, topic, content,
       rendered_content, scheduled_timestamp, sending_client, read_by_sender, is_reminder,
       reminder_target_message_id, reminder_note)
     VALUES (?, 'private', ?, '', ?, ?, ?, ?, 0, 1, ?, ?)`,
  ).run(
    ownerId,
    JSON.stringify(fields.recipient_ids),
    fields.content,
    fields.rendered_content,
    fields.scheduled_timestamp,
    fields.sending_client,
    fields.target_message_id,
    fields.note,
  );
  return Number(result.lastInsertRowid);
}

/** An owner's reminder, delivered or not (Zulip's access_reminder does not ask). */
export const reminderOf = (db: Db, ownerId: number, id: number) =>
  stmt<[number, number], ScheduledMessageRow>(
    db,
    'SELECT * FROM scheduled_messages WHERE id = ? AND sender_id = ? AND is_reminder = 1',
  ).get(id, ownerId);

/** An owner's undelivered reminders (failed ones included), soonest first. */
export const pendingRemindersOf = (db: Db, ownerId: number) =>
  stmt<[number], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE sender_id = ? AND delivered = 0 AND is_reminder = 1
     ORDER BY scheduled_timestamp, id`,
  ).all(ownerId);

/** Reminders whose time has come and that have not been tried yet (the partial index). */
export const dueReminders = (db: Db, nowSeconds: number) =>
  stmt<[number], ScheduledMessageRow>(
    db,
    `SELECT * FROM scheduled_messages
     WHERE scheduled_timestamp <= ? AND delivered = 0 AND failed = 0 AND is_reminder = 1
     ORDER BY scheduled_timestamp, id`,
  ).all(nowSeconds);
