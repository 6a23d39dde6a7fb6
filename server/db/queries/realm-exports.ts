import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export const RealmExportStatus = {
  requested: 1,
  started: 2,
  succeeded: 3,
  failed: 4,
  deleted: 5,
} as const;

export interface RealmExportRow {
  id: number;
  acting_user_id: number;
  export_type: number;
  status: number;
  date_requested: number;
  date_started: number | null;
  date_succeeded: number | null;
  date_failed: number | null;
  date_deleted: number | null;
  token: string;
  file_name: string | null;
  failure_reason: string | null;
}

export const realmExportRows = (db: Db) =>
  stmt<[], RealmExportRow>(db, 'SELECT * FROM realm_exports ORDER BY id').all();

export const realmExportById = (db: Db, id: number) =>
  stmt<[number], RealmExportRow>(db, 'SELECT * FROM realm_exports WHERE id = ?').get(id);

export const countExportsRequestedSince = (db: Db, since: number) =>
  stmt<[number], { n: number }>(
    db,
    'SELECT count(*) AS n FROM realm_exports WHERE date_requested >= ?',
  ).get(since)!.n;

export const insertRealmExport = (
  db: Db,
  row: { acting_user_id: number; export_type: number; date_requested: number; token: string },
) =>
  Number(
    stmt(
      db,
      `INSERT INTO realm_exports (acting_user_id, export_type, status, date_requested, token)
       VALUES (?, ?, 1, ?, ?)`,
    ).run(row.acting_user_id, row.export_type, row.date_requested, row.token).lastInsertRowid,
  );

export const markExportStarted = (db: Db, id: number, at: number) =>
  stmt(db, 'UPDATE realm_exports SET status = 2, date_started = ? WHERE id = ?').run(at, id);

export const markExportSucceeded = (db: Db, id: number, at: number, fileName: string) =>
  stmt(
    db,
    'UPDATE realm_exports SET status = 3, date_succeeded = ?, file_name = ? WHERE id = ?',
  ).run(at, fileName, id);

export const markExportFailed = (db: Db, id: number, at: number, reason: string) =>
  stmt(
    db,
    'UPDATE realm_exports SET status = 4, date_failed = ?, failure_reason = ? WHERE id = ?',
  ).run(at, reason, id);

export const markExportDeleted = (db: Db, id: number, at: number) =>
  stmt(db, 'UPDATE realm_exports SET status = 5, date_deleted = ? WHERE id = ?').run(at, id);

/** Exports left unfinished by a server that stopped: they will never finish. */
export const failUnfinishedExports = (db: Db, at: number) =>
  stmt(
    db,
    "UPDATE realm_exports SET status = 4, date_failed = ?, failure_reason = 'the server stopped' WHERE status IN (1, 2)",
  ).run(at);
