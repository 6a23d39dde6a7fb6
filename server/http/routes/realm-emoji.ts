import { addCustomEmoji, deactivateCustomEmoji, listCustomEmoji } from '../../emoji/index.js';
import { WHY } from '../api-link.js';
import { p } from '../params.js';
import { route } from '../route.js';

/**
 * /realm/emoji. The name is the rest of the path, slashes included, as in
 * Zulip's URL pattern: a name with a slash is refused by the name rules, not
 * answered "Endpoint not found".
 */
export const realmEmojiRoutes = [
  route({
    method: 'GET',
    path: '/realm/emoji',
    api: '/realm/emoji',
    params: {},
    handler: (ctx) => listCustomEmoji(ctx),
  }),
  route({
    method: 'POST',
    path: '/realm/emoji/*',
    api: '/realm/emoji/{emoji_name}',
    differences: {
      'filename is not declared': WHY.filePart,
    },
    params: { '*': p.str() },
    handler: (ctx, user, params, request) => addCustomEmoji(ctx, user, params['*'], request.files),
  }),
  route({
    method: 'DELETE',
    path: '/realm/emoji/*',
    api: '/realm/emoji/{emoji_name}',
    params: { '*': p.str() },
    handler: (ctx, user, params) => deactivateCustomEmoji(ctx, user, params['*']),
  }),
];
