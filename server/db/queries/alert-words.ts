import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** The user's alert words, by their text (Zulip gives no order). */
export const alertWordsOf = (db: Db, userId: number) =>
  stmt<[number], { word: string }>(
    db,
    'SELECT word FROM alert_words WHERE user_id = ? ORDER BY word',
  )
    .all(userId)
    .map((r) => r.word);

export const insertAlertWord = (db: Db, userId: number, word: string) =>
  stmt(db, 'INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)').run(userId, word);

export const deleteAlertWord = (db: Db, userId: number, word: string) =>
  stmt(db, 'DELETE FROM alert_words WHERE user_id = ? AND word = ?').run(userId, word);

/**
 * Every active user's alert words: only users who have some appear, so a
 * send checks those users and no one else. CROSS JOIN keeps the words as
 * the outer loop: the planner otherwise walks every user to find the few
 * with words (320 µs against 15 µs per send with 1,000 users).
 */
export const activeUsersAlertWords = (db: Db) =>
  stmt<[], { user_id: number; word: string }>(
    db,
    `SELECT a.user_id, a.word FROM alert_words a
     CROSS JOIN users u ON u.id = a.user_id WHERE u.is_active = 1`,
  ).all();
