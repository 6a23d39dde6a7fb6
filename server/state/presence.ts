import { stmt } from '../db/prepared.js';
import type { UserRow } from '../db/queries/users.js';
import { loadRealm } from '../domain/realm.js';
import { apiEmail } from '../domain/user-format.js';
import type { StateProvider } from './types.js';

const OFFLINE_THRESHOLD_SECONDS = 140;

/**
 * Presence as clients without slim_presence read it: keyed by e-mail, one
 * entry per client plus "aggregated" (zulip-terminal indexes it that way).
 */
export const presenceState: StateProvider = {
  fetchTypes: ['presence'],
  fetch(ctx, _user, options) {
    const realm = loadRealm(ctx);
    const nowSeconds = ctx.now() / 1000;
    const rows = stmt<
      [],
      UserRow & { last_active_time: number | null; last_connected_time: number | null }
    >(
      ctx.db,
      `SELECT u.*, p.last_active_time, p.last_connected_time
         FROM user_presence p JOIN users u ON u.id = p.user_id WHERE u.is_active = 1`,
    ).all();
    const presences: Record<string, unknown> = {};
    for (const row of rows) {
      const active = row.last_active_time ?? 0;
      const connected = row.last_connected_time ?? active;
      if (options.slimPresence) {
        presences[String(row.id)] = { active_timestamp: active, idle_timestamp: connected };
        continue;
      }
      const status = nowSeconds - active < OFFLINE_THRESHOLD_SECONDS ? 'active' : 'idle';
      const timestamp = Math.max(active, connected);
      presences[apiEmail(row, realm.row.email_domain)] = {
        website: { client: 'website', status, timestamp, pushable: false },
        aggregated: { client: 'website', status, timestamp },
      };
    }
    return { presences, server_timestamp: nowSeconds, presence_last_update_id: -1 };
  },
};
