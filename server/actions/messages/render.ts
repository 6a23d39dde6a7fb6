import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/queries/users.js';
import { normalizeContent } from '../../domain/message-text.js';
import { renderMessage } from '../../domain/render.js';
import { mergeUserSettings } from '../../domain/user-settings.js';

/** POST /messages/render: the HTML a message with this content would get. */
export function renderPreview(
  ctx: AppContext,
  user: UserRow,
  content: string,
): { rendered: string } {
  const body = normalizeContent(content);
  const settings = mergeUserSettings(user.settings);
  return {
    rendered: renderMessage(ctx, body, { translateEmoticons: settings.translate_emoticons }).html,
  };
}
