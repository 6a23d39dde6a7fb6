/**
 * What the user list and the user card show, derived from the chat state
 * the way Zulip's web app derives its buddy list (buddy_data.ts, presence.ts,
 * timerender.ts). Pure: no DOM, so it is unit-tested in node.
 */
import type { ChatState, Presence, User } from '../data/model.js';

export type PresenceStatus = Presence['status'];

/**
 * A user's presence as the list shows it. Like Zulip, you see yourself as
 * active while you share your presence and offline when you do not; others
 * without presence data are offline.
 */
export function presenceStatus(
  state: Pick<ChatState, 'ownUserId' | 'presence' | 'settings'>,
  userId: number,
): PresenceStatus {
  if (userId === state.ownUserId) {
    return state.settings.presence_enabled === false ? 'offline' : 'active';
  }
  return state.presence.get(userId)?.status ?? 'offline';
}

export interface UserListSections {
  /** Humans by presence: yourself first among the active (unless filtering), then by name. */
  active: User[];
  idle: User[];
  offline: User[];
  /** Active bots, by name: Zulip leaves them out of its buddy list; here they are collapsed below. */
  bots: User[];
}

/** Case- and accent-insensitive text for matching names. */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Zulip's person matcher: a query is comma-separated terms; a user matches
 * a term when the e-mail starts with it or each of its words starts a word
 * of the name, in order.
 */
export function userMatchesFilter(user: Pick<User, 'full_name' | 'email'>, query: string): boolean {
  const terms = query
    .split(',')
    .map((term) => foldForSearch(term).trim())
    .filter(Boolean);
  if (terms.length === 0) return true;
  const nameWords = foldForSearch(user.full_name).split(/\s+/).filter(Boolean);
  const email = user.email.toLowerCase();
  return terms.some((term) => {
    if (email.startsWith(term)) return true;
    const words = term.split(/\s+/);
    let from = 0;
    for (const word of words) {
      const at = nameWords.findIndex((name, index) => index >= from && name.startsWith(word));
      if (at < 0) return false;
      from = at + 1;
    }
    return true;
  });
}

/**
 * Register lists active users without `is_active` (it is implied by
 * `realm_users`); only an explicit false, as in `realm_non_active_users`
 * and `realm_user` update events, means deactivated.
 */
export const isActiveUser = (user: Pick<User, 'is_active'>): boolean => user.is_active !== false;

const byName = (collator: Intl.Collator) => (a: User, b: User) =>
  collator.compare(a.full_name, b.full_name) || a.user_id - b.user_id;

/**
 * The right sidebar's users: active accounts, muted users left out (as
 * Zulip hides them), filtered, humans grouped by presence.
 */
export function userListSections(
  state: Pick<ChatState, 'ownUserId' | 'presence' | 'settings' | 'users' | 'mutedUserIds'>,
  filter: string,
): UserListSections {
  const sections: UserListSections = { active: [], idle: [], offline: [], bots: [] };
  for (const user of state.users.values()) {
    if (!isActiveUser(user) || state.mutedUserIds.has(user.user_id)) continue;
    if (!userMatchesFilter(user, filter)) continue;
    if (user.is_bot) sections.bots.push(user);
    else sections[presenceStatus(state, user.user_id)].push(user);
  }
  const compare = byName(new Intl.Collator(undefined, { sensitivity: 'base' }));
  for (const list of Object.values(sections)) list.sort(compare);
  // Zulip puts you on top while the list is not being searched.
  if (!filter.trim()) {
    const own = sections.active.findIndex((user) => user.user_id === state.ownUserId);
    if (own > 0) sections.active.unshift(...sections.active.splice(own, 1));
  }
  return sections;
}

const MINUTE = 60;
const DAY = 86_400;

function calendarDaysBetween(earlier: Date, later: Date): number {
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((midnight(later) - midnight(earlier)) / (DAY * 1000));
}

/** Zulip's wording for when someone was last seen ("Active now", "Active 5 minutes ago", …). */
export function lastSeenText(
  status: PresenceStatus,
  lastActive: number | null | undefined,
  now: Date,
): string {
  if (status === 'active') return 'Active now';
  if (status === 'idle') return 'Idle';
  if (!lastActive) return 'Not active in the last year';
  const then = new Date(lastActive * 1000);
  const minutes = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000 / MINUTE));
  if (minutes < 60) return `Active ${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? 'Active an hour ago' : `Active ${hours} hours ago`;
  const days = calendarDaysBetween(then, now);
  if (days <= 1) return 'Active yesterday';
  if (days < 90) return `Active ${days} days ago`;
  const sameYear = then.getFullYear() === now.getFullYear();
  const date = then.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(sameYear && days < 365 ? {} : { year: 'numeric' }),
  });
  return `Active ${date}`;
}

/**
 * The time of day where the user is ("3:05 PM"), in the viewer's 12- or
 * 24-hour format; null when the user set no time zone or an unknown one.
 */
export function localTimeText(timezone: string, now: Date, twentyFourHour: boolean): string | null {
  if (!timezone) return null;
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: twentyFourHour ? 'h23' : 'h12',
    }).format(now);
  } catch {
    return null;
  }
}

/** Zulip's role names (`role` in the user object). */
export function roleName(user: Pick<User, 'role' | 'is_bot'>): string {
  switch (user.role) {
    case 100:
      return 'Organization owner';
    case 200:
      return 'Organization administrator';
    case 300:
      return 'Moderator';
    case 600:
      return 'Guest';
    default:
      return user.is_bot ? 'Bot' : 'Member';
  }
}

/** Zulip's bot types (`bot_type`). */
export function botTypeName(botType: number | null | undefined): string {
  switch (botType) {
    case 1:
      return 'Generic bot';
    case 2:
      return 'Incoming webhook';
    case 3:
      return 'Outgoing webhook';
    case 4:
      return 'Embedded bot';
    default:
      return 'Bot';
  }
}

/** "Joined Mar 5, 2025" from `date_joined` (ISO 8601); null when unreadable. */
export function joinedText(dateJoined: string): string | null {
  const date = new Date(dateJoined);
  if (Number.isNaN(date.getTime())) return null;
  return `Joined ${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}`;
}

/** A bot's owner (`bot_owner_id`), when the state knows them. */
export function botOwner(state: Pick<ChatState, 'users'>, bot: User): User | null {
  const ownerId = bot.bot_owner_id;
  return typeof ownerId === 'number' ? (state.users.get(ownerId) ?? null) : null;
}
