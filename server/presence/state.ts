import type { AppContext } from '../core/context.js';
import { type PresenceTimes, presenceOfActiveHumans } from '../db/queries/presence.js';
import type { UserRow } from '../db/queries/users.js';
import type { StateProvider } from '../events/state-provider.js';
import { loadRealm } from '../shared/realm.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { userAccessCheck } from '../user-access/index.js';
import { apiEmail } from '../users/index.js';

/**
 * The presence protocol's timing, reported by POST /register. Zulip's values:
 * a client pings every 60 s and a user is offline 200 s after their last
 * ping, which leaves room for two missed pings plus slack.
 */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 200;

/**
 * In the legacy format a user is "active" if their last activity is at most
 * this much older than their last connection (Zulip's
 * PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS): a client that pings
 * "active" every 60 s stays active between pings.
 */
const LEGACY_ACTIVE_WINDOW_SECONDS = 70;

/** Without last_update_id or history_limit_days, fetches cover two weeks (Zulip's original window). */
const DEFAULT_HISTORY_LIMIT_DAYS = 14;

export interface PresenceTimestamps {
  active: number;
  connected: number;
}

/** Like Zulip, a time never reported reads as the user's join time: the API has no nulls here. */
export function presenceTimestamps(user: UserRow, times: PresenceTimes): PresenceTimestamps {
  const joined = Math.floor(user.date_joined_ms / 1000);
  return {
    active: times.last_active_time ?? joined,
    connected: times.last_connected_time ?? joined,
  };
}

/** One client's entry in the legacy format (the server keeps no per-client data: always "website"). */
export function legacyClientPresence(t: PresenceTimestamps) {
  const active = t.active + LEGACY_ACTIVE_WINDOW_SECONDS >= t.connected;
  return {
    client: 'website',
    status: active ? ('active' as const) : ('idle' as const),
    timestamp: active ? t.active : t.connected,
    pushable: false,
  };
}

/**
 * A user's presence as clients without slim_presence read it. zulip-terminal
 * reads every key but "aggregated" as a client entry with status and
 * timestamp, so the shape must be exactly this.
 */
export function legacyUserPresence(t: PresenceTimestamps) {
  const website = legacyClientPresence(t);
  return {
    aggregated: { client: website.client, status: website.status, timestamp: website.timestamp },
    website,
  };
}

export function modernUserPresence(t: PresenceTimestamps) {
  return { active_timestamp: t.active, idle_timestamp: t.connected };
}

/**
 * Invisible mode: a user who turned presence_enabled off reports nothing
 * more. Their last record (the idle report made old enough to read as
 * offline when they turned it off) is still shown, as Zulip's register does.
 */
export const sharesPresence = (user: UserRow): boolean =>
  mergeUserSettings(user.settings).presence_enabled;

export interface PresenceQuery {
  /** Modern user-id-keyed entries instead of legacy e-mail-keyed ones. */
  slim: boolean;
  /** Only rows changed after this update id (the client has the rest). */
  lastUpdateId?: number;
  historyLimitDays?: number;
  /**
   * Who asks: a guest limited by can_access_all_users_group gets only the
   * users they may see (Zulip with CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE).
   */
  viewer: UserRow;
}

/**
 * Everyone's presence, shared by POST /register, POST /users/me/presence and
 * GET /realm/presence so the three answer in the same shape.
 */
export function realmPresences(ctx: AppContext, query: PresenceQuery) {
  const realm = loadRealm(ctx);
  const serverTimestamp = ctx.now() / 1000;
  if (realm.settings.presence_disabled) {
    return { presences: {}, server_timestamp: serverTimestamp, presence_last_update_id: -1 };
  }
  const days = query.historyLimitDays ?? DEFAULT_HISTORY_LIMIT_DAYS;
  // A client that already holds data is limited by its update id alone.
  const limitByTime = query.lastUpdateId === undefined || query.lastUpdateId <= 0;
  const rows =
    days === 0
      ? []
      : presenceOfActiveHumans(
          ctx.db,
          query.lastUpdateId ?? -1,
          limitByTime ? Math.floor(serverTimestamp) - days * 86_400 : null,
        );
  const presences: Record<string, unknown> = {};
  let newestUpdateId = query.lastUpdateId ?? -1;
  const canAccess = userAccessCheck(ctx, query.viewer);
  for (const row of rows) {
    newestUpdateId = Math.max(newestUpdateId, row.last_update_id);
    if (!canAccess(row)) continue;
    const times = presenceTimestamps(row, row);
    if (query.slim) presences[String(row.id)] = modernUserPresence(times);
    else presences[apiEmail(row, realm.row.email_domain)] = legacyUserPresence(times);
  }
  return {
    presences,
    server_timestamp: serverTimestamp,
    presence_last_update_id: newestUpdateId,
  };
}

export const presenceState: StateProvider = {
  fetchTypes: ['presence'],
  fetch(ctx, user, options) {
    return realmPresences(ctx, {
      viewer: user,
      // Clients that take simplified presence events read modern entries (as in Zulip).
      slim: options.slimPresence || options.capabilities.simplified_presence_events,
      historyLimitDays: options.presenceHistoryLimitDays,
    });
  },
};
