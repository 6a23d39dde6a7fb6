import type { Bot } from '../../../../server/shared/zulip-api/index.js';

/** What the page reads from the integrations procedures and bots.list. */
export interface IntegrationSummary {
  name: string;
  displayName: string;
  description: string;
  eventTypes: string[] | null;
  urlOptions: { key: string; label: string; kind: 'text' | 'bool' }[];
  setup: string;
}

/** The fields of a bot (bots.list) the page reads. */
export type WebhookBot = Pick<
  Bot,
  'user_id' | 'full_name' | 'email' | 'owner_id' | 'bot_type' | 'is_active'
>;

export const INCOMING_WEBHOOK = 2;
