import { getUserStatus, updateOwnStatus, updateUserStatus } from '../../user-status/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

// status_text is stripped and measured by the area, as Zulip does.
const statusParams = {
  status_text: p.str().optional(),
  emoji_name: p.str().optional(),
  emoji_code: p.str().optional(),
  reaction_type: p.str().optional(),
};

/** /users/me/status, /users/{user_id}/status */
export const userStatusRoutes = [
  route({
    method: 'POST',
    path: '/users/me/status',
    api: '/users/me/status',
    requires: 'human',
    params: { ...statusParams, away: p.bool().optional() },
    handler: (ctx, user, params) =>
      updateOwnStatus(ctx, user, {
        away: params.away,
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
  }),
  route({
    method: 'POST',
    path: '/users/:user_id(^\\d+)/status',
    api: '/users/{user_id}/status',
    requires: 'human',
    params: { user_id: p.int(), ...statusParams },
    handler: (ctx, user, params) =>
      updateUserStatus(ctx, user, params.user_id, {
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id(^\\d+)/status',
    api: '/users/{user_id}/status',
    params: { user_id: p.int() },
    handler: (ctx, user, params) => getUserStatus(ctx, user, params.user_id),
  }),
];
