import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
}

/** Every linkifier in the order they apply (ties by id, as Zulip orders them). */
export const allLinkifiers = (db: Db) =>
  stmt<[], LinkifierRow>(
    db,
    'SELECT id, pattern, url_template FROM realm_linkifiers ORDER BY sort_order, id',
  ).all();

export const linkifierById = (db: Db, id: number) =>
  stmt<[number], LinkifierRow>(
    db,
    'SELECT id, pattern, url_template FROM realm_linkifiers WHERE id = ?',
  ).get(id);

/** The linkifier with this pattern other than `exceptId` (patterns are unique). */
export const otherLinkifierWithPattern = (db: Db, pattern: string, exceptId: number) =>
  stmt<[string, number], { id: number }>(
    db,
    'SELECT id FROM realm_linkifiers WHERE pattern = ? AND id != ?',
  ).get(pattern, exceptId) !== undefined;

/** A new linkifier applies after every existing one. */
export const insertLinkifier = (db: Db, pattern: string, urlTemplate: string): number =>
  Number(
    stmt(
      db,
      `INSERT INTO realm_linkifiers (pattern, url_template, sort_order)
       VALUES (?, ?, (SELECT COALESCE(MAX(sort_order) + 1, 0) FROM realm_linkifiers))`,
    ).run(pattern, urlTemplate).lastInsertRowid,
  );

export const updateLinkifier = (db: Db, id: number, pattern: string, urlTemplate: string) =>
  stmt(db, 'UPDATE realm_linkifiers SET pattern = ?, url_template = ? WHERE id = ?').run(
    pattern,
    urlTemplate,
    id,
  );

export const setLinkifierOrder = (db: Db, id: number, order: number) =>
  stmt(db, 'UPDATE realm_linkifiers SET sort_order = ? WHERE id = ?').run(order, id);

export const deleteLinkifier = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM realm_linkifiers WHERE id = ?').run(id);
