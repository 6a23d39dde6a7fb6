/**
 * Detects whether a request changed stored data. `total_changes()` counts
 * every row the server's connection wrote, so an unchanged count proves
 * nothing was written; when it moved (a rolled-back write moves it too), the
 * tables' contents decide. The search index (messages_fts and its shadow
 * tables) is left out: it is derived from the messages, and a search or
 * the indexing job adds the rows of earlier sends to it at any time
 * (server/db/queries/search-index.ts).
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

export function tableDigest(db: Database.Database): string {
  const hash = createHash('sha256');
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  for (const name of tables) {
    hash.update(`\u0001${name}\u0002`);
    for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate()) {
      hash.update(JSON.stringify(row));
    }
  }
  return hash.digest('hex');
}

export class ChangeWatch {
  private changes = -1;
  private digest = '';

  constructor(private readonly db: Database.Database) {}

  private totalChanges(): number {
    return this.db.prepare('SELECT total_changes()').pluck().get() as number;
  }

  /** Call before a request: remembers the data as it is now. */
  before(): void {
    const changes = this.totalChanges();
    if (changes !== this.changes) {
      this.changes = changes;
      this.digest = tableDigest(this.db);
    }
  }

  /** After the request: whether any table's contents differ from `before()`. */
  changed(): boolean {
    const changes = this.totalChanges();
    if (changes === this.changes) return false;
    const digest = tableDigest(this.db);
    this.changes = changes;
    const differs = digest !== this.digest;
    this.digest = digest;
    return differs;
  }
}
