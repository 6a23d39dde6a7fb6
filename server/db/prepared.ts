import type Database from 'better-sqlite3';

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for `sql`, compiled once per database connection.
 * Query modules call this instead of db.prepare so hot paths never re-parse.
 */
export function stmt<P extends unknown[] = unknown[], R = unknown>(
  db: Database.Database,
  sql: string,
): Database.Statement<P, R> {
  let byDb = cache.get(db);
  if (!byDb) {
    byDb = new Map();
    cache.set(db, byDb);
  }
  let statement = byDb.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    byDb.set(sql, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}

const pluckCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Like stmt(), for queries of one column: rows come back as plain values (about twice as fast). */
export function stmtPluck<P extends unknown[] = unknown[], R = unknown>(
  db: Database.Database,
  sql: string,
): Database.Statement<P, R> {
  let byDb = pluckCache.get(db);
  if (!byDb) {
    byDb = new Map();
    pluckCache.set(db, byDb);
  }
  let statement = byDb.get(sql);
  if (!statement) {
    statement = db.prepare(sql).pluck();
    byDb.set(sql, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}
