import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/** Users who muted `userId`: messages from a muted sender arrive already read. */
export const usersWhoMuted = (db: Db, userId: number) =>
  stmt<[number], { user_id: number }>(db, 'SELECT user_id FROM muted_users WHERE muted_user_id = ?')
    .all(userId)
    .map((r) => r.user_id);
