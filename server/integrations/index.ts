/**
 * Integrations: the tools a team runs (forges, CI, monitoring, alerting)
 * posting at Zulip's integration URLs, /api/v1/external/{name}: one module
 * per tool in tools/, a shared toolkit (payload reading, filters, git
 * wording), the last deliveries per bot, and the URLs the admin page shows.
 */
export {
  botDeliveries,
  incomingWebhookBotsState,
  integrationCatalog,
  integrationUrl,
  type UrlRequest,
} from './admin.js';
export { INTEGRATIONS, integrationNamed } from './catalog.js';
export { DELIVERIES_KEPT, type DeliveryRecord, deliveriesOf } from './deliveries.js';
export { receiveWebhook, type WebhookDelivery } from './receive.js';
export type { Integration, UrlOption, WebhookOptions } from './types.js';
