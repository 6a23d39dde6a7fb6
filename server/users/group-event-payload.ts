import type { EventQueue } from '../events/queue.js';

/**
 * A `user_group` event's payload: clients that did not declare
 * include_deactivated_groups hear nothing of a deactivated group (Zulip's
 * rule), the rest get the event.
 */
export const groupEventPayload =
  <E>(deactivated: number, event: E) =>
  (queue: EventQueue): E | null =>
    deactivated === 1 && !queue.options.capabilities.include_deactivated_groups ? null : event;
