import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * A database's schema as the migration checks compare it (db/DESIGN.md,
 * "Migrations once shipped"): the objects of `sqlite_master` with their SQL
 * written one canonical way, so two databases built by different paths (an old
 * database migrated, a new one created) compare equal exactly when their
 * tables, columns, indexes, triggers and views are the same.
 */
export interface SchemaObject {
  type: string;
  name: string;
  table: string;
  sql: string;
}

/**
 * SQLite stores each CREATE statement as written, comments and line breaks
 * included (ALTER TABLE ADD COLUMN splices into that text): drop comments
 * outside quotes, fold whitespace, and drop what is left beside punctuation.
 */
export function canonicalSql(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j += 1;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      out += ' ';
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      out += ' ';
    } else {
      out += /\s/.test(c) ? ' ' : c;
      i += 1;
    }
  }
  return collapseOutsideQuotes(out);
}

/** Folds runs of spaces and removes spaces next to ( ) , ; outside quoted text. */
function collapseOutsideQuotes(sql: string): string {
  const parts = sql.split(/('(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])/);
  return parts
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/ +/g, ' ').replace(/ ?([(),;]) ?/g, '$1'),
    )
    .join('')
    .trim();
}

/** Tables SQLite makes for a virtual table (FTS5's _data, _idx, ...): the virtual table stands for them. */
function shadowTables(db: Database.Database): Set<string> {
  const rows = db.prepare("SELECT name FROM pragma_table_list WHERE type = 'shadow'").all() as {
    name: string;
  }[];
  return new Set(rows.map((row) => row.name));
}

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** The objects of the main schema in the order they were created, without SQLite's own. */
function masterRows(db: Database.Database): MasterRow[] {
  const shadows = shadowTables(db);
  const rows = db
    .prepare('SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY rowid')
    .all() as MasterRow[];
  return rows.filter(
    (row) => row.sql !== null && !row.name.startsWith('sqlite_') && !shadows.has(row.name),
  );
}

/** The schema, sorted by type and name, with canonical SQL. */
export function schemaObjects(db: Database.Database): SchemaObject[] {
  return masterRows(db)
    .map((row) => ({
      type: row.type,
      name: row.name,
      table: row.tbl_name,
      sql: canonicalSql(row.sql!),
    }))
    .sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
}

/**
 * The CREATE statements that rebuild this schema in an empty database, in the
 * order SQLite recorded them (a table before its indexes and triggers).
 */
export function schemaStatements(db: Database.Database): string[] {
  return masterRows(db).map((row) => `${row.sql!.trim()};`);
}

const objectKey = (o: SchemaObject) => `${o.type} ${o.name}`;

/**
 * What a migration did to the schema: the objects it removed, added or
 * changed, as one SHA-256. It depends only on that migration's own effect, so
 * a migration keeps its digest when other migrations are added before or
 * after it (as the integrator renumbers parallel branches).
 */
export function schemaChangeDigest(before: SchemaObject[], after: SchemaObject[]): string {
  const old = new Map(before.map((o) => [objectKey(o), o]));
  const now = new Map(after.map((o) => [objectKey(o), o]));
  const lines: string[] = [];
  for (const [key, o] of old) {
    if (now.get(key)?.sql !== o.sql) lines.push(`- ${key} ON ${o.table}: ${o.sql}`);
  }
  for (const [key, o] of now) {
    if (old.get(key)?.sql !== o.sql) lines.push(`+ ${key} ON ${o.table}: ${o.sql}`);
  }
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
