import { createHash } from 'node:crypto';
import {
  accessChannelById,
  effectiveTopicsPolicy,
  hasChannelPermission,
  isSubscribed,
} from '../channels/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { deleteFlagRow } from '../db/queries/flags.js';
import { insertMessageEdit } from '../db/queries/message-edits.js';
import {
  channelMessageReceivers,
  flagRowHolders,
  lastTopicMessage,
  type MessageRow,
  messageById,
  moveMessage,
  reindexMessage,
  topicKey,
  topicMessages,
  updateMessageContent,
} from '../db/queries/messages.js';
import { type StreamRow, subscriberIds, subscriptionOf } from '../db/queries/streams.js';
import { topicPolicies } from '../db/queries/topic-policies.js';
import { userTopicPolicy, VisibilityPolicy } from '../db/queries/user-topics.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { currentFlags, FlagReader, MENTION_BITS, storeUserFlags } from '../flags/index.js';
import { type RenderResult, renderMessage, topicLinks } from '../markdown/index.js';
import {
  accessMessage,
  canAccessMessage,
  channelMessageHolders,
  usersWithMessageAccess,
} from '../narrow/index.js';
import { Flag, flagNames } from '../shared/flags.js';
import { type StoredGroupSetting, userHasGroupSetting } from '../shared/group-settings.js';
import { loadRealm, type Realm } from '../shared/realm.js';
import { isAdmin, isGuest, isModerator } from '../shared/roles.js';
import {
  canonicalTopic,
  checkTopicCharacters,
  EMPTY_TOPIC_FALLBACK_NAME,
  RESOLVED_TOPIC_PREFIX,
  topicForQueue,
  truncateTopic,
} from '../shared/topics.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { notificationBot, silentMention, topicLinkSyntax, topicUrl } from '../users/index.js';
import { normalizeContent, searchableText } from './content.js';
import { removeMessages } from './delete.js';
import { emitDeleteMessageEvents } from './events.js';
import { highlightHtmlDifferences } from './html-diff.js';
import {
  checkCanCreateTopic,
  checkMentionPermissions,
  mentionedUsers,
  mentionFlags,
  sendInternalChannelMessage,
  setTopicPolicyWithEvent,
} from './send.js';

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
const EDIT_LIMIT_BUFFER_SECONDS = 20;
/** Undoing a resolve this soon deletes the notice instead of posting another. */
const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS = 60;

