import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface RealmEmojiRow {
  id: number;
  name: string;
  deactivated: number;
}

export const realmEmojiById = (db: Db, id: number) =>
  stmt<[number], RealmEmojiRow>(
    db,
    'SELECT id, name, deactivated FROM realm_emoji WHERE id = ?',
  ).get(id);

/** The active custom emoji with this name, if any. */
export const activeRealmEmojiByName = (db: Db, name: string) =>
  stmt<[string], RealmEmojiRow>(
    db,
    'SELECT id, name, deactivated FROM realm_emoji WHERE name = ? AND deactivated = 0 ORDER BY id DESC LIMIT 1',
  ).get(name);
