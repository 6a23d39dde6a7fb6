import { defaultStreamIds } from '../db/queries/default-streams.js';
import type { StateProvider } from '../events/state-provider.js';
import { isGuest } from '../shared/roles.js';

/**
 * POST /register's `realm_default_streams`: the default channels' ids, and
 * none for guests, as Zulip (who sends guests no `default_streams` events).
 */
export const defaultStreamsState: StateProvider = {
  fetchTypes: ['default_streams'],
  fetch: (ctx, user) => ({ realm_default_streams: isGuest(user) ? [] : defaultStreamIds(ctx.db) }),
};

/** Hearth has no default channel groups (Zulip's sign-up form offers them to pick from). */
export const defaultStreamGroupsState: StateProvider = {
  fetchTypes: ['default_stream_groups'],
  fetch: () => ({ realm_default_stream_groups: [] }),
};
