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
