import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface NavigationViewRow {
  fragment: string;
  is_pinned: number;
  name: string | null;
}

/** A user's views, in the order they were added. */
export const navigationViewsOf = (db: Db, userId: number) =>
  stmt<[number], NavigationViewRow>(
    db,
    'SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? ORDER BY id',
  ).all(userId);

export const navigationView = (db: Db, userId: number, fragment: string) =>
  stmt<[number, string], NavigationViewRow>(
    db,
    'SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? AND fragment = ?',
  ).get(userId, fragment);

export const navigationViewNamed = (db: Db, userId: number, name: string) =>
  stmt<[number, string], { x: number }>(
    db,
    'SELECT 1 AS x FROM navigation_views WHERE user_id = ? AND name = ?',
  ).get(userId, name) !== undefined;

export const insertNavigationView = (db: Db, userId: number, view: NavigationViewRow) =>
  stmt(
    db,
    'INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)',
  ).run(userId, view.fragment, view.is_pinned, view.name);

export const updateNavigationView = (db: Db, userId: number, view: NavigationViewRow) =>
  stmt(
    db,
    'UPDATE navigation_views SET is_pinned = ?, name = ? WHERE user_id = ? AND fragment = ?',
  ).run(view.is_pinned, view.name, userId, view.fragment);

export const deleteNavigationView = (db: Db, userId: number, fragment: string) =>
  stmt(db, 'DELETE FROM navigation_views WHERE user_id = ? AND fragment = ?').run(userId, fragment);
