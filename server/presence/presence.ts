import type { AppContext, Tx } from '../core/context.js';
import { badRequest, insufficientPermission, noSuchUser } from '../core/errors.js';
import {
  nextPresenceUpdateId,
  type PresenceRow,
  presenceOf,
  writePresence,
} from '../db/queries/presence.js';
import { setUserSettings, type UserRow, userById } from '../db/queries/users.js';
import { memoisePayload } from '../events/hub.js';
import { loadRealm } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { canAccessUser, userIdsWhoCanAccess } from '../user-access/index.js';
import { accessUserByEmail, apiEmail } from '../users/index.js';
import {
  legacyClientPresence,
  legacyUserPresence,
  modernUserPresence,
  PRESENCE_OFFLINE_THRESHOLD_SECONDS,
  PRESENCE_PING_INTERVAL_SECONDS,
  presenceTimestamps,
  realmPresences,
  sharesPresence,
} from './state.js';

/**
 * Someone whose last "active" report is older than this is coming back
 * online: their next "active" report is announced by an event. It is the
 * longest gap after which other clients, polling every ping interval, could
 * already be showing them offline (Zulip's rule); a user who keeps pinging
 * never qualifies, so ordinary pings send no events.
 */
const BACK_ONLINE_AFTER_SECONDS =
  PRESENCE_OFFLINE_THRESHOLD_SECONDS - PRESENCE_PING_INTERVAL_SECONDS - 10;

/**
 * Immediate presence events cost work quadratic in the organization's size;
 * beyond this many recipients Zulip stops sending them and clients rely on
 * their regular polls alone.
 */
const MAX_PRESENCE_EVENT_RECIPIENTS = 100;

/** How much further back than the offline threshold a user who turns presence off was last seen (allows for clock skew). */
const DISABLED_PRESENCE_OFFSET = 120;

export interface PresenceUpdateInput {
  status: string;
  pingOnly: boolean;
  /** Accepted for compatibility: Zulip feeds it to usage statistics, which Hearth does not keep. */
  newUserInput: boolean;
  slimPresence: boolean;
  lastUpdateId?: number;
  historyLimitDays?: number;
}

/** POST /users/me/presence: record the caller's status, then answer everyone's presence. */
export function updatePresence(ctx: AppContext, user: UserRow, input: PresenceUpdateInput) {
  requireRole(user, 'human');
  if (input.status !== 'active' && input.status !== 'idle') {
    throw badRequest(`Invalid status: ${input.status}`);
  }
  // Invisible mode: nothing is recorded, so nobody sees the user come online.
  if (sharesPresence(user)) recordPresence(ctx, user, input.status);
  if (input.pingOnly) return {};
  return realmPresences(ctx, {
    viewer: user,
    // Asking by update id implies the modern format.
    slim: input.slimPresence || input.lastUpdateId !== undefined,
    lastUpdateId: input.lastUpdateId,
    historyLimitDays: input.historyLimitDays,
  });
}

function recordPresence(ctx: AppContext, user: UserRow, status: 'active' | 'idle'): void {
  ctx.transaction((tx) => {
    const now = Math.floor(ctx.now() / 1000);
    const before = presenceOf(ctx.db, user.id);
    // Times never move back (a clock step or a late request must not undo a newer report).
    const lastActive =
      status === 'active'
        ? Math.max(now, before?.last_active_time ?? now)
        : (before?.last_active_time ?? null);
    const lastConnected = Math.max(now, before?.last_connected_time ?? now, lastActive ?? now);
    if (
      before &&
      before.last_active_time === lastActive &&
      before.last_connected_time === lastConnected
    ) {
      return;
    }
    const row: PresenceRow = {
      user_id: user.id,
      last_active_time: lastActive,
      last_connected_time: lastConnected,
      last_update_id: nextPresenceUpdateId(ctx.db),
    };
    writePresence(ctx.db, row);

    const sinceActive =
      before?.last_active_time != null ? now - before.last_active_time : Number.POSITIVE_INFINITY;
    const cameOnline = status === 'active' && sinceActive > BACK_ONLINE_AFTER_SECONDS;
    // A first report ever is news too, even an idle one: the user was unknown until now.
    if (before === undefined || cameOnline) emitPresenceChange(ctx, tx, user, row);
  });
}

function emitPresenceChange(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  row: PresenceRow,
  opts: { force?: boolean } = {},
): void {
  const realm = loadRealm(ctx);
  if (realm.settings.presence_disabled) return;
  // Those who may see the user (Zulip's get_user_ids_who_can_access_user, as
  // with CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE), the user too: their own
  // register lists their own presence.
  const users = userIdsWhoCanAccess(ctx, user.id);
  if (users.length > MAX_PRESENCE_EVENT_RECIPIENTS && !opts.force) return;
  const times = presenceTimestamps(user, row);
  const serverTimestamp = ctx.now() / 1000;
  const email = apiEmail(user, realm.row.email_domain);
  tx.emit({
    type: 'presence',
    users,
    payload: memoisePayload(
      (queue) => String(queue.options.capabilities.simplified_presence_events),
      (queue) =>
        queue.options.capabilities.simplified_presence_events
          ? ({
              type: 'presence',
              presences: { [String(user.id)]: modernUserPresence(times) },
            } satisfies EventBody<
              'presence',
              string,
              'user_id' | 'email' | 'server_timestamp' | 'presence'
            >)
          : ({
              type: 'presence',
              user_id: user.id,
              email,
              server_timestamp: serverTimestamp,
              presence: { website: legacyClientPresence(times) },
            } satisfies EventBody<'presence', string, 'presences'>),
    ),
  });
}

