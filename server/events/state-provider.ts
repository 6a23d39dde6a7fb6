import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import type { ClientCapabilities, NarrowTerm } from './queue.js';

export interface StateOptions {
  applyMarkdown: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  /** POST /register's presence_history_limit_days (absent: two weeks). */
  presenceHistoryLimitDays?: number;
  capabilities: ClientCapabilities;
  narrow: NarrowTerm[];
}

/**
 * One area of POST /register's initial state. `fetchTypes` are the
 * fetch_event_types names that ask for it; later areas add providers.
 */
export interface StateProvider {
  fetchTypes: readonly string[];
  /** Needs every one of fetchTypes (e.g. unread_msgs needs message and update_message_flags). */
  requiresAll?: boolean;
  fetch(ctx: AppContext, user: UserRow, options: StateOptions): Record<string, unknown>;
}
