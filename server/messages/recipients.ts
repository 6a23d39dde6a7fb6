/** Who a message goes to: the channel and topic, or the direct-message members, with Zulip's checks. */
import {
  checkCanPost,
  checkChannelName,
  effectiveTopicsPolicy,
  hasChannelPermission,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { dmConversationHasMessages } from '../db/queries/messages.js';
import type { StreamRow } from '../db/queries/streams.js';
import { topicHasOtherMessages } from '../db/queries/user-topics.js';
import { type UserRow, userByEmailKey, userById } from '../db/queries/users.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { escapeHtml } from '../shared/html.js';
import { loadRealm } from '../shared/realm.js';
import { canonicalTopic, checkTopicCharacters, truncateTopic } from '../shared/topics.js';
import { userAccessCheck } from '../user-access/index.js';
import { apiEmail } from '../users/index.js';
import type { ChannelIndicator, MessageTarget } from './addressee.js';
import { channelById, channelByName } from './channel-cache.js';
import { channelRecipients } from './subscriber-cache.js';

export interface Addressee {
  stream?: StreamRow;
  topic: string;
  /** Everyone who receives the message (a channel's subscribers; a conversation's members). */
  recipients: readonly number[];
  dmMembers?: number[];
}

export function channelNotFound(indicator: { name: string } | { id: number }): ApiError {
  if ('id' in indicator) {
    return new ApiError(`Channel with ID '${indicator.id}' does not exist`, {
      code: 'STREAM_DOES_NOT_EXIST',
      extra: { stream_id: indicator.id },
    });
  }
  const name = escapeHtml(indicator.name);
  return new ApiError(`Channel '${name}' does not exist`, {
    code: 'STREAM_DOES_NOT_EXIST',
    extra: { stream: name },
  });
}

/**
 * A channel message's topic after the empty-topic equivalences, checked
 * against the channel's (or organization's) topics policy.
 */
export function checkTopicForChannel(ctx: AppContext, stream: StreamRow, topic: string): void {
  const realm = loadRealm(ctx);
  const policy = effectiveTopicsPolicy(ctx, stream);
  const emptyName = realm.settings.empty_topic_display_name;
  if (topic === '' && policy === 'disable_empty_topic') {
    if (realm.settings.mandatory_topics && stream.topics_policy === 'inherit') {
      throw badRequest('Topics are required in this organization');
    }
    throw badRequest(`Sending messages to the ${emptyName} topic is not allowed in this channel.`);
  }
  if (topic !== '' && policy === 'empty_topic_only') {
    throw badRequest(`Only the ${emptyName} topic is allowed in this channel.`);
  }
}

/** Zulip's can_create_topic_group: starting a topic may be restricted per channel. */
export function checkCanCreateTopic(
  ctx: AppContext,
  user: UserRow,
  stream: StreamRow,
  topic: string,
): void {
  if (hasChannelPermission(ctx, user, stream, 'can_create_topic_group')) return;
  if (topicHasOtherMessages(ctx.db, stream.id, topic, -1)) return;
  throw badRequest('You do not have permission to create new topics in this channel.');
}

/**
 * Zulip's Addressee.legacy_build: what a message's recipients can be refused
 * for before its content is read. A channel message needs a channel (a bot's
 * default channel stands in) and a topic, whose characters are checked; a
 * direct message needs recipients, who must exist.
 */
export type AddresseePlan =
  | { type: 'stream'; channel: ChannelIndicator; topic: string }
  | { type: 'private'; users: UserRow[] };

export function planAddressee(
  ctx: AppContext,
  sender: UserRow,
  target: MessageTarget,
): AddresseePlan {
  const realm = loadRealm(ctx);
  if (target.type === 'stream') {
    let channel = target.channel;
    if (channel === undefined) {
      if (sender.default_sending_stream_id === null) throw badRequest('Missing channel');
      channel = { id: sender.default_sending_stream_id };
    }
    if (target.topic === undefined) throw badRequest('Missing topic');
    const topic = canonicalTopic(target.topic, realm.settings.empty_topic_display_name);
    checkTopicCharacters(topic);
    return { type: 'stream', channel, topic };
  }
  const list = target.recipients;
  const users: UserRow[] = [];
  if ('ids' in list) {
    if (list.ids.length === 0) throw badRequest('Message must have recipients');
    for (const id of list.ids) {
      const user = userById(ctx.db, id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      users.push(user);
    }
  } else {
    if (list.emails.length === 0) throw badRequest('Message must have recipients');
    for (const email of list.emails) {
      const user = userForEmail(ctx, email, realm.row.email_domain);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      users.push(user);
    }
  }
  return { type: 'private', users };
}

/** The channel a planned message goes to, checked in Zulip's order: exists, may post, may start the topic, topics policy. */
export function resolveChannel(
  ctx: AppContext,
  sender: UserRow,
  plan: Extract<AddresseePlan, { type: 'stream' }>,
): Addressee {
  const indicator = plan.channel;
  const topic = truncateTopic(plan.topic);
  let stream: StreamRow | undefined;
  if ('id' in indicator) {
    stream = channelById(ctx.db, indicator.id);
  } else {
    indicator.name = checkChannelName(indicator.name);
    stream = channelByName(ctx.db, indicator.name);
  }
  if (!stream) throw channelNotFound(indicator);
  checkCanPost(ctx, sender, stream);
  checkCanCreateTopic(ctx, sender, stream, topic);
  checkTopicForChannel(ctx, stream, topic);
  return { stream, topic, recipients: channelRecipients(ctx.db, stream.id) };
}

export function resolveDirect(
  ctx: AppContext,
  sender: UserRow,
  plan: Extract<AddresseePlan, { type: 'private' }>,
): Addressee {
  const realm = loadRealm(ctx);
  const users = plan.users;
  // Zulip's check_sender_can_access_recipients comes first: a guest limited
  // by can_access_all_users_group learns nothing more about a hidden user.
  const canAccess = userAccessCheck(ctx, sender);
  if (!users.every(canAccess)) {
    throw badRequest('You do not have permission to access some of the recipients.');
  }
  for (const user of users) {
    if (!user.is_active) {
      throw badRequest(`'${apiEmail(user, realm.row.email_domain)}' is no longer using Zulip.`);
    }
  }
  // The sender in the list is ignored, unless alone (a note to self).
  const others = users.filter((u) => u.id !== sender.id);
  const onlyBotsOrSelf = others.every((u) => u.is_bot);
  const members = [...new Set([sender.id, ...others.map((u) => u.id)])].sort((a, b) => a - b);
  if (!sender.is_bot && !onlyBotsOrSelf) {
    const permission = realm.settings.direct_message_permission_group as StoredGroupSetting;
    if (!userHasGroupSetting(ctx, sender, permission)) {
      throw badRequest(
        permission === 'role:nobody'
          ? 'Direct messages are disabled in this organization.'
          : 'You do not have permission to send direct messages to this recipient.',
      );
    }
    const initiator = realm.settings.direct_message_initiator_group as StoredGroupSetting;
    if (!userHasGroupSetting(ctx, sender, initiator) && !conversationExists(ctx, members)) {
      throw badRequest('You do not have permission to initiate direct message conversations.');
    }
  }
  return { topic: '', recipients: members, dmMembers: members };
}

/** Has anyone written in this exact conversation before? (Initiating may be restricted.) */
export function conversationExists(ctx: AppContext, members: number[]): boolean {
  return dmConversationHasMessages(ctx.db, members);
}

/** API e-mail or, where visible, real e-mail; placeholders resolve by id. */
export function userForEmail(ctx: AppContext, email: string, domain: string): UserRow | undefined {
  const key = email.trim().toLowerCase();
  const direct = userByEmailKey(ctx.db, key);
  if (direct) return direct;
  const placeholder = /^user(\d+)@(.+)$/.exec(key);
  if (placeholder && placeholder[2] === domain.toLowerCase())
    return userById(ctx.db, Number(placeholder[1]));
  return undefined;
}
