/** Linkifiers: the organization's patterns that Markdown turns into links; their endpoints, `realm_linkifiers` events and state. */
export {
  addLinkifier,
  changeLinkifier,
  listLegacyFilters,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
} from './linkifiers.js';
export { realmFiltersState, realmLinkifiersState } from './state.js';
