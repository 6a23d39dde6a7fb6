import type { StateProvider } from '../events/state-provider.js';

export const embeddedBotsState: StateProvider = {
  fetchTypes: ['realm_embedded_bots'],
  fetch: () => ({
    realm_embedded_bots: ['converter', 'xkcd', 'helloworld', 'followup'].map((name) => ({
      name,
      config: {},
    })),
  }),
};
