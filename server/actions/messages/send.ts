import type { AppContext, Tx } from '../../context.js';
import { dmGroupFor } from '../../db/queries/dm-groups.js';
import { setFlagRow } from '../../db/queries/flags.js';
import { insertMessage } from '../../db/queries/messages.js';
import {
  type StreamRow,
  setStreamFirstMessageId,
  streamById,
  streamByName,
  subscriberIds,
  subscriptionOf,
} from '../../db/queries/streams.js';
import { recursiveMembers } from '../../db/queries/user-groups.js';
import {
  setUserTopicPolicy,
  topicHasOtherMessages,
  topicParticipants,
  userTopicPolicy,
  VisibilityPolicy,
} from '../../db/queries/user-topics.js';
import { type UserRow, userByEmailKey, userById } from '../../db/queries/users.js';
import { parseChannelIndicator, parseRecipientList } from '../../domain/addressee.js';
import { checkCanPost, effectiveTopicsPolicy } from '../../domain/channels.js';
import { Flag } from '../../domain/flags.js';
import { userHasGroupSetting } from '../../domain/group-settings.js';
import { emitMessageEvent } from '../../domain/message-events.js';
import { normalizeContent, normalizeTopic, searchableText } from '../../domain/message-text.js';
import { loadRealm } from '../../domain/realm.js';
import { renderMessage } from '../../domain/render.js';
import { apiEmail } from '../../domain/user-format.js';
import { mergeUserSettings } from '../../domain/user-settings.js';
import { ApiError, badRequest, missingArgument } from '../../errors.js';

