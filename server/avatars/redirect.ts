import type { AppContext } from '../core/context.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { FileAnswer } from '../shared/files.js';
import { canAccessUser, INACCESSIBLE_USER_AVATAR_URL } from '../user-access/index.js';
import { avatarUrl, userByApiEmail } from '../users/index.js';

/**
 * Where a user not found leads: Zulip, with Gravatar off (as Hearth always
 * is: see users/format.ts), sends the e-mail's would-be Gravatar to its
 * default picture, version 1.
 */
const DEFAULT_AVATAR_URL = '/static/images/default-avatar.png';

/**
 * GET /avatar/{email_or_id} and /avatar/{email_or_id}/medium (Zulip's
 * views/users.py avatar): a redirect to the user's picture. A number is a
 * user id, anything else an API e-mail; deactivated users and bots are found
 * too. A user the viewer may not see (limited user access for guests) leads
 * to the unknown-user picture, in either size; no such user, to the default
 * picture. Never an error, as Zulip.
 */
export function avatarRedirect(
  ctx: AppContext,
  viewer: UserRow,
  emailOrId: string,
  medium: boolean,
): FileAnswer {
  const target = /^\d{1,15}$/.test(emailOrId)
    ? userById(ctx.db, Number(emailOrId))
    : userByApiEmail(ctx, emailOrId);
  let location: string;
  if (!target) location = `${DEFAULT_AVATAR_URL}?version=1`;
  else if (!canAccessUser(ctx, viewer, target)) location = INACCESSIBLE_USER_AVATAR_URL;
  else location = avatarUrl(target, medium ? 'medium' : 'default');
  return new FileAnswer({
    body: Buffer.alloc(0),
    contentType: 'text/html; charset=utf-8',
    status: 302,
    // Who may see whom changes; the picture behind each URL is cached there.
    cacheControl: 'private, no-cache',
    headers: { Location: location },
  });
}
