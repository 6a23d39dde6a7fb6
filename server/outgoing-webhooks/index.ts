/**
 * Outgoing webhooks: a bot of type 3 is told, by an HTTP POST to its
 * payload_url, of channel messages that mention it and of direct messages it
 * receives; its JSON answer is posted back as the bot.
 */
export { DEFAULT_OUTGOING_WEBHOOK_TIMEOUT_MS, startOutgoingWebhooks } from './dispatch.js';
