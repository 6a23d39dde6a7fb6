import type { ProfileValueRow } from '../db/queries/profile-values.js';
import type { UserRow } from '../db/queries/users.js';
import { pushTo } from '../shared/collections.js';
import { isAdmin, isGuest, isModerator } from '../shared/roles.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import type { User } from '../shared/zulip-api/index.js';

export interface Viewer {
  id: number;
  role: number;
}

export interface UserFormatOptions {
  emailDomain: string;
  /** Custom profile values by user id; omit to leave profile_data out. */
  profileValues?: Map<number, ProfileValueRow[]>;
}

const VISIBILITY = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;

export function emailVisibility(user: UserRow): number {
  return mergeUserSettings(user.settings).email_address_visibility;
}

/** The API e-mail: the real address if everyone may see it, else a placeholder. */
export function apiEmail(user: UserRow, emailDomain: string): string {
  if (user.is_bot || emailVisibility(user) === VISIBILITY.everyone) return user.delivery_email;
  return `user${user.id}@${emailDomain}`;
}

export function canSeeDeliveryEmail(viewer: Viewer | null, user: UserRow): boolean {
  if (user.is_bot) return true;
  return canSeeEmailAtVisibility(viewer, user.id, emailVisibility(user));
}

/** canSeeDeliveryEmail for a human user whose email_address_visibility is known. */
export function canSeeEmailAtVisibility(
  viewer: Viewer | null,
  userId: number,
  visibility: number,
): boolean {
  if (viewer && viewer.id === userId) return true;
  switch (visibility) {
    case VISIBILITY.everyone:
      return true;
    case VISIBILITY.members:
      return viewer !== null && !isGuest(viewer);
    case VISIBILITY.moderators:
      return viewer !== null && isModerator(viewer);
    case VISIBILITY.admins:
      return viewer !== null && isAdmin(viewer);
    default:
      return false;
  }
}

/**
 * Every avatar is hosted by Hearth itself, as Zulip does with ENABLE_GRAVATAR
 * off: an offline or LAN-only team cannot reach the third-party provider, and
 * its URLs would hand out hashes of addresses. So `avatar_url` is never null,
 * whatever a client's `client_gravatar` (the spec: null only for avatars the
 * provider hosts); users without an uploaded picture get a generated one.
 */
export function avatarUrl(user: UserRow, size: 'default' | 'medium' = 'default'): string {
  const suffix = size === 'medium' ? '-medium' : '';
  return `/user_avatars/${user.id}${suffix}.png?version=${user.avatar_version}`;
}

/** The avatar fields of a realm_user update (Zulip's notify_avatar_url_change): always URLs. */
export function avatarChange(user: UserRow) {
  return {
    avatar_source: user.avatar_source,
    avatar_url: avatarUrl(user),
    avatar_url_medium: avatarUrl(user, 'medium'),
    avatar_version: user.avatar_version,
  };
}

/** Zulip's `date_joined`: ISO 8601 to the minute with an explicit UTC offset. */
export function isoDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}+00:00`;
}

/** The spec's User object as `viewer` may see it. */
export function formatUser(user: UserRow, viewer: Viewer | null, options: UserFormatOptions): User {
  const formatted: User = {
    user_id: user.id,
    delivery_email: canSeeDeliveryEmail(viewer, user) ? user.delivery_email : null,
    email: apiEmail(user, options.emailDomain),
    full_name: user.full_name,
    date_joined: isoDate(user.date_joined_ms),
    is_active: user.is_active === 1,
    is_owner: user.role === 100,
    is_admin: user.role <= 200,
    is_guest: user.role === 600,
    is_bot: user.is_bot === 1,
    role: user.role as User['role'],
    timezone: user.timezone,
    avatar_url: avatarUrl(user),
    avatar_version: user.avatar_version,
    is_imported_stub: user.is_imported_stub === 1,
  };
  // Zulip's format_user_row gives the bot fields to bots only (bot_owner_id may be null).
  if (user.is_bot) {
    formatted.bot_type = user.bot_type;
    formatted.bot_owner_id = user.bot_owner_id;
  }
  if (user.is_deleted) formatted.is_deleted = true;
  if (options.profileValues && !user.is_bot) {
    const data: NonNullable<User['profile_data']> = {};
    for (const row of options.profileValues.get(user.id) ?? []) {
      const entry: { value: string; rendered_value?: string } = { value: row.value };
      if (row.rendered_value !== null) entry.rendered_value = row.rendered_value;
      data[String(row.field_id)] = entry;
    }
    formatted.profile_data = data;
  }
  return formatted;
}

export function groupProfileValues(rows: ProfileValueRow[]): Map<number, ProfileValueRow[]> {
  const map = new Map<number, ProfileValueRow[]>();
  for (const row of rows) pushTo(map, row.user_id, row);
  return map;
}
