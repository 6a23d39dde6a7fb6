import { latestDraftsOf } from '../db/queries/drafts.js';
import type { StateProvider } from '../events/state-provider.js';
import { MAX_DRAFTS_IN_REGISTER_RESPONSE } from '../shared/limits.js';
import { formatDraft } from './format.js';

/**
 * POST /register's `drafts`: the most recently edited first, at most
 * MAX_DRAFTS_IN_REGISTER_RESPONSE (GET /drafts has the rest). With
 * synchronization off there are none: turning it off deleted them.
 */
export const draftsState: StateProvider = {
  fetchTypes: ['drafts'],
  fetch: (ctx, user) => ({
    drafts: latestDraftsOf(ctx.db, user.id, MAX_DRAFTS_IN_REGISTER_RESPONSE).map(formatDraft),
  }),
};
