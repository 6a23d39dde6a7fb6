/** Drafts synchronized between a user's clients: create, list, edit, delete, and their register state. */
export {
  createDrafts,
  draftsSynchronizationChanged,
  editDraft,
  listDrafts,
  removeDraft,
} from './drafts.js';
export type { DraftInput } from './rules.js';
export { draftsState } from './state.js';
