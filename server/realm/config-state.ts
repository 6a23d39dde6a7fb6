import { stmt } from '../db/prepared.js';
import type { StateProvider } from '../events/state-provider.js';

export const realmEmojiState: StateProvider = {
  fetchTypes: ['realm_emoji'],
  fetch(ctx) {
    const rows = stmt<
      [],
      { id: number; name: string; author_id: number | null; file_name: string; deactivated: number }
    >(
      ctx.db,
      'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji ORDER BY id',
    ).all();
    const emoji: Record<string, unknown> = {};
    for (const r of rows) {
      emoji[String(r.id)] = {
        id: String(r.id),
        name: r.name,
        source_url: `/user_avatars/emoji/${r.file_name}`,
        deactivated: r.deactivated === 1,
        author_id: r.author_id,
      };
    }
    return { realm_emoji: emoji };
  },
};

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

export const incomingWebhookBotsState: StateProvider = {
  fetchTypes: ['realm_incoming_webhook_bots'],
  fetch: () => ({ realm_incoming_webhook_bots: [] }),
};
