/** Planning an edit: every check of PATCH /messages/{message_id} before anything is written. */
import { createHash } from 'node:crypto';
import {
  accessChannelById,
  cannotPostInChannel,
  effectiveTopicsPolicy,
  hasChannelPermission,
  hasOrganizationOrChannelPermission,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { type MessageRow, messageById, topicMessages } from '../db/queries/messages.js';
import { type StreamRow, subscriberIds } from '../db/queries/streams.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { type RenderResult, renderMessage } from '../markdown/index.js';
import { accessMessage, canAccessMessage } from '../narrow/index.js';
import { loadRealm, type Realm } from '../shared/realm.js';
import { RESOLVED_TOPIC_PREFIX, resolveToggleOf } from '../shared/resolved-topics.js';
import { isModerator } from '../shared/roles.js';
import {
  canonicalTopic,
  checkTopicCharacters,
  EMPTY_TOPIC_FALLBACK_NAME,
  truncateTopic,
} from '../shared/topics.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { userIdAccessCheck } from '../user-access/index.js';
import { normalizeContent } from './content.js';
import { checkMentionPermissions } from './mentions.js';
import { checkCanCreateTopic } from './recipients.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditInput {
  messageId: number;
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
  prevContentSha256?: string;
}

/** Clients get this much slack past each time limit (Zulip's edit_limit_buffer). */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;
/** Undoing a resolve this soon deletes the notice instead of posting another. */
export const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS = 60;

export interface EditPlan {
  message: MessageRow;
  origStream: StreamRow | undefined;
  contentEdited: boolean;
  newContent: string;
  rendered: RenderResult | undefined;
  topicWildcardUsers: number[];
  topicEdited: boolean;
  targetTopic: string;
  streamEdited: boolean;
  targetStream: StreamRow | undefined;
  resolved: boolean;
  unresolved: boolean;
  propagateMode: PropagateMode;
}

/** Editing or resolving a topic: allowed if allowed in either channel of a move. */
const hasTopicPermission = (
  ctx: AppContext,
  user: UserRow,
  streams: StreamRow[],
  organizationSetting: 'can_move_messages_between_topics_group' | 'can_resolve_topics_group',
  channelSetting: 'can_move_messages_within_channel_group' | 'can_resolve_topics_group',
) =>
  streams.some((s) =>
    hasOrganizationOrChannelPermission(ctx, user, s, organizationSetting, channelSetting),
  );

export const canEditTopic = (ctx: AppContext, user: UserRow, streams: StreamRow[]) =>
  hasTopicPermission(
    ctx,
    user,
    streams,
    'can_move_messages_between_topics_group',
    'can_move_messages_within_channel_group',
  );

export const canResolveTopics = (ctx: AppContext, user: UserRow, streams: StreamRow[]) =>
  hasTopicPermission(ctx, user, streams, 'can_resolve_topics_group', 'can_resolve_topics_group');

export const canMoveOutOfChannel = (ctx: AppContext, user: UserRow, stream: StreamRow) =>
  hasOrganizationOrChannelPermission(
    ctx,
    user,
    stream,
    'can_move_messages_between_channels_group',
    'can_move_messages_out_of_channel_group',
  );

/** The topic's messages the user can see (protected history hides some). */
export function visibleTopicMessages(
  ctx: AppContext,
  user: UserRow,
  stream: StreamRow,
  topic: string,
): Array<{ id: number; date_sent: number }> {
  const all = topicMessages(ctx.db, stream.id, topic);
  if (stream.history_public_to_subscribers) return all;
  return all.filter((m) => {
    const row = messageById(ctx.db, m.id);
    return row !== undefined && canAccessMessage(ctx, user, row, stream);
  });
}

/** Zulip's check_time_limit_for_change_all_propagate_mode. */
export function checkChangeAllTimeLimit(
  ctx: AppContext,
  user: UserRow,
  realm: Realm,
  plan: EditPlan,
): void {
  const limits: number[] = [];
  const within = realm.settings.move_messages_within_stream_limit_seconds;
  const between = realm.settings.move_messages_between_streams_limit_seconds;
  if (plan.topicEdited && within !== null) limits.push(within + EDIT_LIMIT_BUFFER_SECONDS);
  if (plan.streamEdited && between !== null) limits.push(between + EDIT_LIMIT_BUFFER_SECONDS);
  if (limits.length === 0) return;
  const oldest = Math.floor(ctx.now() / 1000) - Math.min(...limits);
  const inTopic = visibleTopicMessages(ctx, user, plan.origStream!, plan.message.topic);
  const allowed = inTopic.filter((m) => m.date_sent > oldest);
  if (allowed.length === inTopic.length) return;
  throw new ApiError(
    `You only have permission to move the ${allowed.length}/${inTopic.length} most recent messages in this topic.`,
    {
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      extra: {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_in_topic: inTopic.length,
        total_messages_allowed_to_move: allowed.length,
      },
    },
  );
}

/**
 * Zulip's validate_user_can_edit_message: only the sender edits a message's
 * content, where the organization allows editing, within its time limit
 * (plus `bufferSeconds` of grace: editing allows some, typing while editing none).
 */
