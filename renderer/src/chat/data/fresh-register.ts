import type { ZulipEvent } from './event-kit.js';
import type { ChatState } from './model.js';

/**
 * Events the chat answers by registering afresh rather than by applying
 * them: when `can_access_all_users_group` changes, which users a guest may
 * see changes wholesale and no event lists them (Zulip's server sends none;
 * its web app reloads). The store keeps what is on screen meanwhile, as
 * when its queue is lost.
 */
export function needsFreshRegister(state: ChatState, event: ZulipEvent): boolean {
  if (event.type !== 'realm') return false;
  const changesAccess =
    event.op === 'update'
      ? event.property === 'can_access_all_users_group'
      : event.op === 'update_dict' &&
        typeof event.data === 'object' &&
        event.data !== null &&
        'can_access_all_users_group' in event.data;
  return changesAccess && state.users.get(state.ownUserId)?.is_guest === true;
}
