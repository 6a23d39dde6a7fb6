export { userGroupsState } from './state.js';
