import { addReaction, removeReaction } from '../../reactions/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const messageId = p.int({ min: 0 });

/** POST/DELETE /messages/{id}/reactions */
export const reactionRoutes = [
  route({
    method: 'POST',
    path: '/messages/:message_id(^\\d+)/reactions',
    api: '/messages/{message_id}/reactions',
    groupCommit: true,
    params: {
      message_id: messageId,
      emoji_name: p.str(),
      emoji_code: p.str().optional(),
      reaction_type: p.str().optional(),
    },
    handler: (ctx, user, params) =>
      addReaction(ctx, user, {
        messageId: params.message_id,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/messages/:message_id(^\\d+)/reactions',
    api: '/messages/{message_id}/reactions',
    groupCommit: true,
    params: {
      message_id: messageId,
      emoji_name: p.str().optional(),
      emoji_code: p.str().optional(),
      reaction_type: p.str().optional(),
    },
    handler: (ctx, user, params) =>
      removeReaction(ctx, user, {
        messageId: params.message_id,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
  }),
];
