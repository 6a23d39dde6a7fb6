import { recipientsAlertedBy } from '../alert-words/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { badRequest, missingArgument } from '../core/errors.js';
import { setMessageHasAttachment } from '../db/queries/attachments.js';
import { dmGroupFor } from '../db/queries/dm-groups.js';
import { insertMessageRow, type SubmessageRow } from '../db/queries/messages.js';
import { usersWhoMuted } from '../db/queries/muted-users.js';
import { type StreamRow, setStreamFirstMessageId, subscriberIds } from '../db/queries/streams.js';
import { insertSubmessage } from '../db/queries/submessages.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { storeNewMessageFlags } from '../flags/index.js';
import { type RenderResult, renderMessage } from '../markdown/index.js';
import { Flag } from '../shared/flags.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import {
  followWhereMentioned,
  policyForSentMessage,
  setVisibilityPolicy,
} from '../topics/index.js';
import { claimAttachments } from '../uploads/index.js';
import { userIdAccessCheck } from '../user-access/index.js';
import { type MessageTarget, parseChannelIndicator, parsePrivateRecipients } from './addressee.js';
import { normalizeContent } from './content.js';
import { emitMessageEvent } from './events.js';
import { checkMentionPermissions, mentionedUsers, mentionFlags } from './mentions.js';
import { type Addressee, planAddressee, resolveChannel, resolveDirect } from './recipients.js';
import { recipientSet } from './subscriber-cache.js';
import { widgetOf } from './widgets.js';

/** Clients that render their own sent messages, so the sender has read them (Zulip's list). */
export const selfRenderingClients = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'website',
  'ios',
  'android',
]);

/** POST /messages as the client sent it. */
export interface SendInput {
  type: 'direct' | 'private' | 'stream' | 'channel';
  to: string | undefined;
  content: string;
  topic: string | undefined;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  clientName: string;
  /** `forged`: only Zulip's API super-users may forge messages; Hearth has none. */
  forged?: string;
  /** `sender`: the mirrored sender, for mirroring clients only. */
  mirrorSender?: string;
}

/** A message to check and render: where it goes, already read from `to`. */
export interface MessageRequest {
  target: MessageTarget;
  content: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  clientName: string;
}

export type SendResult = {
  id: number;
  automatic_new_visibility_policy?: number;
};

/** A validated, rendered message ready to be stored (user sends and Notification Bot alike). */
export interface MessageDraft {
  sender: UserRow;
  addressee: Addressee;
  content: string;
  rendered: RenderResult;
  clientName: string;
  /** Does the sender start with the message read? */
  readBySender: boolean;
  /** Users reached by a topic wildcard mention (the topic's participants). */
  topicWildcardUsers: readonly number[];
  local?: { queueId: string; localId: string };
  /** Recipients who start with the message read (Zulip's mark_as_read_for_acting_user). */
  readFor?: readonly number[];
  /** When set, only these recipients start with it unread (Zulip's limit_unread_user_ids). */
  unreadOnlyFor?: ReadonlySet<number>;
  /** Apply the sender's automatic follow/unmute settings (people, not system bots). */
  automaticTopicPolicy: boolean;
}

/**
 * Each recipient's flags, for the recipients whose flags are not 0 (and the
 * sender, when a recipient): everyone else starts unread, unmentioned, with no
 * alert word. Only the few who can differ are looked at, unless a rule
 * reaches every recipient (a channel-wide mention, limit_unread_user_ids),
 * since a channel may have thousands of subscribers.
 */
function recipientFlags(
  ctx: AppContext,
  draft: MessageDraft,
  recipients: ReadonlySet<number>,
  mentioned: ReadonlySet<number>,
): Map<number, number> {
  const { sender, rendered } = draft;
  const topicWildcardUsers = new Set(draft.topicWildcardUsers);
  const mutedSender = usersWhoMuted(ctx.db, sender.id);
  const readFor = new Set(draft.readFor ?? []);
  const alerted = recipientsAlertedBy(ctx.db, draft.content, recipients);
  const everyoneMayDiffer = rendered.streamWildcard || draft.unreadOnlyFor !== undefined;
  const candidates = everyoneMayDiffer
    ? recipients
    : new Set([
        sender.id,
        ...mutedSender,
        ...readFor,
        ...alerted,
        ...mentioned,
        ...(rendered.topicWildcard ? topicWildcardUsers : []),
      ]);
  const muting = new Set(mutedSender);
  const flagsByUser = new Map<number, number>();
  for (const userId of candidates) {
    if (!recipients.has(userId)) continue;
    let read: boolean;
    if (userId === sender.id) read = draft.readBySender;
    else
      read =
        muting.has(userId) ||
        readFor.has(userId) ||
        (draft.unreadOnlyFor !== undefined && !draft.unreadOnlyFor.has(userId));
    const flags =
      (read ? Flag.read : 0) |
      (alerted.has(userId) ? Flag.has_alert_word : 0) |
      mentionFlags(userId, rendered, mentioned, topicWildcardUsers);
    if (flags !== 0 || userId === sender.id) flagsByUser.set(userId, flags);
  }
  return flagsByUser;
}

