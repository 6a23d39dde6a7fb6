import { savedSnippetsOf } from '../db/queries/saved-snippets.js';
import type { StateProvider } from '../events/state-provider.js';
import { formatSavedSnippet } from './saved-snippets.js';

/** POST /register's `saved_snippets`: all of the user's, oldest first. */
export const savedSnippetsState: StateProvider = {
  fetchTypes: ['saved_snippets'],
  fetch: (ctx, user) => ({
    saved_snippets: savedSnippetsOf(ctx.db, user.id).map(formatSavedSnippet),
  }),
};
