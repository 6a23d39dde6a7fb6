/** What the page reads from the integrations procedures and bots.list. */
export interface IntegrationSummary {
  name: string;
  displayName: string;
  description: string;
  eventTypes: string[] | null;
  urlOptions: { key: string; label: string; kind: 'text' | 'bool' }[];
  setup: string;
}

export interface WebhookBot {
  user_id: number;
  full_name: string;
  email: string;
  owner_id: number | null;
  bot_type: number | null;
  is_active: boolean;
}

export const INCOMING_WEBHOOK = 2;
