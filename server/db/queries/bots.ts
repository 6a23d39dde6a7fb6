import type { Db } from '../open.js';
import { stmt, stmtPluck } from '../prepared.js';
import type { UserRow } from './users.js';

export interface BotServiceRow {
  base_url: string;
  interface: number;
  token: string;
  name: string;
}

export const botServices = (db: Db, botId: number) =>
  stmt<[number], BotServiceRow>(
    db,
    'SELECT base_url, interface, token, name FROM bot_services WHERE bot_id = ?',
  ).all(botId);

export const botConfig = (db: Db, botId: number) =>
  stmt<[number], { key: string; value: string }>(
    db,
    'SELECT key, value FROM bot_config WHERE bot_id = ?',
  ).all(botId);

export const insertBotService = (
  db: Db,
  botId: number,
  service: Omit<BotServiceRow, 'name'> & { name: string },
) =>
  stmt(
    db,
    'INSERT INTO bot_services (bot_id, name, base_url, interface, token) VALUES (?, ?, ?, ?, ?)',
  ).run(botId, service.name, service.base_url, service.interface, service.token);

export const insertBotConfig = (db: Db, botId: number, key: string, value: string) =>
  stmt(db, 'INSERT INTO bot_config (bot_id, key, value) VALUES (?, ?, ?)').run(botId, key, value);

export const allBots = (db: Db) =>
  stmt<[], UserRow>(db, 'SELECT * FROM users WHERE is_bot = 1 ORDER BY id').all();

/** Active human administrators and owners. */
export const activeAdminIds = (db: Db) =>
  stmtPluck<[], number>(
    db,
    'SELECT id FROM users WHERE is_active = 1 AND role <= 200 AND is_bot = 0 ORDER BY id',
  ).all();