export function checkCanEditContent(
  ctx: AppContext,
  user: UserRow,
  message: { sender_id: number; date_sent: number },
  bufferSeconds: number,
): void {
  const realm = loadRealm(ctx);
  if (!realm.settings.allow_message_editing) {
    throw badRequest('Your organization has turned off message editing');
  }
  if (message.sender_id !== user.id) {
    throw badRequest("You don't have permission to edit this message");
  }
  const limit = realm.settings.message_content_edit_limit_seconds;
  const age = Math.floor(ctx.now() / 1000) - message.date_sent;
  if (limit !== null && age > limit + bufferSeconds) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

/** Validation and permission checks, in Zulip's order (check_update_message). */
export function planEdit(ctx: AppContext, user: UserRow, input: EditInput): EditPlan {
  const { message, stream: origStream } = accessMessage(ctx, user, input.messageId, {
    modifying: true,
  });
  const realm = loadRealm(ctx);
  const age = Math.floor(ctx.now() / 1000) - message.date_sent;

  if (input.content !== undefined) {
    checkCanEditContent(ctx, user, message, EDIT_LIMIT_BUFFER_SECONDS);
  }

  let topic =
    input.topic === undefined
      ? undefined
      : canonicalTopic(input.topic, realm.settings.empty_topic_display_name);
  if (topic === message.topic) topic = undefined;
  const streamId = input.streamId === message.stream_id ? undefined : input.streamId;
  const isChannelMessage = message.stream_id !== null;

  if (topic === undefined && input.content === undefined && streamId === undefined) {
    throw badRequest('Nothing to change');
  }
  if (!isChannelMessage) {
    if (streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (input.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (
    topic === RESOLVED_TOPIC_PREFIX.trim() ||
    topic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_FALLBACK_NAME}`
  ) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (topic !== undefined) checkTopicCharacters(topic);
  if (streamId !== undefined && input.content !== undefined) {
    throw badRequest('Cannot change message content while changing channel');
  }
  if (
    input.prevContentSha256 !== undefined &&
    input.prevContentSha256 !== createHash('sha256').update(message.content).digest('hex')
  ) {
    throw new ApiError("'prev_content_sha256' value does not match the expected value.", {
      code: 'EXPECTATION_MISMATCH',
    });
  }

  const contentEdited = input.content !== undefined;
  let newContent = message.content;
  if (input.content !== undefined) {
    newContent = normalizeContent(input.content.trimEnd() === '' ? '(deleted)' : input.content);
  }

  const oldTopic = message.topic;
  const topicEdited = topic !== undefined;
  const targetTopic = topic !== undefined ? truncateTopic(topic) : oldTopic;
  // As requested: resolving a topic near the length limit truncates its new name.
  const toggle = topic === undefined ? null : resolveToggleOf(oldTopic, topic);
  const resolved = toggle === 'resolve';
  const unresolved = toggle === 'unresolve';

  const streamEdited = streamId !== undefined;
  const targetStream = streamId !== undefined ? accessChannelById(ctx, user, streamId) : origStream;

  if (targetStream) {
    const policy = effectiveTopicsPolicy(ctx, targetStream);
    const emptyName = realm.settings.empty_topic_display_name;
    const targetEmpty = targetTopic === '';
    if (targetEmpty && (topicEdited || streamEdited) && policy === 'disable_empty_topic') {
      throw badRequest(
        `Sending messages to the ${emptyName} topic is not allowed in this channel.`,
      );
    }
    if (policy === 'empty_topic_only' && !targetEmpty) {
      throw badRequest(`Only the ${emptyName} topic is allowed in this channel.`);
    }
  }

  const plan: EditPlan = {
    message,
    origStream,
    contentEdited,
    newContent,
    rendered: undefined,
    topicWildcardUsers: [],
    topicEdited,
    targetTopic,
    streamEdited,
    targetStream,
    resolved,
    unresolved,
    propagateMode: input.propagateMode,
  };

  if (topicEdited && origStream && targetStream) {
    const streams = [origStream, targetStream];
    if (resolved || unresolved) {
      if (!canResolveTopics(ctx, user, streams)) {
        throw badRequest("You don't have permission to resolve topics in this channel.");
      }
    } else {
      if (!canEditTopic(ctx, user, streams)) {
        throw badRequest("You don't have permission to edit this message");
      }
      const limit = realm.settings.move_messages_within_stream_limit_seconds;
      if (limit !== null && !isModerator(user) && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
  }

  if (contentEdited) {
    const sender = userById(ctx.db, message.sender_id)!;
    const rendered = renderMessage(ctx, newContent, {
      translateEmoticons: mergeUserSettings(user.settings).translate_emoticons,
      mentionable: userIdAccessCheck(ctx, sender),
    });
    plan.rendered = rendered;
    plan.topicWildcardUsers = checkMentionPermissions(
      ctx,
      sender,
      rendered,
      origStream
        ? {
            stream: origStream,
            topic: message.topic,
            subscriberCount: subscriberIds(ctx.db, origStream.id).length,
          }
        : undefined,
    );
  }

  if (streamEdited && origStream && targetStream) {
    if (!canMoveOutOfChannel(ctx, user, origStream)) {
      throw badRequest("You don't have permission to move this message");
    }
    if (!hasChannelPermission(ctx, user, targetStream, 'can_send_message_group')) {
      throw cannotPostInChannel();
    }
    const limit = realm.settings.move_messages_between_streams_limit_seconds;
    if (limit !== null && !isModerator(user) && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
      throw badRequest("The time limit for editing this message's channel has passed");
    }
  }

  const moved = topicEdited || streamEdited;
  if (moved && !resolved && !unresolved) {
    if (input.propagateMode === 'change_all' && !isModerator(user)) {
      checkChangeAllTimeLimit(ctx, user, realm, plan);
    }
    checkCanCreateTopic(ctx, user, targetStream!, targetTopic);
  }
  return plan;
}

/** The messages a move changes: the edited one, plus later or all others of its topic. */
