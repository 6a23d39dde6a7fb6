import type { AppContext } from '../core/context.js';
import { loadRealm } from '../shared/realm.js';
import { Role } from '../shared/roles.js';

/** Zulip's UserProfile.INACCESSIBLE_USER_NAME. */
export const INACCESSIBLE_USER_NAME = 'Unknown user';

/** Zulip's get_avatar_for_inaccessible_user (served by avatars/). */
export const INACCESSIBLE_USER_AVATAR_URL = '/static/images/unknown-user-avatar.png';

/** The address Zulip shows for a hidden user: user{id}@ the organization's fake domain. */
export const inaccessibleUserEmail = (ctx: AppContext, userId: number) =>
  `user${userId}@${loadRealm(ctx).row.email_domain}`;

/**
 * Zulip's get_data_for_inaccessible_user: the user dict a guest gets for a
 * user they may not see, saying nothing but the id.
 */
export function inaccessibleUserDict(ctx: AppContext, userId: number) {
  return {
    email: inaccessibleUserEmail(ctx, userId),
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: Role.member,
    is_bot: false,
    full_name: INACCESSIBLE_USER_NAME,
    timezone: '',
    is_active: true,
    date_joined: '1970-01-01T00:00:00+00:00',
    delivery_email: null,
    avatar_url: INACCESSIBLE_USER_AVATAR_URL,
    profile_data: {},
    is_imported_stub: false,
  };
}
