import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { MessageRow } from '../db/queries/messages.js';
import {
  deleteReaction,
  insertReaction,
  type ReactionKey,
  reactionExists,
  reactionOf,
  reactionWithEmoji,
} from '../db/queries/reactions.js';
import type { UserRow } from '../db/queries/users.js';
import { checkEmoji, type Emoji, emojiByName, ReactionType } from '../emoji/index.js';
import { markHistorical } from '../flags/index.js';
import { accessMessage, hasReceived, usersWithMessageAccess } from '../narrow/index.js';
import { loadRealm } from '../shared/realm.js';
import type { EventBody, Reaction } from '../shared/zulip-api/index.js';
import { applyParticipationPolicy } from '../topics/index.js';
import { apiEmail } from '../users/index.js';

export interface ReactionInput {
  messageId: number;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

function emitReaction(
  ctx: AppContext,
  tx: Tx,
  op: 'add' | 'remove',
  user: UserRow,
  message: MessageRow,
  emoji: Emoji & { name: string },
): void {
  const email = apiEmail(user, loadRealm(ctx).row.email_domain);
  tx.emit({
    type: 'reaction',
    users: usersWithMessageAccess(ctx, message),
    payload: {
      type: 'reaction',
      op,
      user_id: user.id,
      // Restored at feature level 339 for clients that still read it.
      user: { user_id: user.id, email, full_name: user.full_name },
      message_id: message.id,
      emoji_name: emoji.name,
      emoji_code: emoji.code,
      // Checked by checkEmoji; the spec's other name for Zulip's extra emoji
      // (service_extra_emoji) is passed on as the client named it.
      reaction_type: emoji.type as Reaction['reaction_type'],
    } satisfies EventBody<'reaction', 'add' | 'remove'>,
  });
}

/** Zulip's ReactionExistsError and ReactionDoesNotExistError carry codes of their own. */
const reactionAlreadyExists = () =>
  new ApiError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
const reactionDoesNotExist = () =>
  new ApiError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });

/** POST /messages/{message_id}/reactions */
export function addReaction(
  ctx: AppContext,
  user: UserRow,
  input: ReactionInput & { emojiName: string },
): Record<string, never> {
  const { message, stream } = accessMessage(ctx, user, input.messageId, { modifying: true });
  let emoji: Emoji;
  if (input.emojiCode === undefined || input.reactionType === undefined) {
    emoji = emojiByName(ctx, input.emojiName);
  } else {
    emoji = { code: input.emojiCode, type: input.reactionType };
  }
  const key: ReactionKey = {
    messageId: message.id,
    userId: user.id,
    reactionType: emoji.type,
    emojiCode: emoji.code,
  };
  if (reactionExists(ctx.db, key)) throw reactionAlreadyExists();
  // Someone reacted with this emoji already: keep their name so the counts agree.
  const existing = reactionWithEmoji(ctx.db, message.id, emoji.type, emoji.code);
  let name = input.emojiName;
  if (existing) name = existing.emoji_name;
  else checkEmoji(ctx, name, emoji);

  ctx.transaction((tx) => {
    // A non-subscriber reacting gets a historical row, so reaction events reach them.
    if (stream && !hasReceived(ctx, user.id, message)) {
      markHistorical(ctx.db, user.id, message.id);
    }
    insertReaction(ctx.db, key, name);
    emitReaction(ctx, tx, 'add', user, message, { ...emoji, name });
    // Reacting is participation in the topic (Zulip's do_add_reaction).
    if (stream) applyParticipationPolicy(ctx, tx, user, stream, message.topic);
  });
  return {};
}

/** DELETE /messages/{message_id}/reactions */
export function removeReaction(
  ctx: AppContext,
  user: UserRow,
  input: ReactionInput,
): Record<string, never> {
  const { message } = accessMessage(ctx, user, input.messageId, { modifying: true });
  let emoji: Emoji;
  if (input.emojiCode !== undefined) {
    emoji = { code: input.emojiCode, type: input.reactionType ?? ReactionType.unicode };
  } else {
    if (input.emojiName === undefined) {
      throw badRequest(
        'At least one of the following arguments must be present: emoji_name, emoji_code',
      );
    }
    const byName = emojiByName(ctx, input.emojiName);
    emoji = { code: byName.code, type: input.reactionType ?? byName.type };
  }
  const key: ReactionKey = {
    messageId: message.id,
    userId: user.id,
    reactionType: emoji.type,
    emojiCode: emoji.code,
  };
  const reaction = reactionOf(ctx.db, key);
  if (!reaction) throw reactionDoesNotExist();
  ctx.transaction((tx) => {
    deleteReaction(ctx.db, key);
    emitReaction(ctx, tx, 'remove', user, message, { ...emoji, name: reaction.emoji_name });
  });
  return {};
}
