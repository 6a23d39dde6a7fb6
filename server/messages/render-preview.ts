import type { AppContext } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { renderMessage } from '../markdown/index.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { normalizeContent } from './content.js';

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
