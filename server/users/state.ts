import type { StateProvider } from '../events/state-provider.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin, isGuest, isModerator, isOwner } from '../shared/roles.js';
import { accessibleUserIds, canAccessAllUsers } from '../user-access/index.js';
import { visibleBots } from './bots.js';
import { avatarUrl, formatUser } from './format.js';
import { realmUserLists } from './realm-users.js';
import { viewerOf } from './users.js';

export const realmUserState: StateProvider = {
  fetchTypes: ['realm_user'],
  fetch(ctx, user, options) {
    const realm = loadRealm(ctx);
    const people = realmUserLists(
      ctx,
      viewerOf(user),
      canAccessAllUsers(ctx, user)
        ? undefined
        : {
            accessible: accessibleUserIds(ctx, user.id, { includeDeactivated: true }),
            omitOthers: options.capabilities.user_list_incomplete,
          },
    );
    const self = formatUser(user, viewerOf(user), {
      emailDomain: realm.row.email_domain,
    });
    const canCreate = !isGuest(user);
    return {
      realm_users: people.active,
      realm_non_active_users: people.inactive,
      cross_realm_bots: [],
      user_id: user.id,
      email: self.email,
      delivery_email: user.delivery_email,
      full_name: user.full_name,
      avatar_source: user.avatar_source,
      avatar_url: avatarUrl(user),
      avatar_url_medium: avatarUrl(user, 'medium'),
      is_admin: isAdmin(user),
      is_owner: isOwner(user),
      is_moderator: isModerator(user),
      is_guest: isGuest(user),
      can_create_streams: canCreate,
      can_create_public_streams: canCreate,
      can_create_private_streams: canCreate,
      can_create_web_public_streams: isOwner(user),
      can_subscribe_other_users: canCreate,
      can_invite_others_to_realm: canCreate,
    };
  },
};

export const realmBotState: StateProvider = {
  fetchTypes: ['realm_bot'],
  fetch: (ctx, user) => ({ realm_bots: visibleBots(ctx, user) }),
};
