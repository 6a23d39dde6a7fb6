import { alertWordsOf } from '../db/queries/alert-words.js';
import type { StateProvider } from '../events/state-provider.js';

/** POST /register's `alert_words`. */
export const alertWordsState: StateProvider = {
  fetchTypes: ['alert_words'],
  fetch: (ctx, user) => ({ alert_words: alertWordsOf(ctx.db, user.id) }),
};