/**
 * Stores a validated message and emits its events, inside the caller's
 * transaction. Per-recipient state follows db/DESIGN.md: a flag row only
 * where a recipient's flags differ from the watermark default.
 */
export function deliverMessage(ctx: AppContext, tx: Tx, draft: MessageDraft): SendResult {
  const { sender, addressee, rendered } = draft;
  const dmGroupId = addressee.dmMembers ? dmGroupFor(ctx.db, addressee.dmMembers) : null;
  const row = insertMessageRow(ctx.db, {
    sender_id: sender.id,
    stream_id: addressee.stream?.id ?? null,
    dm_group_id: dmGroupId,
    topic: addressee.topic,
    content: draft.content,
    rendered_content: rendered.html,
    date_sent: Math.floor(ctx.now() / 1000),
    sending_client: draft.clientName,
    is_me_message: rendered.isMeMessage,
    has_link: rendered.hasLink,
    has_image: rendered.hasImage,
    has_attachment: rendered.hasAttachment,
  });
  const id = row.id;
  // has_attachment means claimed uploads (Zulip), not merely links that look like them.
  const claimed = claimAttachments(ctx, tx, sender, id, rendered.uploadPathIds);
  if (claimed !== rendered.hasAttachment) {
    setMessageHasAttachment(ctx.db, id, claimed);
    row.has_attachment = claimed ? 1 : 0;
  }
  // A /poll or /todo message declares its widget in a first submessage.
  const widget = widgetOf(draft.content);
  const submessages: SubmessageRow[] = [];
  if (widget) {
    const submessage = {
      message_id: id,
      sender_id: sender.id,
      msg_type: 'widget',
      content: JSON.stringify(widget),
    };
    submessages.push({ id: insertSubmessage(ctx.db, submessage), ...submessage });
  }

  const recipients = recipientSet(addressee.recipients);
  const mentioned = mentionedUsers(ctx, rendered);
  const flagsByUser = recipientFlags(ctx, draft, recipients, mentioned);
  storeNewMessageFlags(ctx.db, id, sender.id, flagsByUser);

  let automatic: number | null = null;
  const stream = addressee.stream;
  if (stream) {
    if (stream.first_message_id === null) setStreamFirstMessageId(ctx.db, stream.id, id);
    if (draft.automaticTopicPolicy) {
      automatic = policyForSentMessage(ctx, sender, stream, addressee.topic, id);
    }
  }

  // Local echo data goes only to the sender's own queue that asked for it.
  const local =
    draft.local &&
    [...ctx.events.queuesOf(sender.id)].some((queue) => queue.id === draft.local!.queueId)
      ? draft.local
      : undefined;
  const stored = { row, sender, streamName: addressee.stream?.name, submessages };
  emitMessageEvent(ctx, tx, stored, addressee.recipients, flagsByUser, local, {
    messageId: id,
    senderId: sender.id,
    isChannel: stream !== null && stream !== undefined,
    recipients:
      recipients.size === addressee.recipients.length ? addressee.recipients : [...recipients],
    mentioned: [...rendered.mentionedUserIds],
  });

  if (stream && draft.automaticTopicPolicy) {
    if (automatic !== null)
      setVisibilityPolicy(ctx, tx, sender.id, stream.id, addressee.topic, automatic);
    const mentionedRecipients = [...mentioned]
      .filter((userId) => userId !== sender.id && recipients.has(userId))
      .map((userId) => userById(ctx.db, userId))
      .filter((user) => user !== undefined);
    followWhereMentioned(ctx, tx, mentionedRecipients, stream, addressee.topic);
  }

  const result: SendResult = { id };
  if (automatic !== null) result.automatic_new_visibility_policy = automatic;
  return result;
}

/**
 * A message from a system bot (Notification Bot) to a channel, stored like
 * any other message but without the permission checks a person's send gets.
 */
