/** The shape every integration has: what the door gives it, what it gives back. */

/** A URL option beyond the ones every integration takes (stream, topic, only_events, exclude_events). */
export interface UrlOption {
  /** The query parameter. */
  key: string;
  label: string;
  /** How the value is read: a string, or a JSON boolean. */
  kind: 'text' | 'bool';
}

/** The integration-specific URL options, parsed by the door. */
export interface WebhookOptions {
  /** Comma-separated branch names whose pushes are posted (git integrations); all without it. */
  branches?: string;
  /** Skip events from private repositories (GitHub). */
  ignorePrivateRepositories: boolean;
  /** The label or annotation naming the topic (Alertmanager's `name`). */
  topicLabel?: string;
  /** The label or annotation describing the alert (Alertmanager's `desc`). */
  descriptionLabel?: string;
}

export interface WebhookInput {
  /** A request header by name (case-insensitive), the last if repeated. */
  header(name: string): string | undefined;
  /** The decoded JSON payload, unchecked: each integration checks the parts it reads. */
  payload: unknown;
  options: WebhookOptions;
  /**
   * The URL fixes the topic (`topic=`), so messages name their pull request
   * or issue in full, as the topic no longer does.
   */
  topicFixed: boolean;
}

/** One message to post. */
export interface WebhookMessage {
  topic: string;
  content: string;
  /** What `only_events` and `exclude_events` match; null where the integration has no event types. */
  eventType: string | null;
}

/** What an integration made of a delivery: messages, or a reason to post nothing. */
export type WebhookReading = { messages: WebhookMessage[] } | { ignored: string };

export interface Integration {
  /** The URL's name: /api/v1/external/{name}. */
  name: string;
  /** The tool's name, in messages and errors ("GitLab"). */
  displayName: string;
  /** One line for the admin page. */
  description: string;
  /** The event types the filters match (Zulip's all_event_types); null when there are none. */
  eventTypes: readonly string[] | null;
  urlOptions: readonly UrlOption[];
  /** Where, in the tool, the URL goes: one or two sentences for the admin page. */
  setup: string;
  read(input: WebhookInput): WebhookReading;
}

export const post = (...messages: WebhookMessage[]): WebhookReading => ({ messages });
export const ignore = (reason: string): WebhookReading => ({ ignored: reason });
