import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface SavedSnippetRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  /** UNIX seconds. */
  date_created: number;
}

export function insertSavedSnippet(
  db: Db,
  userId: number,
  title: string,
  content: string,
  dateCreated: number,
): number {
  const result = stmt(
    db,
    'INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?)',
  ).run(userId, title, content, dateCreated);
  return Number(result.lastInsertRowid);
}

/** One of the user's snippets (another user's snippet is as absent as a missing one). */
export const savedSnippetOf = (db: Db, userId: number, id: number) =>
  stmt<[number, number], SavedSnippetRow>(
    db,
    'SELECT * FROM saved_snippets WHERE id = ? AND user_id = ?',
  ).get(id, userId);

/** The user's snippets, oldest first. */
export const savedSnippetsOf = (db: Db, userId: number) =>
  stmt<[number], SavedSnippetRow>(
    db,
    'SELECT * FROM saved_snippets WHERE user_id = ? ORDER BY id',
  ).all(userId);

export const updateSavedSnippet = (db: Db, id: number, title: string, content: string) =>
  stmt(db, 'UPDATE saved_snippets SET title = ?, content = ? WHERE id = ?').run(title, content, id);

export const deleteSavedSnippet = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM saved_snippets WHERE id = ?').run(id);
