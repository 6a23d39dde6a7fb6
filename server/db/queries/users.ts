import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface UserRow {
  id: number;
  delivery_email: string;
  email_key: string;
  full_name: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  password_hash: string | null;
  date_joined_ms: number;
  timezone: string;
  avatar_source: string;
  avatar_version: number;
  is_imported_stub: number;
  is_deleted: number;
  settings: string;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: number;
  last_login_ms: number | null;
}

export interface NewUser {
  delivery_email: string;
  full_name: string;
  role: number;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  password_hash: string | null;
  date_joined_ms: number;
  timezone?: string;
  settings?: string;
  default_sending_stream_id?: number | null;
  default_events_register_stream_id?: number | null;
  default_all_public_streams?: boolean;
}

export const userById = (db: Db, id: number) =>
  stmt<[number], UserRow>(db, 'SELECT * FROM users WHERE id = ?').get(id);

export const userByEmailKey = (db: Db, emailKey: string) =>
  stmt<[string], UserRow>(db, 'SELECT * FROM users WHERE email_key = ?').get(emailKey);

export const userByApiKey = (db: Db, apiKey: string) =>
  stmt<[string], UserRow>(db, 'SELECT * FROM users WHERE api_key = ?').get(apiKey);

export const allUsers = (db: Db) => stmt<[], UserRow>(db, 'SELECT * FROM users ORDER BY id').all();

export const activeUserIds = (db: Db) =>
  stmt<[], { id: number }>(db, 'SELECT id FROM users WHERE is_active = 1')
    .all()
    .map((r) => r.id);

export const countActiveOwners = (db: Db) =>
  stmt<[], { n: number }>(
    db,
    'SELECT count(*) AS n FROM users WHERE role = 100 AND is_active = 1 AND is_bot = 0',
  ).get()!.n;

export function insertUser(db: Db, user: NewUser): number {
  const result = stmt(
    db,
    `INSERT INTO users (delivery_email, email_key, full_name, role, is_bot, bot_type, bot_owner_id,
       api_key, password_hash, date_joined_ms, timezone, settings, default_sending_stream_id,
       default_events_register_stream_id, default_all_public_streams)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    user.delivery_email,
    user.delivery_email.toLowerCase(),
    user.full_name,
    user.role,
    user.is_bot ? 1 : 0,
    user.bot_type,
    user.bot_owner_id,
    user.api_key,
    user.password_hash,
    user.date_joined_ms,
    user.timezone ?? '',
    user.settings ?? '{}',
    user.default_sending_stream_id ?? null,
    user.default_events_register_stream_id ?? null,
    user.default_all_public_streams ? 1 : 0,
  );
  return Number(result.lastInsertRowid);
}

export const setUserFullName = (db: Db, id: number, fullName: string) =>
  stmt(db, 'UPDATE users SET full_name = ? WHERE id = ?').run(fullName, id);

export const setUserRole = (db: Db, id: number, role: number) =>
  stmt(db, 'UPDATE users SET role = ? WHERE id = ?').run(role, id);

export const setUserActive = (db: Db, id: number, active: boolean) =>
  stmt(db, 'UPDATE users SET is_active = ? WHERE id = ?').run(active ? 1 : 0, id);

export const setUserApiKey = (db: Db, id: number, apiKey: string) =>
  stmt(db, 'UPDATE users SET api_key = ? WHERE id = ?').run(apiKey, id);

export const setUserPasswordHash = (db: Db, id: number, hash: string) =>
  stmt(db, 'UPDATE users SET password_hash = ? WHERE id = ?').run(hash, id);

export const setUserSettings = (db: Db, id: number, settingsJson: string) =>
  stmt(db, 'UPDATE users SET settings = ? WHERE id = ?').run(settingsJson, id);

/** The first login of an imported stub or API-created user replaces date_joined (level 475). */
export const recordFirstLogin = (db: Db, id: number, nowMs: number) =>
  stmt(
    db,
    `UPDATE users SET last_login_ms = ?,
       date_joined_ms = CASE WHEN last_login_ms IS NULL AND is_imported_stub = 1 THEN ? ELSE date_joined_ms END,
       is_imported_stub = 0
     WHERE id = ?`,
  ).run(nowMs, nowMs, id);

export const botsOwnedBy = (db: Db, ownerId: number) =>
  stmt<[number], UserRow>(db, 'SELECT * FROM users WHERE bot_owner_id = ? ORDER BY id').all(
    ownerId,
  );

export const setUserTimezone = (db: Db, id: number, timezone: string) =>
  stmt(db, 'UPDATE users SET timezone = ? WHERE id = ?').run(timezone, id);
