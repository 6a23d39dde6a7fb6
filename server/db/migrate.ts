import type Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';

export class DatabaseTooNewError extends Error {}

/** The schema version this build writes (a database above it was written by a newer Hearth). */
export function latestSchemaVersion(): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
}

const brokenForeignKeys = (db: Database.Database) =>
  (db.pragma('foreign_key_check') as unknown[]).length;

/**
 * Applies pending migrations in one transaction and records the schema
 * version in PRAGMA user_version. A database written by a newer Hearth is
 * refused rather than silently misread.
 */
export function migrate(db: Database.Database): { from: number; to: number } {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = latestSchemaVersion();
  if (current > latest) {
    throw new DatabaseTooNewError(
      `This database has schema version ${current}, but this Hearth only knows versions up to ${latest}. ` +
        'It was written by a newer Hearth; upgrade Hearth or use another data directory.',
    );
  }
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return { from: current, to: current };
  // PRAGMA foreign_keys is a no-op inside a transaction, so it is set around it.
  const foreignKeysOff = pending.some((m) => m.foreignKeysOff);
  const foreignKeysWereOn = db.pragma('foreign_keys', { simple: true }) === 1;
  if (foreignKeysOff) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      // Rows an older build left broken are not the migration's doing: only new breakage stops it.
      const brokenBefore = foreignKeysOff ? brokenForeignKeys(db) : 0;
      for (const migration of pending) {
        migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      }
      if (foreignKeysOff && brokenForeignKeys(db) > brokenBefore) {
        throw new Error('A migration left rows whose foreign keys point nowhere');
      }
    })();
  } finally {
    if (foreignKeysOff && foreignKeysWereOn) db.pragma('foreign_keys = ON');
  }
  return { from: current, to: latest };
}
