import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { renderMessage } from '../markdown/index.js';
import { MAX_MESSAGE_LENGTH } from '../shared/limits.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { userIdAccessCheck } from '../user-access/index.js';

/**
 * POST /messages/render: the HTML this content renders to. Zulip renders the
 * content as given, without a send's checks: whitespace alone renders to "".
 * Only what a message could hold is rendered.
 */
export function renderPreview(
  ctx: AppContext,
  user: UserRow,
  content: string,
): { rendered: string } {
  const chars = [...content];
  const body =
    chars.length > MAX_MESSAGE_LENGTH ? chars.slice(0, MAX_MESSAGE_LENGTH).join('') : content;
  const settings = mergeUserSettings(user.settings);
  return {
    rendered: renderMessage(ctx, body, {
      translateEmoticons: settings.translate_emoticons,
      mentionable: userIdAccessCheck(ctx, user),
    }).html,
  };
}
