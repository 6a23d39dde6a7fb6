import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

/**
 * The user's direct-message conversations among their newest `window`
 * direct messages (Zulip looks at the last 1000), with each one's newest
 * message id, newest first.
 */
export const recentDmConversations = (db: Db, userId: number, window = 1000) =>
  stmt<[number, number], { dm_group_id: number; max_message_id: number }>(
    db,
    `SELECT dm_group_id, max(id) AS max_message_id FROM (
       SELECT m.id, m.dm_group_id FROM dm_group_members g
         JOIN messages m ON m.dm_group_id = g.dm_group_id
        WHERE g.user_id = ?
        ORDER BY m.id DESC LIMIT ?)
      GROUP BY dm_group_id ORDER BY max_message_id DESC`,
  ).all(userId, window);
