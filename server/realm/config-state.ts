import { stmt } from '../db/prepared.js';
import type { StateProvider } from '../events/state-provider.js';

function linkifiers(ctx: Parameters<StateProvider['fetch']>[0]) {
  return stmt<[], { id: number; pattern: string; url_template: string }>(
    ctx.db,
    'SELECT id, pattern, url_template FROM realm_linkifiers ORDER BY sort_order, id',
  ).all();
}

export const realmLinkifiersState: StateProvider = {
  fetchTypes: ['realm_linkifiers'],
  fetch: (ctx) => ({ realm_linkifiers: linkifiers(ctx) }),
};

/** Legacy triples; templates with RFC 6570 syntax cannot be expressed, so clients get []. */
export const realmFiltersState: StateProvider = {
  fetchTypes: ['realm_filters'],
  fetch: () => ({ realm_filters: [] }),
};

export const defaultStreamsState: StateProvider = {
  fetchTypes: ['default_streams'],
  fetch: (ctx) => ({
    realm_default_streams: stmt<[], { stream_id: number }>(
      ctx.db,
      'SELECT stream_id FROM default_streams ORDER BY stream_id',
    )
      .all()
      .map((r) => r.stream_id),
  }),
};

export const defaultStreamGroupsState: StateProvider = {
  fetchTypes: ['default_stream_groups'],
  fetch: () => ({ realm_default_stream_groups: [] }),
};

export const embeddedBotsState: StateProvider = {
  fetchTypes: ['realm_embedded_bots'],
  fetch: () => ({
    realm_embedded_bots: ['converter', 'xkcd', 'helloworld', 'followup'].map((name) => ({
      name,
      config: {},
    })),
  }),
};
