import { z } from 'zod';
import type { NarrowTerm } from '../../events/queue.js';
import { deleteQueue, getEvents, registerQueue } from '../../register/index.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/**
 * The narrow a queue registers with: Zulip's NarrowT, a list of
 * [operator, operand] string pairs (the object form of GET /messages is
 * not taken here), with pydantic's wording for each mistake.
 */
export const narrowParam = p
  .json(z.array(z.array(z.string()).length(2)))
  .refine((terms): NarrowTerm[] =>
    terms.map(([operator, operand]) => ({ operator: operator!, operand, negated: false })),
  );

const capabilities = z
  .object({
    notification_settings_null: z.boolean(),
    bulk_message_deletion: z.boolean(),
    user_avatar_url_field_optional: z.boolean(),
    stream_typing_notifications: z.boolean(),
    user_settings_object: z.boolean(),
    linkifier_url_template: z.boolean(),
    user_list_incomplete: z.boolean(),
    include_deactivated_groups: z.boolean(),
    archived_channels: z.boolean(),
    empty_topic_name: z.boolean(),
    simplified_presence_events: z.boolean(),
  })
  .partial();

/** zulip-js sends the literal "null" when it wants every event type. */
const eventTypeList = p.json(z.array(z.string()).nullable());

export const eventRoutes = [
  route({
    method: 'POST',
    path: '/register',
    api: '/register',
    // In the (alphabetical) order of Zulip's events_register_backend.
    params: {
      all_public_streams: p.bool().optional(),
      apply_markdown: p.bool().default(false),
      client_capabilities: p.json(capabilities).default({}),
      client_gravatar: p.bool().default(true),
      event_types: eventTypeList.default(null),
      fetch_event_types: eventTypeList.default(null),
      include_subscribers: p.oneOf(['true', 'false', 'partial'] as const).default('false'),
      narrow: narrowParam.default([]),
      presence_history_limit_days: p.int().optional(),
      queue_lifespan_secs: p.int().optional(),
      slim_presence: p.bool().default(false),
    },
    handler: (ctx, user, params, request) =>
      registerQueue(ctx, user, {
        applyMarkdown: params.apply_markdown,
        slimPresence: params.slim_presence,
        presenceHistoryLimitDays: params.presence_history_limit_days,
        eventTypes: params.event_types,
        fetchEventTypes: params.fetch_event_types,
        allPublicStreams: params.all_public_streams,
        includeSubscribers: params.include_subscribers,
        clientCapabilities: params.client_capabilities,
        narrow: params.narrow,
        clientName: request.clientName,
      }),
  }),
  route({
    method: 'GET',
    path: '/events',
    api: '/events',
    differences: {
      'queue_id is optional': WHY.viewChecksAbsence,
    },
    // Usually served by the lean path (lean-events.ts), which hands this
    // route every request it does not recognise as plain.
    notRateLimited: true,
    params: {
      // Checked by getEvents: Zulip reports these as plain BAD_REQUEST errors.
      queue_id: p.str().optional(),
      last_event_id: p.int().optional(),
      dont_block: p.bool().default(false),
    },
    handler: (ctx, user, params, request) =>
      getEvents(
        ctx,
        user,
        {
          queueId: params.queue_id,
          lastEventId: params.last_event_id,
          dontBlock: params.dont_block,
        },
        request.hangup,
      ),
  }),
  route({
    method: 'DELETE',
    path: '/events',
    api: '/events',
    rateLimitExempt: true,
    params: { queue_id: p.str() },
    handler: (ctx, user, params) => deleteQueue(ctx, user, params.queue_id),
  }),
];