/** Zulip's threshold above which wildcard mentions need can_mention_many_users_group. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Clients that render their own sent messages, so the sender has read them (Zulip's list). */
const selfRenderingClients = new Set([
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

export interface SendInput {
  type: 'direct' | 'private' | 'stream' | 'channel';
  to: string | undefined;
  content: string;
  topic: string | undefined;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  clientName: string;
}

export type SendResult = {
  id: number;
  automatic_new_visibility_policy?: number;
};

interface Addressee {
  stream?: StreamRow;
  topic: string;
  /** Everyone who receives the message, sender included. */
  recipients: number[];
  dmMembers?: number[];
}

function resolveChannel(ctx: AppContext, sender: UserRow, input: SendInput): Addressee {
  if (input.to === undefined) throw missingArgument('to');
  const indicator = parseChannelIndicator(input.to);
  let stream: StreamRow | undefined;
  if ('id' in indicator) {
    stream = streamById(ctx.db, indicator.id);
    if (!stream) {
      throw new ApiError(`Channel with ID '${indicator.id}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        extra: { stream_id: indicator.id },
      });
    }
  } else {
    const name = indicator.name.trim();
    stream = streamByName(ctx.db, name);
    if (!stream) {
      throw new ApiError(`Channel '${escapeHtml(name)}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        extra: { stream: escapeHtml(name) },
      });
    }
  }
  if (input.topic === undefined) throw missingArgument('topic');
  const realm = loadRealm(ctx);
  const topic = normalizeTopic(input.topic, realm.settings.empty_topic_display_name);
  const policy = effectiveTopicsPolicy(ctx, stream);
  if (topic === '' && policy === 'disable_empty_topic') {
    if (realm.settings.mandatory_topics && stream.topics_policy === 'inherit') {
      throw badRequest('Topics are required in this organization');
    }
    throw badRequest(
      `Sending messages to the ${realm.settings.empty_topic_display_name} topic is not allowed in this channel.`,
    );
  }
  if (topic !== '' && policy === 'empty_topic_only') {
    throw badRequest(
      `Only the ${realm.settings.empty_topic_display_name} topic is allowed in this channel.`,
    );
  }
  checkCanPost(ctx, sender, stream);
  const recipients = subscriberIds(ctx.db, stream.id);
  return { stream, topic, recipients };
}

function resolveDirect(ctx: AppContext, sender: UserRow, input: SendInput): Addressee {
  if (input.to === undefined) throw missingArgument('to');
  const list = parseRecipientList(input.to);
  const realm = loadRealm(ctx);
  const users: UserRow[] = [];
  if ('ids' in list) {
    for (const id of list.ids) {
      const user = userById(ctx.db, id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      users.push(user);
    }
  } else {
    for (const email of list.emails) {
      const user = userForEmail(ctx, email, realm.row.email_domain);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      users.push(user);
    }
  }
  if (users.length === 0) throw badRequest('Message must have recipients');
  for (const user of users) {
    if (!user.is_active) {
      throw badRequest(`'${apiEmail(user, realm.row.email_domain)}' is no longer using Zulip.`);
    }
  }
  const others = users.filter((u) => u.id !== sender.id);
  const onlyBotsOrSelf = others.every((u) => u.is_bot);
  if (!sender.is_bot && !onlyBotsOrSelf) {
    if (!userHasGroupSetting(ctx, sender, realm.settings.direct_message_permission_group)) {
      throw badRequest('You do not have permission to send direct messages to this recipient.');
    }
  }
  const members = [...new Set([sender.id, ...others.map((u) => u.id)])].sort((a, b) => a - b);
  return { topic: '', recipients: members, dmMembers: members };
}

/** API e-mail or, where visible, real e-mail; placeholders resolve by id. */
function userForEmail(ctx: AppContext, email: string, domain: string): UserRow | undefined {
  const key = email.trim().toLowerCase();
  const direct = userByEmailKey(ctx.db, key);
  if (direct) return direct;
  const placeholder = /^user(\d+)@(.+)$/.exec(key);
  if (placeholder && placeholder[2] === domain.toLowerCase())
    return userById(ctx.db, Number(placeholder[1]));
  return undefined;
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

/**
 * The sender's automatic topic policy (Zulip's visibility_policy_for_send_message):
 * follow on initiation by default, unmute in muted channels on send.
 */
function automaticPolicy(
  ctx: AppContext,
  sender: UserRow,
  stream: StreamRow,
  topic: string,
  messageId: number,
): number | null {
  if (sender.is_bot) return null;
  const settings = mergeUserSettings(sender.settings);
  const follow = settings.automatically_follow_topics_policy;
  const unmute = settings.automatically_unmute_topics_in_muted_streams_policy;
  if (follow === 4 && unmute === 4) return null;
  const current = userTopicPolicy(ctx.db, sender.id, stream.id, topic);
  if (current === VisibilityPolicy.followed) return null;
  const channelMuted = subscriptionOf(ctx.db, stream.id, sender.id)?.is_muted === 1;
  let candidate: number | null = null;
  if (follow === 1 || follow === 2) candidate = VisibilityPolicy.followed;
  else if (channelMuted && (unmute === 1 || unmute === 2)) candidate = VisibilityPolicy.unmuted;
  if (current !== VisibilityPolicy.inherit) return candidate === current ? null : candidate;
  if (candidate !== null) return candidate;
  const initiation = !topicHasOtherMessages(ctx.db, stream.id, topic, messageId);
  if (!initiation) return null;
  if (follow === 3) return VisibilityPolicy.followed;
  if (channelMuted && unmute === 3) return VisibilityPolicy.unmuted;
  return null;
}

function setPolicyWithEvent(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  streamId: number,
  topic: string,
  policy: number,
): void {
  const now = Math.floor(ctx.now() / 1000);
  setUserTopicPolicy(ctx.db, { userId, streamId, topic, policy, now });
  tx.emit({
    type: 'user_topic',
    users: [userId],
    payload: {
      type: 'user_topic',
      stream_id: streamId,
      topic_name: topic,
      last_updated: now,
      visibility_policy: policy,
    },
  });
}

/** POST /messages */
export function sendMessage(ctx: AppContext, sender: UserRow, input: SendInput): SendResult {
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw missingArgument(input.queueId === undefined ? 'queue_id' : 'local_id');
  }
  const content = normalizeContent(input.content);
  const isChannel = input.type === 'stream' || input.type === 'channel';
  const addressee = isChannel
    ? resolveChannel(ctx, sender, input)
    : resolveDirect(ctx, sender, input);
  const realm = loadRealm(ctx);
  const settings = mergeUserSettings(sender.settings);
  const rendered = renderMessage(ctx, content, {
    translateEmoticons: settings.translate_emoticons,
  });

  // Wildcard mentions in big conversations need can_mention_many_users_group.
  const mayMentionMany = userHasGroupSetting(
    ctx,
    sender,
    realm.settings.can_mention_many_users_group,
  );
  let participants: number[] = [];
  if (addressee.stream) {
    if (
      rendered.streamWildcard &&
      addressee.recipients.length > WILDCARD_MENTION_THRESHOLD &&
      !mayMentionMany
    ) {
      throw new ApiError(
        'You do not have permission to use channel wildcard mentions in this channel.',
        {
          code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        },
      );
    }
    if (rendered.topicWildcard) {
      participants = [
        ...new Set([...topicParticipants(ctx.db, addressee.stream.id, addressee.topic), sender.id]),
      ];
      if (participants.length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
        throw new ApiError(
          'You do not have permission to use topic wildcard mentions in this topic.',
          {
            code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
          },
        );
      }
    }
  }
  const readBySender =
    input.readBySender ?? selfRenderingClients.has(input.clientName.toLowerCase());
  const nowSeconds = Math.floor(ctx.now() / 1000);

  return ctx.transaction((tx) => {
    const dmGroupId = addressee.dmMembers ? dmGroupFor(ctx.db, addressee.dmMembers) : null;
    const id = insertMessage(ctx.db, {
      sender_id: sender.id,
      stream_id: addressee.stream?.id ?? null,
      dm_group_id: dmGroupId,
      topic: addressee.topic,
      content,
      rendered_content: rendered.html,
      date_sent: nowSeconds,
      sending_client: input.clientName,
      is_me_message: rendered.isMeMessage,
      has_link: rendered.hasLink,
      has_image: rendered.hasImage,
      has_attachment: rendered.hasAttachment,
      search_body: searchableText(rendered.html),
    });

    // Per-recipient flags: only what differs from the watermark default gets a row.
    const recipients = new Set(addressee.recipients);
    const mentioned = new Set(rendered.mentionedUserIds);
    for (const groupId of rendered.mentionedGroupIds) {
      for (const member of recursiveMembers(ctx.db, groupId)) mentioned.add(member);
    }
    const topicWildcardUsers = new Set(participants);
    const flagsByUser = new Map<number, number>();
    for (const userId of recipients) {
      let mentionBits = 0;
      if (mentioned.has(userId)) mentionBits |= Flag.mentioned;
      if (rendered.streamWildcard) mentionBits |= Flag.stream_wildcard_mentioned;
      if (rendered.topicWildcard && topicWildcardUsers.has(userId))
        mentionBits |= Flag.topic_wildcard_mentioned;
      const isSender = userId === sender.id;
      const read = isSender && readBySender ? Flag.read : 0;
      const flags = read | mentionBits;
      flagsByUser.set(userId, flags);
      const defaultFlags = isSender ? Flag.read : 0;
      if (flags !== defaultFlags) setFlagRow(ctx.db, userId, id, flags);
    }

    let automatic: number | null = null;
    if (addressee.stream) {
      if (addressee.stream.first_message_id === null)
        setStreamFirstMessageId(ctx.db, addressee.stream.id, id);
      automatic = automaticPolicy(ctx, sender, addressee.stream, addressee.topic, id);
    }

    emitMessageEvent(
      ctx,
      tx,
      id,
      flagsByUser,
      input.queueId !== undefined && input.localId !== undefined
        ? { queueId: input.queueId, localId: input.localId }
        : undefined,
    );

    if (addressee.stream) {
      const stream = addressee.stream;
      if (automatic !== null)
        setPolicyWithEvent(ctx, tx, sender.id, stream.id, addressee.topic, automatic);
      // Mentioned people follow the topic if they asked for that.
      for (const userId of mentioned) {
        if (userId === sender.id || !recipients.has(userId)) continue;
        const user = userById(ctx.db, userId);
        if (
          !user ||
          user.is_bot ||
          !mergeUserSettings(user.settings).automatically_follow_topics_where_mentioned
        )
          continue;
        const current = userTopicPolicy(ctx.db, userId, stream.id, addressee.topic);
        if (current === VisibilityPolicy.muted || current === VisibilityPolicy.followed) continue;
        setPolicyWithEvent(ctx, tx, userId, stream.id, addressee.topic, VisibilityPolicy.followed);
      }
    }

    const result: SendResult = { id };
    if (automatic !== null) result.automatic_new_visibility_policy = automatic;
    return result;
  });
}
