import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** A browser's login (auth/browser-session.ts); the token itself is never stored. */
export interface BrowserSessionRow {
  id: number;
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  csrf_token: string;
  user_id: number;
  created_ms: number;
  last_used_ms: number;
}

export function insertBrowserSession(db: Db, row: Omit<BrowserSessionRow, 'id'>): number {
  const result = stmt(
    db,
    `INSERT INTO browser_sessions (token_hash, csrf_token, user_id, created_ms, last_used_ms)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(row.token_hash, row.csrf_token, row.user_id, row.created_ms, row.last_used_ms);
  return Number(result.lastInsertRowid);
}

export const browserSessionByTokenHash = (db: Db, tokenHash: string) =>
  stmt<[string], BrowserSessionRow>(db, 'SELECT * FROM browser_sessions WHERE token_hash = ?').get(
    tokenHash,
  );

export function touchBrowserSession(db: Db, id: number, nowMs: number): void {
  stmt(db, 'UPDATE browser_sessions SET last_used_ms = ? WHERE id = ?').run(nowMs, id);
}

export function deleteBrowserSession(db: Db, id: number): void {
  stmt(db, 'DELETE FROM browser_sessions WHERE id = ?').run(id);
}

/** Sessions unused since `idleBeforeMs` or made before `createdBeforeMs`. */
export function deleteExpiredBrowserSessions(
  db: Db,
  idleBeforeMs: number,
  createdBeforeMs: number,
): void {
  stmt(db, 'DELETE FROM browser_sessions WHERE last_used_ms <= ? OR created_ms <= ?').run(
    idleBeforeMs,
    createdBeforeMs,
  );
}
