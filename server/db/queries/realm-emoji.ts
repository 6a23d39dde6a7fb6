import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface RealmEmojiRow {
  id: number;
  name: string;
  author_id: number | null;
  /** Empty only inside the transaction that adds the emoji (the name derives from the id). */
  file_name: string;
  is_animated: number;
  deactivated: number;
}

const COLUMNS = 'id, name, author_id, file_name, is_animated, deactivated';

export const realmEmojiById = (db: Db, id: number) =>
  stmt<[number], RealmEmojiRow>(db, `SELECT ${COLUMNS} FROM realm_emoji WHERE id = ?`).get(id);

/** The active custom emoji with this name, if any. */
export const activeRealmEmojiByName = (db: Db, name: string) =>
  stmt<[string], RealmEmojiRow>(
    db,
    `SELECT ${COLUMNS} FROM realm_emoji WHERE name = ? AND deactivated = 0 ORDER BY id DESC LIMIT 1`,
  ).get(name);

/** Every custom emoji ever added, deactivated ones included, oldest first. */
export const allRealmEmoji = (db: Db) =>
  stmt<[], RealmEmojiRow>(
    db,
    `SELECT ${COLUMNS} FROM realm_emoji WHERE file_name != '' ORDER BY id`,
  ).all();

export const realmEmojiByFileName = (db: Db, fileName: string) =>
  stmt<[string], RealmEmojiRow>(
    db,
    `SELECT ${COLUMNS} FROM realm_emoji WHERE file_name = ? AND file_name != ''`,
  ).get(fileName);

export const insertRealmEmoji = (db: Db, name: string, authorId: number) =>
  Number(
    stmt(
      db,
      "INSERT INTO realm_emoji (name, author_id, file_name, is_animated) VALUES (?, ?, '', 0)",
    ).run(name, authorId).lastInsertRowid,
  );

export const setRealmEmojiFile = (db: Db, id: number, fileName: string, isAnimated: boolean) =>
  stmt(db, 'UPDATE realm_emoji SET file_name = ?, is_animated = ? WHERE id = ?').run(
    fileName,
    isAnimated ? 1 : 0,
    id,
  );

export const deactivateRealmEmojiRow = (db: Db, id: number) =>
  stmt(db, 'UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(id);
