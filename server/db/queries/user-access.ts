import type { Db } from '../open.js';
import { stmtPluck } from '../prepared.js';

/**
 * Who shares a conversation with a user: Zulip's Subscription rows to
 * channels and direct-message groups, which decide what a guest may see of
 * other users when can_access_all_users_group is restricted. Hearth keeps
 * every DM conversation (one-to-one too) in dm_groups, as Zulip now does.
 */

/** Active users actively subscribed to a channel `userId` is actively subscribed to. */
export const channelPeerIds = (db: Db, userId: number) =>
  stmtPluck<[number], number>(
    db,
    `SELECT DISTINCT s2.user_id FROM subscriptions s1
       JOIN subscriptions s2 ON s2.stream_id = s1.stream_id AND s2.active = 1
       JOIN users u ON u.id = s2.user_id AND u.is_active = 1
      WHERE s1.user_id = ? AND s1.active = 1`,
  ).all(userId);

/** Members of the DM conversations `userId` is in; deactivated ones too when `withDeactivated`. */
export const dmPeerIds = (db: Db, userId: number, withDeactivated: boolean) =>
  stmtPluck<[number, number], number>(
    db,
    `SELECT DISTINCT g2.user_id FROM dm_group_members g1
       JOIN dm_group_members g2 ON g2.dm_group_id = g1.dm_group_id
       JOIN users u ON u.id = g2.user_id AND (u.is_active = 1 OR ?)
      WHERE g1.user_id = ?`,
  ).all(withDeactivated ? 1 : 0, userId);

/** Active users who are not guests (Zulip's active_non_guest_user_ids). */
export const activeNonGuestIds = (db: Db) =>
  stmtPluck<[], number>(db, 'SELECT id FROM users WHERE is_active = 1 AND role != 600').all();
