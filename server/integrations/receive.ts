/**
 * POST /api/v1/external/{integration}: a tool's payload read by its
 * integration, filtered by the URL's options, and posted as the bot whose
 * key the URL carries (Zulip's webhook_view and check_send_webhook_message).
 */
import type { AppContext } from '../core/context.js';
import { ApiError, notFound } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import { integrationNamed } from './catalog.js';
import { recordDelivery } from './deliveries.js';
import { type PostResult, postWebhookMessage, type WebhookTarget } from './post.js';
import { decodePayload } from './toolkit/body.js';
import { anomalousPayload } from './toolkit/errors.js';
import { type EventFilters, eventWanted } from './toolkit/filters.js';
import type { Integration, WebhookOptions, WebhookReading } from './types.js';

export interface WebhookDelivery {
  integration: string;
  /** Request headers, lower-cased names (Node's). */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | null;
  target: WebhookTarget;
  filters: EventFilters;
  options: WebhookOptions;
}

/** The client Zulip records for an integration's messages: "ZulipGitLabWebhook". */
export const webhookClientName = (integration: Integration) =>
  `Zulip${integration.displayName.replace(/[^A-Za-z0-9]/g, '')}Webhook`;

function headerReader(headers: WebhookDelivery['headers']) {
  return (name: string): string | undefined => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
}

/** Reads, filters and posts one delivery, and records what became of it. */
export function receiveWebhook(
  ctx: AppContext,
  bot: UserRow,
  delivery: WebhookDelivery,
): Record<string, never> {
  const integration = integrationNamed(delivery.integration);
  if (!integration) throw notFound();
  const header = headerReader(delivery.headers);
  const record = (
    outcome: 'accepted' | 'ignored' | 'unsupported' | 'error',
    detail: string,
    eventType: string | null,
    status = 200,
    messageIds: number[] = [],
  ) =>
    recordDelivery(ctx, bot.id, {
      at: ctx.now(),
      integration: integration.name,
      eventType,
      outcome,
      detail,
      status,
      messageIds,
    });

  let eventType: string | null = null;
  try {
    const payload = decodePayload(delivery.body, header('content-type'));
    const reading = readSafely(ctx, integration, {
      header,
      payload,
      options: delivery.options,
      topicFixed: delivery.target.topic !== undefined,
    });
    if ('ignored' in reading) {
      record('ignored', `Nothing to post: ${reading.ignored}.`, null);
      return {};
    }
    if (reading.messages.length === 0) {
      record('ignored', 'Nothing to post: the payload held no events.', null);
      return {};
    }
    eventType = reading.messages[0]?.eventType ?? null;
    const wanted = reading.messages.filter((m) => eventWanted(m.eventType, delivery.filters));
    if (wanted.length === 0) {
      record('ignored', 'Filtered out by the URL’s only_events or exclude_events.', eventType);
      return {};
    }
    const clientName = webhookClientName(integration);
    const results: PostResult[] = wanted.map((message) =>
      postWebhookMessage(ctx, bot, message, delivery.target, clientName),
    );
    const ids = results.flatMap((r) => (r.messageId === null ? [] : [r.messageId]));
    const where = [...new Set(results.map((r) => r.where))].join('; ');
    record(
      ids.length === results.length ? 'accepted' : 'error',
      `Posted to ${where}.`,
      eventType,
      200,
      ids,
    );
    return {};
  } catch (err) {
    if (!(err instanceof ApiError)) {
      record('error', 'Internal server error', eventType, 500);
      throw err;
    }
    const error = err;
    if (error.code === 'UNSUPPORTED_WEBHOOK_EVENT_TYPE') {
      record('unsupported', error.message, String(error.extra.event_type ?? ''), error.status);
    } else {
      record('error', error.message, eventType, error.status);
    }
    throw error;
  }
}

/**
 * The integration's reading. A payload that breaks its code (a field of a
 * type the tool never sends) is the payload's fault: the tool gets
 * ANOMALOUS_WEBHOOK_PAYLOAD, never a 500, and the log gets the error.
 */
function readSafely(
  ctx: AppContext,
  integration: Integration,
  input: Parameters<Integration['read']>[0],
): WebhookReading {
  try {
    return integration.read(input);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    ctx.log.error(`integration ${integration.name}: payload not understood`, err);
    throw anomalousPayload(integration.displayName);
  }
}
