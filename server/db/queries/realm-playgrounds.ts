import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface PlaygroundRow {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

/** Every code playground, oldest first. */
export const allPlaygrounds = (db: Db) =>
  stmt<[], PlaygroundRow>(
    db,
    'SELECT id, name, pygments_language, url_template FROM realm_playgrounds ORDER BY id',
  ).all();

export const playgroundById = (db: Db, id: number) =>
  stmt<[number], PlaygroundRow>(
    db,
    'SELECT id, name, pygments_language, url_template FROM realm_playgrounds WHERE id = ?',
  ).get(id);

/** Whether a playground with this language and name exists (they are unique together). */
export const playgroundExists = (db: Db, pygmentsLanguage: string, name: string) =>
  stmt<[string, string], { x: number }>(
    db,
    'SELECT 1 AS x FROM realm_playgrounds WHERE pygments_language = ? AND name = ?',
  ).get(pygmentsLanguage, name) !== undefined;

export const insertPlayground = (db: Db, row: Omit<PlaygroundRow, 'id'>): number =>
  Number(
    stmt(
      db,
      'INSERT INTO realm_playgrounds (name, pygments_language, url_template) VALUES (?, ?, ?)',
    ).run(row.name, row.pygments_language, row.url_template).lastInsertRowid,
  );

export const deletePlayground = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM realm_playgrounds WHERE id = ?').run(id);
