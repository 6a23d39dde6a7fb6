import type { Db } from '../open.js';
import { stmt } from '../prepared.js';
import type { ReactionRow } from './messages.js';

export interface ReactionKey {
  messageId: number;
  userId: number;
  reactionType: string;
  emojiCode: string;
}

export const reactionExists = (db: Db, k: ReactionKey) =>
  stmt<[number, number, string, string], { x: number }>(
    db,
    'SELECT 1 AS x FROM reactions WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?',
  ).get(k.messageId, k.userId, k.reactionType, k.emojiCode) !== undefined;

/** Someone's reaction with this emoji on the message (its name is reused for consistency). */
export const reactionWithEmoji = (
  db: Db,
  messageId: number,
  reactionType: string,
  emojiCode: string,
) =>
  stmt<[number, string, string], ReactionRow>(
    db,
    'SELECT * FROM reactions WHERE message_id = ? AND reaction_type = ? AND emoji_code = ? ORDER BY id LIMIT 1',
  ).get(messageId, reactionType, emojiCode);

export const insertReaction = (db: Db, k: ReactionKey, emojiName: string) =>
  stmt(
    db,
    `INSERT INTO reactions (message_id, user_id, reaction_type, emoji_code, emoji_name, id)
     VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(id), 0) + 1 FROM reactions))`,
  ).run(k.messageId, k.userId, k.reactionType, k.emojiCode, emojiName);

export const deleteReaction = (db: Db, k: ReactionKey) =>
  stmt(
    db,
    'DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?',
  ).run(k.messageId, k.userId, k.reactionType, k.emojiCode);

export const reactionOf = (db: Db, k: ReactionKey) =>
  stmt<[number, number, string, string], ReactionRow>(
    db,
    'SELECT * FROM reactions WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?',
  ).get(k.messageId, k.userId, k.reactionType, k.emojiCode);
