import type { Delivered, EventType } from '../../../../server/shared/zulip-api/index.js';
import { channelHandlers } from './channel-events.js';
import type { Apply, EventContext, Handlers, ZulipEvent } from './event-kit.js';
import { messageHandlers } from './message-events.js';
import type { ChatState } from './model.js';
import { peopleHandlers } from './people-events.js';
import { personalHandlers } from './personal-events.js';
import { settingsHandlers } from './settings-events.js';

/**
 * Applying the events of `GET /events` to the chat state (Zulip's
 * server_events_dispatch.ts is the model). Pure apart from the unread book,
 * which the store owns; what needs the network or a timer is reported in
 * `EventEffects` for the store to do.
 */

export { type EventContext, type EventEffects, noEffects, type ZulipEvent } from './event-kit.js';
export { typingKey, withTyping } from './people-events.js';

const handlers: Handlers = {
  ...messageHandlers,
  ...channelHandlers,
  ...peopleHandlers,
  ...settingsHandlers,
  ...personalHandlers,
};

/** One event applied; unknown types (heartbeat, restart, and those the chat does not show) change nothing. */
export function applyEvent(state: ChatState, event: ZulipEvent, ctx: EventContext): ChatState {
  // The table gives each type its own handler, so this one takes this event.
  // (Zulip's events carry every field their description lists: `Delivered`.)
  const handler =
    event.type === undefined ? undefined : (handlers[event.type] as Apply | undefined);
  return handler ? handler(state, event as Delivered<EventType>, ctx) : state;
}
