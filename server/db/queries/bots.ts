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

/** Ids of the active outgoing-webhook bots. */
export const activeOutgoingWebhookBotIds = (db: Db, outgoingWebhookType: number) =>
  stmtPluck<[number], number>(
    db,
    'SELECT id FROM users WHERE is_bot = 1 AND is_active = 1 AND bot_type = ?',
  ).all(outgoingWebhookType);

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

export const setBotOwner = (db: Db, botId: number, ownerId: number) =>
  stmt(db, 'UPDATE users SET bot_owner_id = ? WHERE id = ? AND is_bot = 1').run(ownerId, botId);

export const setDefaultSendingStream = (db: Db, botId: number, streamId: number | null) =>
  stmt(db, 'UPDATE users SET default_sending_stream_id = ? WHERE id = ?').run(streamId, botId);

export const setDefaultEventsRegisterStream = (db: Db, botId: number, streamId: number | null) =>
  stmt(db, 'UPDATE users SET default_events_register_stream_id = ? WHERE id = ?').run(
    streamId,
    botId,
  );

export const setDefaultAllPublicStreams = (db: Db, botId: number, value: boolean) =>
  stmt(db, 'UPDATE users SET default_all_public_streams = ? WHERE id = ?').run(
    value ? 1 : 0,
    botId,
  );

/** A bot's one service (Zulip keeps one per bot). */
export const updateBotService = (db: Db, botId: number, baseUrl: string, iface: number) =>
  stmt(
    db,
    `UPDATE bot_services SET base_url = ?, interface = ?
     WHERE id = (SELECT min(id) FROM bot_services WHERE bot_id = ?)`,
  ).run(baseUrl, iface, botId);

export const upsertBotConfig = (db: Db, botId: number, key: string, value: string) =>
  stmt(
    db,
    `INSERT INTO bot_config (bot_id, key, value) VALUES (?, ?, ?)
     ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value`,
  ).run(botId, key, value);

/** The caller's active bots, oldest first (GET /bots). */
export const activeBotsOwnedBy = (db: Db, ownerId: number) =>
  stmt<[number], UserRow>(
    db,
    `SELECT * FROM users WHERE is_bot = 1 AND is_active = 1 AND bot_owner_id = ?
     ORDER BY date_joined_ms, id`,
  ).all(ownerId);

/** Whether an active account (person or bot) has exactly this name. */
export const activeAccountNamed = (db: Db, fullName: string) =>
  stmt<[string], { id: number }>(
    db,
    'SELECT id FROM users WHERE is_active = 1 AND full_name = ? LIMIT 1',
  ).get(fullName) !== undefined;
