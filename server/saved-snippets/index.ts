/** Saved snippets: reusable texts private to their owner, and their register state. */
export {
  createSavedSnippet,
  editSavedSnippet,
  listSavedSnippets,
  removeSavedSnippet,
} from './saved-snippets.js';
export { savedSnippetsState } from './state.js';
