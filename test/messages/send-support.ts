import { flagRows } from '../../server/db/queries/flags.js';
import { type MessageRow, messageById } from '../../server/db/queries/messages.js';
import { getRealm, setRealmSettings } from '../../server/db/queries/realm.js';
import { catchUpSearchIndex } from '../../server/db/queries/search-index.js';
import { setUserSettings, userById } from '../../server/db/queries/users.js';
import { FlagReader } from '../../server/flags/reader.js';
import { flagNames } from '../../server/shared/flags.js';
import type { TestServer } from '../helpers/server.js';

export const message = (t: TestServer, id: number): MessageRow | undefined =>
  messageById(t.server.ctx.db, id);

/** The user's flags on a message as the API names them (overrides and defaults alike). */
export function flagsOf(t: TestServer, userId: number, messageId: number): string[] {
  const row = messageById(t.server.ctx.db, messageId);
  if (!row) throw new Error(`no message ${messageId}`);
  return flagNames(new FlagReader(t.server.ctx.db, userId).load([messageId]).flagsOf(row));
}

/** The stored override row, if any (undefined = the computed default applies). */
export const flagRow = (t: TestServer, userId: number, messageId: number) =>
  flagRows(t.server.ctx.db, userId, [messageId]).get(messageId);

export function setRealm(t: TestServer, overrides: Record<string, unknown>): void {
  const db = t.server.ctx.db;
  const current = JSON.parse(getRealm(db)!.settings) as Record<string, unknown>;
  setRealmSettings(db, JSON.stringify({ ...current, ...overrides }));
}

export function setUser(t: TestServer, userId: number, overrides: Record<string, unknown>): void {
  const db = t.server.ctx.db;
  const current = JSON.parse(userById(db, userId)!.settings) as Record<string, unknown>;
  setUserSettings(db, userId, JSON.stringify({ ...current, ...overrides }));
}

/** A topic's messages, oldest first, straight from storage. */
export const topicRows = (t: TestServer, streamId: number, topic: string): MessageRow[] =>
  t.server.ctx.db
    .prepare('SELECT * FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id')
    .all(streamId, topic) as MessageRow[];

/** Message ids whose search row matches an FTS5 query, once the index has caught up with the sends. */
export const searchIds = (t: TestServer, query: string): number[] => {
  catchUpSearchIndex(t.server.ctx.db);
  return (
    t.server.ctx.db
      .prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid')
      .all(query) as Array<{ rowid: number }>
  ).map((r) => r.rowid);
};

/** Stored edit-history rows of a message, oldest first. */
export const editRows = (t: TestServer, messageId: number) =>
  t.server.ctx.db
    .prepare('SELECT * FROM message_edits WHERE message_id = ? ORDER BY id')
    .all(messageId) as Array<Record<string, unknown>>;

/** A clock tests can move; the server reads it through startTestServer({ now }). */
export class FakeClock {
  ms = Date.UTC(2025, 0, 6, 12, 0, 0);
  now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}
