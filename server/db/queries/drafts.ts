import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface DraftRow {
  id: number;
  user_id: number;
  type: '' | 'stream' | 'private';
  /** JSON array: the channel id, or the other participants' user ids. */
  recipients: string;
  topic: string;
  content: string;
  /** UNIX seconds, with the fraction the client gave (ordering keeps it; clients see whole seconds). */
  last_edit_time: number;
}

/** What a create or an edit writes. */
export interface DraftFields {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  lastEditTime: number;
}

export function insertDraft(db: Db, userId: number, f: DraftFields): number {
  const result = stmt(
    db,
    `INSERT INTO drafts (user_id, type, recipients, topic, content, last_edit_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(userId, f.type, JSON.stringify(f.to), f.topic, f.content, f.lastEditTime);
  return Number(result.lastInsertRowid);
}

export const updateDraft = (db: Db, id: number, f: DraftFields) =>
  stmt(
    db,
    `UPDATE drafts SET type = ?, recipients = ?, topic = ?, content = ?, last_edit_time = ?
     WHERE id = ?`,
  ).run(f.type, JSON.stringify(f.to), f.topic, f.content, f.lastEditTime, id);

/** One of the user's drafts (another user's draft is as absent as a missing one). */
export const draftOf = (db: Db, userId: number, id: number) =>
  stmt<[number, number], DraftRow>(db, 'SELECT * FROM drafts WHERE id = ? AND user_id = ?').get(
    id,
    userId,
  );

/** The user's drafts, least recently edited first. */
export const draftsOf = (db: Db, userId: number) =>
  stmt<[number], DraftRow>(
    db,
    'SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time, id',
  ).all(userId);

/** The user's `limit` most recently edited drafts, newest first. */
export const latestDraftsOf = (db: Db, userId: number, limit: number) =>
  stmt<[number, number], DraftRow>(
    db,
    'SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC LIMIT ?',
  ).all(userId, limit);

export const deleteDraft = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM drafts WHERE id = ?').run(id);

export const deleteDraftsOf = (db: Db, userId: number) =>
  stmt(db, 'DELETE FROM drafts WHERE user_id = ?').run(userId);
