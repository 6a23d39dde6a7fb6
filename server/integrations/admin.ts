/**
 * What the admin page and Zulip clients are told about the integrations:
 * the catalog, the exact URL to paste into a tool, a bot's last deliveries.
 */
import type { AppContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import type { StateProvider } from '../events/state-provider.js';
import { realmUrl } from '../shared/realm.js';
import { accessBotById } from '../users/index.js';
import { INTEGRATIONS, integrationNamed } from './catalog.js';
import { type DeliveryRecord, deliveriesOf } from './deliveries.js';

/** The catalog as the admin page shows it. */
export function integrationCatalog(ctx: AppContext) {
  return {
    baseUrl: `${realmUrl(ctx)}/api/v1/external/`,
    integrations: INTEGRATIONS.map((i) => ({
      name: i.name,
      displayName: i.displayName,
      description: i.description,
      eventTypes: i.eventTypes === null ? null : [...i.eventTypes],
      urlOptions: i.urlOptions.map((o) => ({ ...o })),
      setup: i.setup,
    })),
  };
}

export interface UrlRequest {
  botId: number;
  integration: string;
  /** A channel name; none: the bot owner's direct messages. */
  stream?: string;
  topic?: string;
  onlyEvents?: string[];
  excludeEvents?: string[];
  /** The integration's own options by key; empty values are left out. */
  options?: Record<string, string | boolean>;
}

/**
 * The URL a tool posts to, with the server's external URL and the bot's key,
 * each value percent-encoded (`%20`, which every tool leaves alone, not `+`).
 * Only whoever may see the bot's key (its owner, administrators) gets it.
 */
export function integrationUrl(ctx: AppContext, actor: UserRow, request: UrlRequest): string {
  const integration = integrationNamed(request.integration);
  if (!integration) throw notFound();
  const bot = accessBotById(ctx, actor, request.botId);
  if (!bot.is_active) throw badRequest('The bot is deactivated');
  const params: [string, string][] = [['api_key', bot.api_key]];
  const text = (value: string | undefined) => value?.trim() || undefined;
  const stream = text(request.stream);
  if (stream) params.push(['stream', stream]);
  const topic = text(request.topic);
  if (topic) params.push(['topic', topic]);
  if (request.onlyEvents?.length) params.push(['only_events', JSON.stringify(request.onlyEvents)]);
  if (request.excludeEvents?.length) {
    params.push(['exclude_events', JSON.stringify(request.excludeEvents)]);
  }
  for (const option of integration.urlOptions) {
    const value = request.options?.[option.key];
    if (option.kind === 'bool' && value === true) params.push([option.key, 'true']);
    if (option.kind === 'text' && typeof value === 'string' && value.trim()) {
      params.push([option.key, value.trim()]);
    }
  }
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${realmUrl(ctx)}/api/v1/external/${integration.name}?${query}`;
}

/** A bot's last deliveries, newest first, for whoever administers the bot. */
export function botDeliveries(ctx: AppContext, actor: UserRow, botId: number): DeliveryRecord[] {
  accessBotById(ctx, actor, botId);
  return deliveriesOf(ctx, botId);
}

/**
 * realm_incoming_webhook_bots of POST /register: the integrations a Zulip
 * client may offer when someone creates an incoming-webhook bot.
 */
export const incomingWebhookBotsState: StateProvider = {
  fetchTypes: ['realm_incoming_webhook_bots'],
  fetch: () => ({
    realm_incoming_webhook_bots: INTEGRATIONS.map((i) => ({
      name: i.name,
      display_name: i.displayName,
      all_event_types: i.eventTypes === null ? null : [...i.eventTypes],
      config_options: [],
      url_options: i.urlOptions.map((o) => ({
        key: o.key,
        label: o.label,
        validator: o.kind === 'bool' ? 'check_bool' : 'check_string',
      })),
    })),
  }),
};