interface EditPlan {
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

const realmGroup = (realm: Realm, name: keyof Realm['settings']) =>
  realm.settings[name] as StoredGroupSetting;

/**
 * Administrators, members of the organization-wide group, or of the channel's
 * own group or its administrators (Zulip's can_edit_topic / can_resolve_topics).
 */
function hasTopicPermission(
  ctx: AppContext,
  user: UserRow,
  realm: Realm,
  streams: StreamRow[],
  realmSetting: 'can_move_messages_between_topics_group' | 'can_resolve_topics_group',
  channelSetting: 'can_move_messages_within_channel_group' | 'can_resolve_topics_group',
): boolean {
  if (isAdmin(user)) return true;
  if (userHasGroupSetting(ctx, user, realmGroup(realm, realmSetting))) return true;
  return streams.some(
    (s) =>
      hasChannelPermission(ctx, user, s, channelSetting) ||
      hasChannelPermission(ctx, user, s, 'can_administer_channel_group'),
  );
}

const canEditTopic = (ctx: AppContext, user: UserRow, realm: Realm, streams: StreamRow[]) =>
  hasTopicPermission(
    ctx,
    user,
    realm,
    streams,
    'can_move_messages_between_topics_group',
    'can_move_messages_within_channel_group',
  );

const canResolveTopics = (ctx: AppContext, user: UserRow, realm: Realm, streams: StreamRow[]) =>
  hasTopicPermission(
    ctx,
    user,
    realm,
    streams,
    'can_resolve_topics_group',
    'can_resolve_topics_group',
  );

function canMoveOutOfChannel(
  ctx: AppContext,
  user: UserRow,
  realm: Realm,
  stream: StreamRow,
): boolean {
  if (isAdmin(user)) return true;
  if (userHasGroupSetting(ctx, user, realmGroup(realm, 'can_move_messages_between_channels_group')))
    return true;
  return (
    hasChannelPermission(ctx, user, stream, 'can_move_messages_out_of_channel_group') ||
    hasChannelPermission(ctx, user, stream, 'can_administer_channel_group')
  );
}

/** The topic's messages the user can see (protected history hides some). */
function visibleTopicMessages(
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
function checkChangeAllTimeLimit(
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

/** Validation and permission checks, in Zulip's order (check_update_message). */
function planEdit(ctx: AppContext, user: UserRow, input: EditInput): EditPlan {
  const { message, stream: origStream } = accessMessage(ctx, user, input.messageId, {
    modifying: true,
  });
  const realm = loadRealm(ctx);
  const age = Math.floor(ctx.now() / 1000) - message.date_sent;

  if (input.content !== undefined) {
    if (!realm.settings.allow_message_editing) {
      throw badRequest('Your organization has turned off message editing');
    }
    if (message.sender_id !== user.id) {
      throw badRequest("You don't have permission to edit this message");
    }
    const limit = realm.settings.message_content_edit_limit_seconds;
    if (limit !== null && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
      throw badRequest('The time limit for editing this message has passed');
    }
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
  const resolved =
    topicEdited &&
    targetTopic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    !oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    topic!.slice(RESOLVED_TOPIC_PREFIX.length) === oldTopic;
  const unresolved =
    topicEdited &&
    oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    !targetTopic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    oldTopic.replace(/^[✔ ]+/u, '') === targetTopic;

  const streamEdited = streamId !== undefined;
  const targetStream = streamId !== undefined ? accessChannelById(ctx, user, streamId) : origStream;

  if (targetStream) {
    const policy = effectiveTopicsPolicy(ctx, targetStream);
    const emptyName = realm.settings.empty_topic_display_name;
    const targetEmpty = targetTopic === '' || targetTopic === '(no topic)';
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
      if (!canResolveTopics(ctx, user, realm, streams)) {
        throw badRequest("You don't have permission to resolve topics in this channel.");
      }
    } else {
      if (!canEditTopic(ctx, user, realm, streams)) {
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
    if (!canMoveOutOfChannel(ctx, user, realm, origStream)) {
      throw badRequest("You don't have permission to move this message");
    }
    if (!hasChannelPermission(ctx, user, targetStream, 'can_send_message_group')) {
      throw badRequest('You do not have permission to post in this channel.');
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
function messagesToMove(ctx: AppContext, user: UserRow, plan: EditPlan): MessageRow[] {
  const { message } = plan;
  if (plan.propagateMode === 'change_one') return [message];
  const others = topicMessages(ctx.db, message.stream_id!, message.topic)
    .filter(
      (m) => m.id !== message.id && (plan.propagateMode === 'change_all' || m.id > message.id),
    )
    .map((m) => messageById(ctx.db, m.id)!)
    .filter((m) => canAccessMessage(ctx, user, m, plan.origStream));
  return [message, ...others].sort((a, b) => a.id - b.id);
}

/** Content edits recompute mention flags for everyone who received the message. */
function updateMentionFlags(ctx: AppContext, plan: EditPlan, message: MessageRow): void {
  const rendered = plan.rendered!;
  const users = new Set<number>(flagRowHolders(ctx.db, message.id).map((r) => r.user_id));
  if (message.dm_group_id !== null) {
    for (const id of usersWithMessageAccess(ctx, message)) users.add(id);
  } else {
    for (const id of channelMessageReceivers(ctx.db, message.stream_id!, message.id)) users.add(id);
  }
  const mentioned = mentionedUsers(ctx, rendered);
  const wildcard = new Set(plan.topicWildcardUsers);
  for (const userId of users) {
    const before = currentFlags(ctx.db, userId, message);
    const after = (before & ~MENTION_BITS) | mentionFlags(userId, rendered, mentioned, wildcard);
    if (after !== before) storeUserFlags(ctx.db, userId, message, after);
  }
}

interface MoveOutcome {
  changed: MessageRow[];
  /** Users who could see the messages before and cannot after a channel move. */
  losingAccess: Set<number>;
  /** Who saw the edited message before the move. */
  audienceBefore: number[];
}

/**
 * Moves messages to the target channel and topic. Across channels, per-user
 * flags follow Zulip: those who keep access keep their flags, subscribers of a
 * channel with protected history gain the message as read, others lose rows.
 */
function moveMessages(
  ctx: AppContext,
  user: UserRow,
  plan: EditPlan,
  timestamp: number,
): MoveOutcome {
  const toMove = messagesToMove(ctx, user, plan);
  const target = plan.targetStream!;
  const audienceBefore = usersWithMessageAccess(ctx, plan.message);
  const losingAccess = new Set<number>();
  // Before the move: each affected user's flags, for those who had the message.
  const before = new Map<number, Map<number, number>>();
  if (plan.streamEdited) {
    // One reader per user for all the moved messages: nothing is written yet.
    const readers = new Map<number, FlagReader>();
    for (const m of toMove) {
      const flags = new Map<number, number>();
      const holders = channelMessageHolders(ctx, m);
      for (const userId of usersWithMessageAccess(ctx, m)) {
        if (!holders.has(userId)) continue;
        let reader = readers.get(userId);
        if (!reader) {
          reader = new FlagReader(ctx.db, userId);
          readers.set(userId, reader);
        }
        flags.set(userId, reader.load([m.id]).flagsOf(m));
      }
      before.set(m.id, flags);
    }
  }
  const isRealMove = plan.streamEdited || (!plan.resolved && !plan.unresolved);
  for (const m of toMove) {
    moveMessage(ctx.db, m.id, {
      streamId: target.id,
      topic: plan.targetTopic,
      lastMovedTime: isRealMove ? timestamp : null,
    });
    const isTarget = m.id === plan.message.id;
    // A topic and content change together make one snapshot with both.
    const contentChange = isTarget && plan.rendered !== undefined;
    const body = contentChange ? plan.rendered!.html : m.rendered_content;
    reindexMessage(ctx.db, m.id, plan.targetTopic, searchableText(body));
    insertMessageEdit(ctx.db, {
      message_id: m.id,
      user_id: user.id,
      timestamp,
      prev_content: contentChange ? plan.message.content : null,
      prev_rendered_content: contentChange ? plan.message.rendered_content : null,
      prev_topic: plan.topicEdited ? plan.message.topic : null,
      topic: plan.topicEdited ? plan.targetTopic : null,
      prev_stream_id: plan.streamEdited ? plan.origStream!.id : null,
      stream_id: plan.streamEdited ? target.id : null,
      content_html_diff: contentChange
        ? highlightHtmlDifferences(plan.message.rendered_content, plan.rendered!.html)
        : null,
    });
  }
  if (plan.streamEdited) {
    const subscribers = new Set(subscriberIds(ctx.db, target.id));
    for (const m of toMove) {
      const moved = messageById(ctx.db, m.id)!;
      const had = before.get(m.id)!;
      // Worked out before any of this message's rows change below.
      const holders = channelMessageHolders(ctx, moved);
      const users = new Set<number>([
        ...had.keys(),
        ...subscribers,
        ...flagRowHolders(ctx.db, m.id).map((r) => r.user_id),
      ]);
      for (const userId of users) {
        const person = userById(ctx.db, userId);
        const keeps =
          person !== undefined &&
          canAccessMessage(ctx, person, moved, target, { received: holders.has(userId) });
        if (!keeps) {
          if (had.has(userId)) losingAccess.add(userId);
          deleteFlagRow(ctx.db, userId, moved.id);
          continue;
        }
        let wanted: number | undefined = had.get(userId);
        if (wanted === undefined && subscribers.has(userId)) {
          wanted = target.history_public_to_subscribers ? Flag.read | Flag.historical : Flag.read;
        }
        if (wanted !== undefined) storeUserFlags(ctx.db, userId, moved, wanted);
      }
    }
  }
  return {
    changed: toMove.map((m) => messageById(ctx.db, m.id)!),
    losingAccess,
    audienceBefore,
  };
}

/**
 * Moves personal topic preferences along with a whole topic (Zulip merges
 * them with the target topic's, keeping the more visible policy). Returns the
 * policies the original topic had.
 */
function migrateTopicPolicies(
  ctx: AppContext,
  tx: Tx,
  plan: EditPlan,
  losingAccess: Set<number>,
  targetHadMessages: boolean,
): Map<number, number> {
  const origStream = plan.origStream!;
  const target = plan.targetStream!;
  const origPolicies = new Map<number, number>();
  const targetPolicies = new Map<number, number>();
  for (const row of topicPolicies(ctx.db, origStream.id, plan.message.topic))
    origPolicies.set(row.user_id, row.visibility_policy);
  // A rename that only changes letter case keeps the same (case-insensitive) rows.
  if (sameTopicRow(plan)) return origPolicies;
  for (const row of topicPolicies(ctx.db, target.id, plan.targetTopic))
    targetPolicies.set(row.user_id, row.visibility_policy);
  const users = new Set([...origPolicies.keys(), ...targetPolicies.keys()]);
  for (const userId of users) {
    const orig = origPolicies.get(userId) ?? VisibilityPolicy.inherit;
    const current = targetPolicies.get(userId) ?? VisibilityPolicy.inherit;
    if (orig !== VisibilityPolicy.inherit) {
      setTopicPolicyWithEvent(ctx, tx, userId, origStream.id, plan.message.topic, 0);
    }
    if (plan.streamEdited && losingAccess.has(userId)) continue;
    const wanted = targetHadMessages ? mergedPolicy(orig, current) : orig;
    if (wanted !== current) {
      setTopicPolicyWithEvent(ctx, tx, userId, target.id, plan.targetTopic, wanted);
    }
  }
  return origPolicies;
}

const sameTopicRow = (plan: EditPlan) =>
  !plan.streamEdited && topicKey(plan.message.topic) === topicKey(plan.targetTopic);

/** Zulip's get_visibility_policy_after_merge: the more visible policy wins. */
function mergedPolicy(a: number, b: number): number {
  const both = new Set([a, b]);
  if (both.has(VisibilityPolicy.followed)) return VisibilityPolicy.followed;
  if (both.has(VisibilityPolicy.unmuted)) return VisibilityPolicy.unmuted;
  if (both.has(VisibilityPolicy.inherit)) return VisibilityPolicy.inherit;
  return VisibilityPolicy.muted;
}

/** After a partial move that starts a topic, the sender follows it if they follow on initiation. */
function applyInitiationPolicy(ctx: AppContext, tx: Tx, plan: EditPlan, changedIds: number[]) {
  const sender = userById(ctx.db, plan.message.sender_id);
  if (!sender || sender.is_bot) return;
  const target = plan.targetStream!;
  const earlier = topicMessages(ctx.db, target.id, plan.targetTopic).filter(
    (m) => !changedIds.includes(m.id),
  );
  const first = earlier.find((m) => {
    const row = messageById(ctx.db, m.id);
    return row !== undefined && canAccessMessage(ctx, sender, row, target);
  });
  if (first && first.id < plan.message.id) return;
  const settings = mergeUserSettings(sender.settings);
  const current = userTopicPolicy(ctx.db, sender.id, target.id, plan.targetTopic);
  let wanted: number | null = null;
  if (settings.automatically_follow_topics_policy === 3) wanted = VisibilityPolicy.followed;
  else if (
    settings.automatically_unmute_topics_in_muted_streams_policy === 3 &&
    subscriptionOf(ctx.db, target.id, sender.id)?.is_muted === 1 &&
    isSubscribed(ctx, target.id, sender.id)
  )
    wanted = VisibilityPolicy.unmuted;
  if (wanted !== null && wanted !== current) {
    setTopicPolicyWithEvent(ctx, tx, sender.id, target.id, plan.targetTopic, wanted);
  }
}

const RESOLVE_NOTICE = /^@_\*\*[^*]+\|\d+\*\* has marked this topic as (un)?resolved\.$/;

/** Resolve and unresolve notices by Notification Bot; a quick undo deletes the last one instead. */
function sendResolveNotice(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  plan: EditPlan,
  followers: Set<number>,
): number | null {
  const stream = plan.targetStream!;
  const bot = notificationBot(ctx, tx);
  const last = lastTopicMessage(ctx.db, stream.id, plan.targetTopic);
  if (
    last &&
    last.sender_id === bot.id &&
    RESOLVE_NOTICE.test(last.content) &&
    Math.floor(ctx.now() / 1000) - last.date_sent <= RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS
  ) {
    removeMessages(ctx, tx, [last]);
    return null;
  }
  // Unread only for those who want to see these notices.
  const unread = new Set<number>();
  for (const userId of subscriberIds(ctx.db, stream.id)) {
    const person = userById(ctx.db, userId);
    if (!person || person.is_bot) continue;
    const policy = mergeUserSettings(person.settings).resolved_topic_notice_auto_read_policy;
    const follows =
      followers.has(userId) ||
      userTopicPolicy(ctx.db, userId, stream.id, plan.targetTopic) === VisibilityPolicy.followed;
    if (policy === 'never' || (policy === 'except_followed' && follows)) unread.add(userId);
  }
  const verb = plan.resolved ? 'resolved' : 'unresolved';
  return sendInternalChannelMessage(
    ctx,
    tx,
    bot,
    stream,
    plan.targetTopic,
    `${silentMention(user)} has marked this topic as ${verb}.`,
    { readFor: [user.id], unreadOnlyFor: unread },
  );
}

/** The "moved here" / "moved from here" notices (new thread first, as Zulip sends them). */
function sendMoveNotices(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  plan: EditPlan,
  input: EditInput,
  changedIds: number[],
  movedAllVisible: boolean,
  resolveNoticeId: number | null,
): void {
  const orig = plan.origStream!;
  const target = plan.targetStream!;
  const count = changedIds.length;
  const who = silentMention(user);
  const oldLocation = topicLinkSyntax(ctx, orig, plan.message.topic);
  const newLocation = topicLinkSyntax(ctx, target, plan.targetTopic);
  const bot = notificationBot(ctx, tx);
  const eligibleForNew =
    plan.streamEdited || (plan.topicEdited && !plan.resolved && !plan.unresolved);
  if (input.sendNotificationToNewThread && eligibleForNew) {
    const preexisting = visibleTopicMessages(ctx, user, target, plan.targetTopic).filter(
      (m) => !changedIds.includes(m.id) && m.id !== resolveNoticeId,
    );
    let text: string;
    if (preexisting.length === 0 && movedAllVisible) {
      text = `This topic was moved here from ${oldLocation} by ${who}.`;
    } else if (count === 1) {
      const link = topicUrl(ctx, target, plan.targetTopic, plan.message.id);
      text = `[A message](${link}) was moved here from ${oldLocation} by ${who}.`;
    } else {
      text = `${count} messages were moved here from ${oldLocation} by ${who}.`;
    }
    sendInternalChannelMessage(ctx, tx, bot, target, plan.targetTopic, text, {
      readFor: [user.id],
    });
  }
  if (input.sendNotificationToOldThread) {
    let text: string;
    if (movedAllVisible) text = `This topic was moved to ${newLocation} by ${who}.`;
    else if (count === 1) text = `A message was moved from this topic to ${newLocation} by ${who}.`;
    else text = `${count} messages were moved from this topic to ${newLocation} by ${who}.`;
    sendInternalChannelMessage(ctx, tx, bot, orig, plan.message.topic, text, {
      readFor: [user.id],
    });
  }
}

/** The update_message event, shaped per queue (flags, empty-topic name). */
function emitUpdateEvent(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  plan: EditPlan,
  timestamp: number,
  changed: MessageRow[],
  audience: Iterable<number>,
): void {
  const { message } = plan;
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  const event: Record<string, unknown> = {
    type: 'update_message',
    user_id: user.id,
    edit_timestamp: timestamp,
    message_id: message.id,
    message_ids: changed.map((m) => m.id).sort((a, b) => a - b),
    rendering_only: false,
  };
  if (plan.contentEdited) {
    event.orig_content = message.content;
    event.orig_rendered_content = message.rendered_content;
    event.content = plan.newContent;
    event.rendered_content = plan.rendered!.html;
    event.is_me_message = plan.rendered!.isMeMessage;
  }
  const moved = plan.topicEdited || plan.streamEdited;
  if (plan.origStream) {
    event.stream_name = plan.origStream.name;
    event.stream_id = plan.origStream.id;
  }
  if (moved) event.propagate_mode = plan.propagateMode;
  if (plan.streamEdited) event.new_stream_id = plan.targetStream!.id;
  if (plan.topicEdited) event.topic_links = topicLinks(ctx, plan.targetTopic);
  const after = messageById(ctx.db, message.id)!;
  const flags = new Map<number, number>();
  for (const userId of audience) {
    flags.set(userId, new FlagReader(ctx.db, userId).load([after.id]).flagsOf(after));
  }
  tx.emit({
    type: 'update_message',
    users: flags.keys(),
    payload: (queue) => {
      const shaped: { type: string } & Record<string, unknown> = {
        ...(event as { type: string }),
        flags: flagNames(flags.get(queue.userId) ?? 0),
      };
      if (moved) shaped.orig_subject = topicForQueue(queue, message.topic, emptyName);
      if (plan.topicEdited) shaped.subject = topicForQueue(queue, plan.targetTopic, emptyName);
      return shaped;
    },
  });
}

/** delete_message to those a channel move takes the messages away from. */
function emitLostAccess(
  ctx: AppContext,
  tx: Tx,
  plan: EditPlan,
  changedIds: number[],
  users: Set<number>,
): void {
  if (users.size === 0) return;
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  const base = (queue: Parameters<typeof topicForQueue>[0]) => ({
    message_type: 'stream',
    stream_id: plan.origStream!.id,
    topic: topicForQueue(queue, plan.message.topic, emptyName),
  });
  emitDeleteMessageEvents(tx, users, changedIds, base);
}

/** PATCH /messages/{message_id} */
export function updateMessage(
  ctx: AppContext,
  user: UserRow,
  input: EditInput,
): { detached_uploads: never[] } {
  const plan = planEdit(ctx, user, input);
  const timestamp = Math.floor(ctx.now() / 1000);
  const { message } = plan;

  ctx.transaction((tx) => {
    if (plan.contentEdited) {
      const rendered = plan.rendered!;
      updateMessageContent(ctx.db, message.id, {
        content: plan.newContent,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
        has_link: rendered.hasLink,
        has_image: rendered.hasImage,
        has_attachment: rendered.hasAttachment,
        last_edit_time: timestamp,
      });
      reindexMessage(ctx.db, message.id, message.topic, searchableText(rendered.html));
      updateMentionFlags(ctx, plan, messageById(ctx.db, message.id)!);
    }

    const moved = plan.topicEdited || plan.streamEdited;
    if (!moved) {
      insertMessageEdit(ctx.db, {
        message_id: message.id,
        user_id: user.id,
        timestamp,
        prev_content: message.content,
        prev_rendered_content: message.rendered_content,
        prev_topic: null,
        topic: null,
        prev_stream_id: null,
        stream_id: null,
        content_html_diff: highlightHtmlDifferences(message.rendered_content, plan.rendered!.html),
      });
      const after = messageById(ctx.db, message.id)!;
      emitUpdateEvent(ctx, tx, user, plan, timestamp, [after], usersWithMessageAccess(ctx, after));
      return;
    }

    const targetHadMessages =
      topicMessages(ctx.db, plan.targetStream!.id, plan.targetTopic).length > 0;
    const outcome = moveMessages(ctx, user, plan, timestamp);
    const changedIds = outcome.changed.map((m) => m.id);
    const after = messageById(ctx.db, message.id)!;
    const audience = new Set(usersWithMessageAccess(ctx, after));
    if (plan.streamEdited) {
      // Old subscribers who can still see the messages in their new channel hear of the move.
      for (const userId of outcome.audienceBefore) {
        const person = userById(ctx.db, userId);
        if (person && canAccessMessage(ctx, person, after, plan.targetStream)) audience.add(userId);
      }
      // Guests newly able to see them would not know the topic; Zulip leaves them out.
      for (const userId of [...audience]) {
        const person = userById(ctx.db, userId);
        if (person && isGuest(person) && !outcome.audienceBefore.includes(userId))
          audience.delete(userId);
      }
    }
    emitUpdateEvent(ctx, tx, user, plan, timestamp, outcome.changed, audience);
    emitLostAccess(ctx, tx, plan, changedIds, outcome.losingAccess);

    const movedAllVisible =
      plan.propagateMode === 'change_all' ||
      visibleTopicMessages(ctx, user, plan.origStream!, message.topic).length === 0;
    let followers = new Set<number>();
    if (movedAllVisible) {
      const origPolicies = migrateTopicPolicies(
        ctx,
        tx,
        plan,
        outcome.losingAccess,
        targetHadMessages,
      );
      followers = new Set(
        [...origPolicies].filter(([, p]) => p === VisibilityPolicy.followed).map(([id]) => id),
      );
    } else if (!outcome.losingAccess.has(message.sender_id)) {
      applyInitiationPolicy(ctx, tx, plan, changedIds);
    }

    let resolveNoticeId: number | null = null;
    if (plan.topicEdited && !plan.contentEdited && !plan.streamEdited) {
      if (plan.resolved || plan.unresolved) {
        resolveNoticeId = sendResolveNotice(ctx, tx, user, plan, followers);
      }
    }
    sendMoveNotices(ctx, tx, user, plan, input, changedIds, movedAllVisible, resolveNoticeId);
  });
  return { detached_uploads: [] };
}