/**
 * Turns the user's presence_enabled setting on or off (also what the
 * deprecated `away` of POST /users/me/status does, as `away = !enabled`), as
 * Zulip's do_change_user_setting does: the setting events to the user, then a
 * presence update sent whatever the organization's size, so everyone at once
 * sees the user online again or, switching off, last seen a while ago.
 */
export function setPresenceEnabled(ctx: AppContext, tx: Tx, user: UserRow, enabled: boolean): void {
  let overrides: Record<string, unknown> = {};
  try {
    overrides = JSON.parse(user.settings) as Record<string, unknown>;
  } catch {
    // Unreadable overrides read as defaults (mergeUserSettings); keep only this one.
  }
  setUserSettings(ctx.db, user.id, JSON.stringify({ ...overrides, presence_enabled: enabled }));
  tx.emit({
    type: 'user_settings',
    users: [user.id],
    payload: {
      type: 'user_settings',
      op: 'update',
      property: 'presence_enabled',
      value: enabled,
    } satisfies EventBody<'user_settings', 'update', 'language_name'>,
  });
  const email = apiEmail(user, loadRealm(ctx).row.email_domain);
  tx.emit({
    type: 'update_global_notifications',
    users: [user.id],
    // The legacy form, only for clients that do not read user_settings events.
    payload: (queue) =>
      queue.options.capabilities.user_settings_object
        ? null
        : ({
            type: 'update_global_notifications',
            user: email,
            notification_name: 'presence_enabled',
            setting: enabled,
          } satisfies EventBody<'update_global_notifications'>),
  });

  const now = Math.floor(ctx.now() / 1000);
  const before = presenceOf(ctx.db, user.id);
  const row: PresenceRow = enabled
    ? {
        user_id: user.id,
        last_active_time: Math.max(now, before?.last_active_time ?? now),
        last_connected_time: Math.max(now, before?.last_connected_time ?? now),
        last_update_id: nextPresenceUpdateId(ctx.db),
      }
    : {
        // Zulip forgets the user's presence and records one idle report old
        // enough to read as offline everywhere.
        user_id: user.id,
        last_active_time: null,
        last_connected_time: now - PRESENCE_OFFLINE_THRESHOLD_SECONDS - DISABLED_PRESENCE_OFFSET,
        last_update_id: nextPresenceUpdateId(ctx.db),
      };
  writePresence(ctx.db, row);
  emitPresenceChange(ctx, tx, user, row, { force: true });
}

/** GET /realm/presence: the legacy format, without the update id. */
export function getRealmPresence(ctx: AppContext, user: UserRow) {
  const { presences, server_timestamp } = realmPresences(ctx, { slim: false, viewer: user });
  return { presences, server_timestamp };
}

/** GET /users/{user_id_or_email}/presence */
export function getUserPresence(ctx: AppContext, viewer: UserRow, userIdOrEmail: string) {
  const realm = loadRealm(ctx);
  const target = targetUser(ctx, viewer, userIdOrEmail);
  if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
  if (!canAccessUser(ctx, viewer, target)) throw insufficientPermission();
  const row = presenceOf(ctx.db, target.id);
  if (!row || realm.settings.presence_disabled) {
    throw badRequest(`No presence data for ${userIdOrEmail}`);
  }
  return { presence: singleUserPresence(ctx, target, row) };
}

/** The legacy entries without client and pushable; only here does a stale user read "offline". */
function singleUserPresence(ctx: AppContext, user: UserRow, row: PresenceRow) {
  const { aggregated, website } = legacyUserPresence(presenceTimestamps(user, row));
  const now = Math.floor(ctx.now() / 1000);
  const stale = now - aggregated.timestamp > PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  return {
    website: { status: website.status, timestamp: website.timestamp },
    aggregated: { status: stale ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
  };
}

/** An active user by id or by e-mail; anything else is "No such user". */
function targetUser(ctx: AppContext, viewer: UserRow, userIdOrEmail: string): UserRow {
  const user = /^\d+$/.test(userIdOrEmail)
    ? userById(ctx.db, Number(userIdOrEmail))
    : accessUserByEmail(ctx, viewer, userIdOrEmail);
  if (!user?.is_active) throw noSuchUser();
  return user;
}

export interface RecentPresence {
  userId: number;
  /** Seconds before now of the last "active" report; null: never active. */
  activeSecondsAgo: number | null;
  /** Seconds before now of the last report of either kind. */
  connectedSecondsAgo: number;
}

/**
 * Records presence reports on behalf of users (the demo's people at each
 * start, so clients show who is around). Times never move back past a newer
 * real report. Sends no events: it runs at start, before any client has an
 * event queue; clients read it from register and their presence polls.
 */
export function recordRecentPresence(ctx: AppContext, reports: RecentPresence[]): void {
  ctx.transaction(() => {
    const now = Math.floor(ctx.now() / 1000);
    for (const report of reports) {
      const user = userById(ctx.db, report.userId);
      if (!user?.is_active || user.is_bot) continue;
      const before = presenceOf(ctx.db, user.id);
      const active = report.activeSecondsAgo === null ? null : now - report.activeSecondsAgo;
      const lastActive =
        active === null
          ? (before?.last_active_time ?? null)
          : Math.max(active, before?.last_active_time ?? active);
      const connected = now - report.connectedSecondsAgo;
      const lastConnected = Math.max(
        connected,
        before?.last_connected_time ?? connected,
        lastActive ?? connected,
      );
      writePresence(ctx.db, {
        user_id: user.id,
        last_active_time: lastActive,
        last_connected_time: lastConnected,
        last_update_id: nextPresenceUpdateId(ctx.db),
      });
    }
  });
}
