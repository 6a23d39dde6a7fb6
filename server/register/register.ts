import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../core/version.js';
import type { UserRow } from '../db/queries/users.js';
import type { ClientHangup } from '../events/hub.js';
import {
  type ClientCapabilities,
  DEFAULT_CLIENT_CAPABILITIES,
  type NarrowTerm,
} from '../events/queue.js';
import { jsonFieldsOf, SerialisedFields } from '../shared/json-fields.js';
import { isGuest } from '../shared/roles.js';
import { fetchInitialState } from './state.js';

export interface RegisterInput {
  applyMarkdown: boolean;
  slimPresence: boolean;
  presenceHistoryLimitDays?: number;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  allPublicStreams: boolean | undefined;
  includeSubscribers: 'true' | 'false' | 'partial';
  clientCapabilities: Partial<ClientCapabilities>;
  narrow: NarrowTerm[];
  clientName: string;
}

const supportedNarrowOperators = new Set(['channel', 'stream', 'topic', 'sender', 'is']);

function checkRegisterNarrow(narrow: NarrowTerm[]): void {
  for (const term of narrow) {
    if (!supportedNarrowOperators.has(term.operator)) {
      throw badRequest(`Operator ${term.operator} not supported.`);
    }
    if (term.operator === 'is' && term.operand === 'followed') {
      throw badRequest('Operand followed not supported.');
    }
  }
}

/**
 * POST /register. Allocating the queue and reading the state happen in one
 * synchronous step, so no event can fall between them: last_event_id is -1.
 * The answer is written as text, since parts of the state come already
 * serialised (JsonText).
 */
export function registerQueue(
  ctx: AppContext,
  user: UserRow,
  input: RegisterInput,
): SerialisedFields {
  // Zulip's order: the view refuses all_public_streams, then do_events_register the narrow.
  if (input.allPublicStreams && isGuest(user))
    throw badRequest('User not authorized for this query');
  checkRegisterNarrow(input.narrow);
  const capabilities = { ...DEFAULT_CLIENT_CAPABILITIES, ...input.clientCapabilities };
  const queue = ctx.events.register({
    userId: user.id,
    // A bot's queues count toward its owner's budget of queued events.
    budgetOwnerId: user.is_bot && user.bot_owner_id !== null ? user.bot_owner_id : user.id,
    eventTypes: input.eventTypes ? new Set(input.eventTypes) : null,
    narrow: input.narrow,
    allPublicStreams: input.allPublicStreams ?? user.default_all_public_streams === 1,
    applyMarkdown: input.applyMarkdown,
    slimPresence: input.slimPresence,
    capabilities,
    clientName: input.clientName,
  });
  const types = input.fetchEventTypes ?? input.eventTypes;
  const state = fetchInitialState(ctx, user, types ? new Set(types) : null, {
    applyMarkdown: input.applyMarkdown,
    includeSubscribers: input.includeSubscribers,
    slimPresence: input.slimPresence,
    presenceHistoryLimitDays: input.presenceHistoryLimitDays,
    capabilities,
    narrow: input.narrow,
  });
  return new SerialisedFields(
    jsonFieldsOf({
      queue_id: queue.id,
      last_event_id: -1,
      zulip_feature_level: FEATURE_LEVEL,
      service_feature_level: FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      ...state,
    }),
  );
}

/** GET /events: the queue's events joined as the JSON text they were stored as. */
export async function getEvents(
  ctx: AppContext,
  user: UserRow,
  input: { queueId: string | undefined; lastEventId: number | undefined; dontBlock: boolean },
  hangup: ClientHangup,
): Promise<SerialisedFields> {
  if (input.queueId === undefined) throw badRequest("Missing 'queue_id' argument");
  if (input.lastEventId === undefined) throw badRequest("Missing 'last_event_id' argument");
  const queue = ctx.events.get(input.queueId, user.id);
  const events = await ctx.events.poll(queue, input.lastEventId, input.dontBlock, hangup);
  return new SerialisedFields(`"events":[${events}],"queue_id":${JSON.stringify(queue.id)}`);
}

/** DELETE /events */
export function deleteQueue(
  ctx: AppContext,
  user: UserRow,
  queueId: string,
): Record<string, never> {
  ctx.events.delete(ctx.events.get(queueId, user.id));
  return {};
}