export function sendInternalChannelMessage(
  ctx: AppContext,
  tx: Tx,
  sender: UserRow,
  stream: StreamRow,
  topic: string,
  content: string,
  opts: { readFor?: readonly number[]; unreadOnlyFor?: ReadonlySet<number> } = {},
): number {
  const normalized = normalizeContent(content);
  return deliverMessage(ctx, tx, {
    sender,
    addressee: { stream, topic, recipients: subscriberIds(ctx.db, stream.id) },
    content: normalized,
    rendered: renderMessage(ctx, normalized),
    clientName: 'Internal',
    readBySender: true,
    topicWildcardUsers: [],
    readFor: opts.readFor,
    unreadOnlyFor: opts.unreadOnlyFor,
    automaticTopicPolicy: false,
  }).id;
}

/**
 * A direct message from a system bot to `user` (Zulip's
 * internal_send_private_message): unread for them, without the checks a
 * person's message gets.
 */
export function sendInternalDirectMessage(
  ctx: AppContext,
  tx: Tx,
  sender: UserRow,
  user: UserRow,
  markdown: string,
): number {
  const content = normalizeContent(markdown);
  const members = [sender.id, user.id].sort((a, b) => a - b);
  return deliverMessage(ctx, tx, {
    sender,
    addressee: { topic: '', recipients: members, dmMembers: members },
    content,
    rendered: renderMessage(ctx, content),
    clientName: 'Internal',
    readBySender: true,
    topicWildcardUsers: [],
    automaticTopicPolicy: false,
  }).id;
}

/**
 * Validates and renders a message exactly as POST /messages does, without
 * storing it: scheduled messages are checked with it when saved and again
 * when delivered.
 */
export function prepareMessage(
  ctx: AppContext,
  sender: UserRow,
  input: MessageRequest,
): MessageDraft {
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw missingArgument(input.queueId === undefined ? 'queue_id' : 'local_id');
  }
  // Zulip's order: the recipients as given, then the content, then the channel or people.
  const plan = planAddressee(ctx, sender, input.target);
  const content = normalizeContent(input.content);
  const addressee =
    plan.type === 'stream' ? resolveChannel(ctx, sender, plan) : resolveDirect(ctx, sender, plan);
  const settings = mergeUserSettings(sender.settings);
  const rendered = renderMessage(ctx, content, {
    translateEmoticons: settings.translate_emoticons,
    mentionable: userIdAccessCheck(ctx, sender),
  });
  const participants = checkMentionPermissions(
    ctx,
    sender,
    rendered,
    addressee.stream
      ? {
          stream: addressee.stream,
          topic: addressee.topic,
          subscriberCount: addressee.recipients.length,
        }
      : undefined,
  );
  const readBySender =
    input.readBySender ?? selfRenderingClients.has(input.clientName.toLowerCase());
  return {
    sender,
    addressee,
    content,
    rendered,
    clientName: input.clientName,
    readBySender,
    topicWildcardUsers: participants,
    local:
      input.queueId !== undefined && input.localId !== undefined
        ? { queueId: input.queueId, localId: input.localId }
        : undefined,
    automaticTopicPolicy: true,
  };
}

/** Clients that forward messages from another chat system (Zulip's mirroring clients). */
const MIRROR_CLIENTS = new Set(['irc_mirror', 'jabber_mirror', 'JabberMirror']);

/** What send_message_backend checks before the message itself: `to`, `forged`, `sender`. */
function sendTarget(input: SendInput): MessageTarget {
  const target: MessageTarget =
    input.type === 'stream' || input.type === 'channel'
      ? {
          type: 'stream',
          channel: input.to === undefined ? undefined : parseChannelIndicator(input.to),
          topic: input.topic,
        }
      : {
          type: 'private',
          recipients: input.to === undefined ? { ids: [] } : parsePrivateRecipients(input.to),
        };
  if (input.forged === 'yes' || input.forged === 'true') {
    throw badRequest('User not authorized for this query');
  }
  if (MIRROR_CLIENTS.has(input.clientName)) {
    if (input.mirrorSender === undefined) throw badRequest('Missing sender');
    if (target.type !== 'private') throw badRequest('User not authorized for this query');
    if ('ids' in target.recipients && target.recipients.ids.length > 0) {
      throw badRequest('Mirroring not allowed with recipient user IDs');
    }
    // Hearth creates no users for another system's people.
    throw badRequest('Invalid mirrored message');
  }
  if (input.mirrorSender !== undefined) throw badRequest('Invalid mirrored message');
  return target;
}

/** POST /messages */
export function sendMessage(ctx: AppContext, sender: UserRow, input: SendInput): SendResult {
  const draft = prepareMessage(ctx, sender, {
    target: sendTarget(input),
    content: input.content,
    queueId: input.queueId,
    localId: input.localId,
    readBySender: input.readBySender,
    clientName: input.clientName,
  });
  return ctx.transaction((tx) => deliverMessage(ctx, tx, draft));
}
