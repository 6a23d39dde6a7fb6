/** Code playgrounds: adding and removing them (administrators), the realm_playgrounds event and state. */
export { addPlayground, removePlayground } from './playgrounds.js';
export { listPlaygrounds, realmPlaygroundsState } from './state.js';
