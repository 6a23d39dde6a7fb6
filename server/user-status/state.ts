import type { UserStatusRow } from '../db/queries/user-status.js';
import { statusesOfActiveUsers } from '../db/queries/user-status.js';
import { ReactionType } from '../emoji/index.js';
import type { StateProvider } from '../events/state-provider.js';
import { mergeUserSettings } from '../shared/user-settings.js';

/** A status as clients read it: only the keys that are set. */
export interface UserStatusDict {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** `away` is the deprecated inverse of the user's presence_enabled setting. */
export const isAway = (settings: string): boolean => !mergeUserSettings(settings).presence_enabled;

/** Zulip's format_user_status: `away` when true, the text when set, the emoji triple when set. */
export function formatUserStatus(row: UserStatusRow, away: boolean): UserStatusDict {
  const status: UserStatusDict = {};
  if (away) status.away = true;
  if (row.status_text) status.status_text = row.status_text;
  if (row.emoji_name) {
    status.emoji_name = row.emoji_name;
    status.emoji_code = row.emoji_code;
    status.reaction_type = row.reaction_type;
  }
  return status;
}

/** A row that says nothing: no text, no emoji, not away. */
const isBlank = (row: UserStatusRow, away: boolean): boolean =>
  !away &&
  row.status_text === '' &&
  row.emoji_name === '' &&
  row.emoji_code === '' &&
  row.reaction_type === ReactionType.unicode;

/** POST /register's `user_status`: every active user's status by user id, blank ones left out. */
export const userStatusState: StateProvider = {
  fetchTypes: ['user_status'],
  fetch(ctx) {
    const statuses: Record<string, UserStatusDict> = {};
    for (const row of statusesOfActiveUsers(ctx.db)) {
      const away = isAway(row.settings);
      if (!isBlank(row, away)) statuses[String(row.user_id)] = formatUserStatus(row, away);
    }
    return { user_status: statuses };
  },
};
