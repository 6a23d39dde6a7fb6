/** User status: text, emoji and the deprecated `away`, set by the user or an administrator. */
export { userStatusState } from './state.js';
export { getUserStatus, updateOwnStatus, updateUserStatus } from './user-status.js';
