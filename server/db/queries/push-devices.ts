import type { Db } from '../open.js';
import { stmt, stmtPluck } from '../prepared.js';

/** push_device_tokens.kind, as Zulip numbers them. */
export const PushTokenKind = { apns: 1, fcm: 2 } as const;
export type PushTokenKindValue = (typeof PushTokenKind)[keyof typeof PushTokenKind];

export interface PushTokenRow {
  id: number;
  user_id: number;
  kind: PushTokenKindValue;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

/** Adds a token; one already registered for the user and kind is left as it was. */
export const insertPushToken = (db: Db, token: Omit<PushTokenRow, 'id'>) =>
  stmt(
    db,
    `INSERT INTO push_device_tokens (user_id, kind, token, ios_app_id, last_updated)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, kind, token) DO NOTHING`,
  ).run(token.user_id, token.kind, token.token, token.ios_app_id, token.last_updated).changes;

export const deletePushToken = (db: Db, userId: number, kind: PushTokenKindValue, token: string) =>
  stmt(db, 'DELETE FROM push_device_tokens WHERE user_id = ? AND kind = ? AND token = ?').run(
    userId,
    kind,
    token,
  ).changes;

export const pushTokensOf = (db: Db, userId: number) =>
  stmt<[number], PushTokenRow>(
    db,
    'SELECT * FROM push_device_tokens WHERE user_id = ? ORDER BY id',
  ).all(userId);

export const insertClientDevice = (db: Db, userId: number, dateCreated: number) =>
  Number(
    stmt(db, 'INSERT INTO client_devices (user_id, date_created) VALUES (?, ?)').run(
      userId,
      dateCreated,
    ).lastInsertRowid,
  );

/** Whether the device exists and belongs to the user. */
export const clientDeviceExists = (db: Db, deviceId: number, userId: number) =>
  stmtPluck<[number, number], number>(
    db,
    'SELECT 1 FROM client_devices WHERE id = ? AND user_id = ?',
  ).get(deviceId, userId) !== undefined;

export const deleteClientDevice = (db: Db, deviceId: number) =>
  stmt(db, 'DELETE FROM client_devices WHERE id = ?').run(deviceId).changes;

export const clientDeviceIdsOf = (db: Db, userId: number) =>
  stmtPluck<[number], number>(
    db,
    'SELECT id FROM client_devices WHERE user_id = ? ORDER BY id',
  ).all(userId);
