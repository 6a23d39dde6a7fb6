import type { AppContext, Tx } from '../core/context.js';
import type { UserRow } from '../db/queries/users.js';
import { renderMessage } from '../markdown/index.js';
import { deliverMessage, normalizeContent } from '../messages/index.js';
import { notificationBot } from '../users/index.js';

/**
 * A direct message from Notification Bot to `user` (Zulip's
 * internal_send_private_message): unread for them, without the checks a
 * person's message gets.
 */
export function sendNotificationBotDm(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  markdown: string,
): number {
  const bot = notificationBot(ctx, tx);
  const content = normalizeContent(markdown);
  const members = [bot.id, user.id].sort((a, b) => a - b);
  return deliverMessage(ctx, tx, {
    sender: bot,
    addressee: { topic: '', recipients: members, dmMembers: members },
    content,
    rendered: renderMessage(ctx, content),
    clientName: 'Internal',
    readBySender: true,
    topicWildcardUsers: [],
    automaticTopicPolicy: false,
  }).id;
}
