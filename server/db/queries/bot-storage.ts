import type { Db } from '../open.js';
import { stmt, stmtPluck } from '../prepared.js';

export interface BotStorageEntry {
  key: string;
  value: string;
}

/** Every entry of a bot's storage, by key. */
export const botStorageEntries = (db: Db, botId: number) =>
  stmt<[number], BotStorageEntry>(
    db,
    'SELECT key, value FROM bot_storage WHERE bot_id = ? ORDER BY key',
  ).all(botId);

export const botStorageValue = (db: Db, botId: number, key: string) =>
  stmtPluck<[number, string], string>(
    db,
    'SELECT value FROM bot_storage WHERE bot_id = ? AND key = ?',
  ).get(botId, key);

/** The stored size of one entry (0 when absent). */
export const botStorageEntrySize = (db: Db, botId: number, key: string) =>
  stmtPluck<[number, string], number>(
    db,
    'SELECT size FROM bot_storage WHERE bot_id = ? AND key = ?',
  ).get(botId, key) ?? 0;

/** The sum of a bot's entry sizes. */
export const botStorageSize = (db: Db, botId: number) =>
  stmtPluck<[number], number>(
    db,
    'SELECT COALESCE(SUM(size), 0) FROM bot_storage WHERE bot_id = ?',
  ).get(botId) ?? 0;

export const putBotStorageEntry = (
  db: Db,
  botId: number,
  entry: BotStorageEntry & { size: number },
) =>
  stmt(
    db,
    `INSERT INTO bot_storage (bot_id, key, value, size) VALUES (?, ?, ?, ?)
     ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value, size = excluded.size`,
  ).run(botId, entry.key, entry.value, entry.size);

export const deleteBotStorageEntry = (db: Db, botId: number, key: string) =>
  stmt(db, 'DELETE FROM bot_storage WHERE bot_id = ? AND key = ?').run(botId, key).changes;

export const deleteBotStorage = (db: Db, botId: number) =>
  stmt(db, 'DELETE FROM bot_storage WHERE bot_id = ?').run(botId).changes;
