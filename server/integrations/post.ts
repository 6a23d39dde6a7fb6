/** Posting an integration's message where its URL says: a channel and topic, or the bot owner's direct messages. */
import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import type { UserRow } from '../db/queries/users.js';
import { plainText } from '../markdown/index.js';
import { sendMessage } from '../messages/index.js';
import { noticeDue } from './deliveries.js';
import type { WebhookMessage } from './types.js';

/** Where the URL sends messages: `stream` (a name, or an id in digits) and `topic` overriding the integration's. */
export interface WebhookTarget {
  stream?: string;
  topic?: string;
}

/**
 * What became of one message: its id, or null when its channel does not
 * exist. That is not the tool's fault, so the tool is answered with
 * success (as Zulip does) and the bot's owner is told instead.
 */
export interface PostResult {
  messageId: number | null;
  where: string;
}

export function postWebhookMessage(
  ctx: AppContext,
  bot: UserRow,
  message: WebhookMessage,
  target: WebhookTarget,
  clientName: string,
): PostResult {
  if (target.stream === undefined) {
    // Zulip writes to the bot's owner; a person's own key (no owner) gets a note to self.
    const recipient = bot.bot_owner_id ?? bot.id;
    const { id } = sendMessage(ctx, bot, {
      type: 'private',
      to: JSON.stringify([recipient]),
      topic: undefined,
      content: message.content,
      clientName,
    });
    return { messageId: id, where: 'a direct message to the bot owner' };
  }
  const stream = target.stream;
  const topic = target.topic ?? message.topic;
  try {
    const { id } = sendMessage(ctx, bot, {
      type: 'stream',
      // Digits are a channel id (Zulip's isdecimal); anything else a name, sent as a JSON string.
      to: /^[0-9]+$/.test(stream) ? stream : JSON.stringify(stream),
      topic,
      content: message.content,
      clientName,
    });
    return { messageId: id, where: `#${stream} > ${topic}` };
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'STREAM_DOES_NOT_EXIST') throw err;
    tellOwner(
      ctx,
      bot,
      'missing-channel',
      `I could not post to the channel ${plainText(stream)}: it does not exist. Create it, or change the channel in the URL the tool posts to.`,
    );
    return { messageId: null, where: `nowhere: ${err.message}` };
  }
}

/** A direct message from the bot to its owner about its URL, at most once per interval per kind. */
function tellOwner(ctx: AppContext, bot: UserRow, kind: string, text: string): void {
  if (bot.bot_owner_id === null || !noticeDue(ctx, bot.id, kind)) return;
  try {
    sendMessage(ctx, bot, {
      type: 'private',
      to: JSON.stringify([bot.bot_owner_id]),
      topic: undefined,
      content: text,
      clientName: 'Internal',
    });
  } catch (err) {
    ctx.log.warn(`integration: could not tell the owner of bot ${bot.id}: ${String(err)}`);
  }
}
