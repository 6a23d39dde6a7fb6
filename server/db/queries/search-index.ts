import type { Db } from '../open.js';
import { stmt, stmtPluck } from '../prepared.js';

/**
 * The search index (messages_fts) trails the messages table: a send stores
 * its message without a search row, and rows are added in batches, in id
 * order, by the search indexing job and by any search before it reads the
 * index (db/DESIGN.md, "Search"). Zulip does the same (its fts_update_log
 * is drained by a separate worker); here a search never misses a message.
 *
 * Why: an FTS5 insert in every send's transaction made each commit write a
 * new index segment, about a third of the pages a send wrote, and paid
 * FTS5's per-transaction bookkeeping per message.
 *
 * What is indexed is derived from `messages` alone, so nothing records the
 * backlog: it is every message above the highest id in the index. That
 * holds because rows are only ever added above it in id order, and an edit
 * or a move re-indexes only messages already indexed (the others get their
 * current text when their turn comes).
 */

/** Messages indexed per transaction: a batch held the event loop 3–14 ms (fsync included). */
export const SEARCH_INDEX_BATCH = 500;

/** The highest message id the index holds a row for (0 when it is empty). */
const indexedThrough = (db: Db): number =>
  (stmtPluck<[], number>(db, 'SELECT rowid FROM messages_fts ORDER BY rowid DESC LIMIT 1').get() ??
    0) as number;

const insertRow = (db: Db, id: number, topic: string, renderedHtml: string) =>
  stmt(db, 'INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(
    id,
    topic,
    searchableText(renderedHtml),
  );

const deleteRow = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM messages_fts WHERE rowid = ?').run(id);

/**
 * Indexes up to `limit` messages of the backlog, oldest first, in one
 * transaction. Returns how many it indexed: fewer than `limit` means the
 * index has caught up.
 */
export function indexSearchBacklog(db: Db, limit = SEARCH_INDEX_BATCH): number {
  const backlog = stmt<[number, number], { id: number; topic: string; rendered_content: string }>(
    db,
    'SELECT id, topic, rendered_content FROM messages WHERE id > ? ORDER BY id LIMIT ?',
  ).all(indexedThrough(db), limit);
  if (backlog.length === 0) return 0;
  const index = db.transaction(() => {
    for (const m of backlog) insertRow(db, m.id, m.topic, m.rendered_content);
  });
  if (db.inTransaction) index();
  else commitWithoutWaitingForDisk(db, index);
  return backlog.length;
}

/**
 * Runs a transaction of derived rows without an fsync at its commit. The
 * index is rebuilt from the messages if a power cut loses it (the backlog
 * is whatever it lacks), so a batch need not wait for the disk, and an
 * fsync on the event loop (often milliseconds, sometimes a hundred on a
 * busy disk) would hold every send and poll meanwhile. The next durable
 * commit's sync covers these WAL frames too.
 */
function commitWithoutWaitingForDisk(db: Db, transaction: () => void): void {
  const level = db.pragma('synchronous', { simple: true }) as number;
  db.exec('PRAGMA synchronous = NORMAL');
  try {
    transaction();
  } finally {
    db.exec(`PRAGMA synchronous = ${level}`);
  }
}

/** Indexes the whole backlog (before a search reads the index). */
export function catchUpSearchIndex(db: Db): void {
  while (indexSearchBacklog(db) === SEARCH_INDEX_BATCH) {
    // Another batch: each is its own transaction.
  }
}

/** A message's new text or topic, for a message the index already holds. */
export function reindexMessage(db: Db, id: number, topic: string, renderedHtml: string): void {
  searchReindexer(db)(id, topic, renderedHtml);
}

/**
 * reindexMessage for many messages in one transaction (a topic move): the
 * index's newest row is read once, not once per message. Re-indexing only
 * replaces rows at or below it, so it stays where it is meanwhile.
 */
export function searchReindexer(db: Db): (id: number, topic: string, renderedHtml: string) => void {
  const through = indexedThrough(db);
  return (id, topic, renderedHtml) => {
    if (id > through) return;
    deleteRow(db, id);
    insertRow(db, id, topic, renderedHtml);
  };
}

/** Drops a deleted message's row, if it has one yet. */
export function unindexMessage(db: Db, id: number): void {
  if (id <= indexedThrough(db)) deleteRow(db, id);
}

/** Plain text of rendered HTML: what search matches in a message's body. */
export function searchableText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
