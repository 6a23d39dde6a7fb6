import { defaultStreamIds } from '../db/queries/default-streams.js';
import type { StateProvider } from '../events/state-provider.js';

/** POST /register's `realm_default_streams`: the default channels' ids. */
export const defaultStreamsState: StateProvider = {
  fetchTypes: ['default_streams'],
  fetch: (ctx) => ({ realm_default_streams: defaultStreamIds(ctx.db) }),
};

/** Hearth has no default channel groups (Zulip's sign-up form offers them to pick from). */
export const defaultStreamGroupsState: StateProvider = {
  fetchTypes: ['default_stream_groups'],
  fetch: () => ({ realm_default_stream_groups: [] }),
};
