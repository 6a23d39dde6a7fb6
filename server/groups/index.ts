/** User groups: listing, creating, updating, members and subgroups, (de)activating, events. */

export {
  groupSettingChangeSchema,
  groupSettingValueSchema,
} from '../channels/index.js';
export {
  createUserGroup,
  deactivateUserGroup,
  getUserGroupMembers,
  getUserGroupSubgroups,
  isUserGroupMember,
  listUserGroups,
  updateUserGroup,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from './groups.js';
export { groupPermissionNames, storedPermissions } from './settings.js';
export { userGroupsState } from './state.js';
