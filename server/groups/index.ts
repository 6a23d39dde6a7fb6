/** User groups. */
export { userGroupsState } from './state.js';
