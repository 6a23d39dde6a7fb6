import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { dmGroupMemberIds } from '../db/queries/messages.js';
import { streamById } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import {
  directMessageUrl,
  messageLinkSyntax,
  silentMention,
  unusedFence,
} from '../markdown/index.js';
import { accessMessage } from '../narrow/index.js';
import { MAX_MESSAGE_LENGTH, MAX_REPORT_MESSAGE_EXPLANATION_LENGTH } from '../shared/limits.js';
import { loadRealm } from '../shared/realm.js';
import { truncateTopic } from '../shared/topics.js';
import { notificationBot } from '../users/index.js';
import { sendInternalChannelMessage } from './send.js';

/** Why a message may be reported, with the label the report shows (Zulip's REPORT_MESSAGE_REASONS). */
export const REPORT_REASONS = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;
export type ReportType = keyof typeof REPORT_REASONS;

// Room left for the reporter's description and the report's own text
// (Zulip's MAX_REPORT_MESSAGE_SNIPPET_LENGTH).
const MAX_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_MESSAGE_EXPLANATION_LENGTH - 500;
const TRUNCATION_NOTICE = '\n[message truncated]';

/** Zulip's truncate_content, in code points as Python counts. */
function truncate(content: string, maxLength: number): string {
  const chars = [...content];
  if (chars.length <= maxLength) return content;
  return chars.slice(0, maxLength - TRUNCATION_NOTICE.length).join('') + TRUNCATION_NOTICE;
}

/** Silent mentions as an English list ("A, B, and C"). */
const mentionList = (users: ReadonlyArray<{ id: number; full_name: string }>) =>
  new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(
    users.map(silentMention),
  );

/** Zulip's datetime_to_global_time: a `<time:…>` the client shows in each reader's zone. */
const globalTime = (unixSeconds: number) =>
  `<time:${new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

/**
 * POST /messages/{id}/report (Zulip's report_message_backend and
 * send_message_report): the Notification Bot posts the report, quoting the
 * message under a spoiler, to the organization's moderation-request channel
 * in the topic "<sender> moderation".
 */
export function reportMessage(
  ctx: AppContext,
  user: UserRow,
  input: { messageId: number; reportType: ReportType; description: string },
): Record<string, never> {
  if (input.reportType === 'other' && input.description === '') {
    throw badRequest('An explanation is required.');
  }
  const channelId = loadRealm(ctx).settings.moderation_request_channel_id;
  const channel = channelId === -1 ? undefined : streamById(ctx.db, channelId);
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const { message, stream } = accessMessage(ctx, user, input.messageId);

  const reported = userById(ctx.db, message.sender_id)!;
  const who = `${silentMention(user)} reported a message sent by ${silentMention(reported)}`;
  const when = globalTime(message.date_sent);
  let header: string;
  let original: string;
  if (stream) {
    header = `${who} at ${when}.`;
    original = `Original message at ${messageLinkSyntax(stream, message.topic, message.id)}`;
  } else {
    const participants = dmGroupMemberIds(ctx.db, message.dm_group_id!);
    if (participants.length <= 2) {
      if (reported.id !== user.id) header = `${who} at ${when}.`;
      else {
        const other = participants.find((id) => id !== user.id);
        const recipient = other === undefined ? user : userById(ctx.db, other)!;
        header = `${who} to ${silentMention(recipient)} at ${when}.`;
      }
    } else {
      const others = participants
        .filter((id) => id !== reported.id)
        .map((id) => userById(ctx.db, id)!);
      header = `${who} to ${mentionList(others)} at ${when}.`;
    }
    original = `[Original message](${directMessageUrl(ctx, participants, message.id)})`;
  }
  const quoted = truncate(message.content, MAX_SNIPPET_LENGTH);
  const fence = unusedFence(quoted);
  const content =
    `${header}\n\`\`\`quote\n**${REPORT_REASONS[input.reportType]}**. ${input.description}\n\`\`\`\n\n` +
    `${fence} spoiler ${original}\n${quoted}\n${fence}\n`;
  const topic =
    channel.topics_policy === 'empty_topic_only'
      ? ''
      : truncateTopic(`${reported.full_name} moderation`);

  return ctx.transaction((tx) => {
    const bot = notificationBot(ctx, tx);
    sendInternalChannelMessage(ctx, tx, bot, channel, topic, content, { readFor: [user.id] });
    return {};
  });
}
