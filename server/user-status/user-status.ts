import type { AppContext } from '../core/context.js';
import { badRequest, insufficientPermission } from '../core/errors.js';
import { type UserStatusRow, userStatusOf, writeUserStatus } from '../db/queries/user-status.js';
import type { UserRow } from '../db/queries/users.js';
import { checkEmoji, emojiByName, ReactionType } from '../emoji/index.js';
import { setPresenceEnabled } from '../presence/index.js';
import { MAX_STATUS_TEXT_LENGTH } from '../shared/limits.js';
import { isAdmin, requireRole } from '../shared/roles.js';
import type { EventBody, Reaction } from '../shared/zulip-api/index.js';
import { userIdsWhoCanAccess } from '../user-access/index.js';
import { accessReadableUser, accessUserById } from '../users/index.js';
import { formatUserStatus, isAway, type UserStatusDict } from './state.js';

/** What a status update may change; an absent field stays as it is. */
export interface StatusInput {
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** POST /users/me/status also takes the deprecated `away`. */
export interface OwnStatusInput extends StatusInput {
  away?: boolean;
}

/** Unicode White_Space, which Zulip's parameter parser trims before checking the length. */
const WHITE_SPACE = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WHITE_SPACE}]+|[${WHITE_SPACE}]+$`, 'g');
/** Python's str.strip(), applied after the check: White_Space plus the separators U+001C..U+001F. */
const STRIP = new RegExp(`^[${WHITE_SPACE}\\x1c-\\x1f]+|[${WHITE_SPACE}\\x1c-\\x1f]+$`, 'g');

/** Zulip's status_text rules: surrounding whitespace goes, then at most 60 code points. */
function checkStatusText(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw.replace(TRIM, '');
  if ([...text].length > MAX_STATUS_TEXT_LENGTH) {
    throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  return text.replace(STRIP, '');
}

/** POST /users/me/status */
export function updateOwnStatus(
  ctx: AppContext,
  user: UserRow,
  input: OwnStatusInput,
): Record<string, never> {
  requireRole(user, 'human');
  const statusText = checkStatusText(input.statusText);
  applyStatus(ctx, user, { ...input, statusText });
  return {};
}

/** POST /users/{user_id}/status: an administrator sets another user's (or their own) status. */
export function updateUserStatus(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  input: StatusInput,
): Record<string, never> {
  requireRole(actor, 'human');
  const statusText = checkStatusText(input.statusText);
  const target = accessUserById(ctx, userId);
  if (!isAdmin(actor)) throw insufficientPermission();
  applyStatus(ctx, target, { ...input, statusText, away: undefined });
  return {};
}

/** GET /users/{user_id}/status: `{}` for a user who never set one. */
export function getUserStatus(
  ctx: AppContext,
  viewer: UserRow,
  userId: number,
): { status: UserStatusDict } {
  const target = accessReadableUser(ctx, viewer, userId);
  const row = userStatusOf(ctx.db, target.id);
  return { status: row ? formatUserStatus(row, isAway(target.settings)) : {} };
}

/** Zulip's update_user_status_backend and do_update_user_status, for `user` (already checked). */
function applyStatus(ctx: AppContext, user: UserRow, input: OwnStatusInput): void {
  const { away, statusText, emojiName } = input;
  if (away === undefined && statusText === undefined && emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  let emojiCode = input.emojiCode;
  let reactionType = input.reactionType;
  if (emojiName === '') {
    // An empty name clears the emoji, whatever else was passed.
    emojiCode = '';
    reactionType = ReactionType.unicode;
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      const byName = emojiByName(ctx, emojiName);
      emojiCode ??= byName.code;
      reactionType ??= byName.type;
    }
    checkEmoji(ctx, emojiName, { code: emojiCode, type: reactionType });
  } else if (emojiCode || reactionType) {
    throw badRequest(
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
  }

  ctx.transaction((tx) => {
    if (away !== undefined) setPresenceEnabled(ctx, tx, user, !away);
    const before = userStatusOf(ctx.db, user.id);
    const row: UserStatusRow = {
      user_id: user.id,
      status_text: statusText ?? before?.status_text ?? '',
      emoji_name: emojiName ?? before?.emoji_name ?? '',
      emoji_code: (emojiName === undefined ? before?.emoji_code : emojiCode) ?? '',
      reaction_type:
        (emojiName === undefined ? before?.reaction_type : reactionType) ?? ReactionType.unicode,
      timestamp: Math.floor(ctx.now() / 1000),
    };
    writeUserStatus(ctx.db, row);

    // Only what changed; the emoji as its full triple.
    const payload: EventBody<
      'user_status',
      string,
      'away' | 'status_text' | 'emoji_name' | 'emoji_code' | 'reaction_type'
    > = {
      type: 'user_status',
      user_id: user.id,
    };
    if (away !== undefined) payload.away = away;
    if (statusText !== undefined) payload.status_text = statusText;
    if (emojiName !== undefined) {
      payload.emoji_name = emojiName;
      payload.emoji_code = emojiCode!;
      // Checked by checkEmoji; the spec's other name for Zulip's extra emoji
      // (service_extra_emoji) is passed on as the client named it.
      payload.reaction_type = reactionType as Reaction['reaction_type'];
    }
    tx.emit({
      type: 'user_status',
      // Zulip's get_user_ids_who_can_access_user: guests limited by
      // can_access_all_users_group hear nothing of users hidden from them.
      users: userIdsWhoCanAccess(ctx, user.id),
      payload,
    });
  });
}
