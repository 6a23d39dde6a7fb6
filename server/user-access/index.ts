/** Which users a user may see: Zulip's limited user access for guests (can_access_all_users_group). */
export {
  INACCESSIBLE_USER_AVATAR_URL,
  INACCESSIBLE_USER_NAME,
  inaccessibleUserDict,
  inaccessibleUserEmail,
} from './placeholder.js';
export {
  accessibleUserIds,
  canAccessAllUsers,
  canAccessUser,
  conversationPeerIds,
  userAccessCheck,
  userAccessRestricted,
  userIdAccessCheck,
  userIdsWhoCanAccess,
  userIdsWithoutAccessTo,
  usersSeeingEveryone,
} from './rule.js';
