/**
 * Records, from git history, the schema each shipped Hearth created: for
 * every commit of the main line (first parents from HEAD) that changed
 * server/db/migrations/, the migrations as they were at that commit are
 * bundled and run on an empty database, and what they made is written to
 * test/fixtures/schema-history/<n>-v<user_version>-<commit>.sql: the CREATE
 * statements, the rows the migrations inserted, and the user_version.
 * Commits whose migrations produce the same result as the previous one are
 * skipped. test/db/migration-history.test.ts replays each file, migrates it
 * with today's migrations and expects today's schema.
 *
 * A database in the field was made by one of these: rerun this on main
 * after a merge adds a migration, and commit what it writes.
 * Run: `npx tsx scripts/schema-history.ts [ref]` (default HEAD; the main
 * line is that ref's first parents, so run it on main, not on a branch).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import type { Migration } from '../server/db/migrations/index.js';
import { schemaStatements } from '../server/db/schema-snapshot.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MIGRATIONS_DIR = 'server/db/migrations';
const OUT = path.join(ROOT, 'test/fixtures/schema-history');

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** Writes server/ as it was at `commit` into `dir` (a migration may import beside it). */
function checkOutServer(commit: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive "${commit}" server | tar -x -C "${dir}"`], { cwd: ROOT });
}

/** Runs that commit's migrations (as its migrate.ts did: in order, user_version after each). */
async function schemaAt(commit: string, work: string): Promise<string> {
  const dir = path.join(work, commit);
  checkOutServer(commit, dir);
  const bundle = path.join(dir, 'bundle.mjs');
  await build({
    entryPoints: [path.join(dir, MIGRATIONS_DIR, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    // Packages stay imports: migrations use them for types, if at all.
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
  const { migrations } = (await import(pathToFileURL(bundle).href)) as { migrations: Migration[] };
  const db = new Database(':memory:');
  try {
    db.pragma('foreign_keys = ON');
    db.transaction(() => {
      for (const migration of migrations) {
        migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      }
    })();
    return dump(db);
  } finally {
    db.close();
  }
}

const sqlValue = (value: unknown): string =>
  value === null
    ? 'NULL'
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : `'${String(value).replaceAll("'", "''")}'`;

/** The schema, then the rows of every ordinary table that has any, then the version. */
function dump(db: Database.Database): string {
  const lines = schemaStatements(db);
  const tables = db
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all() as { name: string }[];
  for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
      const columns = Object.keys(row);
      lines.push(
        `INSERT INTO "${name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns
          .map((c) => sqlValue(row[c]))
          .join(', ')});`,
      );
    }
  }
  lines.push(`PRAGMA user_version = ${db.pragma('user_version', { simple: true })};`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const ref = process.argv[2] ?? 'HEAD';
  const commits = git('rev-list', '--first-parent', '--reverse', ref, '--', MIGRATIONS_DIR)
    .split('\n')
    .filter(Boolean);
  const work = mkdtempSync(path.join(tmpdir(), 'hearth-schema-history-'));
  mkdirSync(OUT, { recursive: true });
  for (const old of readdirSync(OUT)) rmSync(path.join(OUT, old));
  let previous = '';
  let index = 0;
  try {
    for (const commit of commits) {
      const schema = await schemaAt(commit, work);
      if (schema === previous) continue;
      previous = schema;
      index += 1;
      const version = /PRAGMA user_version = (\d+);/.exec(schema)![1];
      const [date, subject] = git('show', '-s', '--format=%cs%x00%s', commit).trim().split('\0');
      const short = commit.slice(0, 10);
      const file = `${String(index).padStart(2, '0')}-v${version}-${short}.sql`;
      writeFileSync(
        path.join(OUT, file),
        `-- The schema Hearth at ${short} (${date}) created: ${subject}\n` +
          '-- Written by scripts/schema-history.ts; do not edit.\n' +
          schema,
      );
      console.log(file);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
