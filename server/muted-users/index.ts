/** Muted users: mute and unmute, `muted_users` events and state. */
export { muteUser, unmuteUser } from './muted-users.js';
export { mutedUsersState } from './state.js';
