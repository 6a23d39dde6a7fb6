import { stmt } from '../db/prepared.js';
import type { StateProvider } from '../events/state-provider.js';

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

export const incomingWebhookBotsState: StateProvider = {
  fetchTypes: ['realm_incoming_webhook_bots'],
  fetch: () => ({ realm_incoming_webhook_bots: [] }),
};
