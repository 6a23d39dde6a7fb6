/** PATCH /messages/{message_id}: content edits, and moves (edit-move.ts), in one transaction. */
import { recipientsAlertedBy } from '../alert-words/index.js';
import type { AppContext, Tx } from '../core/context.js';
import { setMessageHasAttachment } from '../db/queries/attachments.js';
import { insertMessageEdit } from '../db/queries/message-edits.js';
import {
  channelMessageReceivers,
  type MessageRow,
  messageById,
  topicMessages,
  updateMessageContent,
} from '../db/queries/messages.js';
import { reindexMessage } from '../db/queries/search-index.js';
import { VisibilityPolicy } from '../db/queries/user-topics.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { memoisePayload } from '../events/hub.js';
import {
  currentFlags,
  FlagReader,
  flagRowsOf,
  MENTION_BITS,
  storeUserFlags,
} from '../flags/index.js';
import { topicLinks } from '../markdown/index.js';
import { canAccessMessage, usersWithMessageAccess } from '../narrow/index.js';
import { Flag, flagNames } from '../shared/flags.js';
import { loadRealm } from '../shared/realm.js';
import { isGuest } from '../shared/roles.js';
import { topicForQueue } from '../shared/topics.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { updateAttachmentReferences } from '../uploads/index.js';
import {
  applyMovedInitiationPolicy,
  migrateTopicPolicies,
  moveMessages,
  sendMoveNotices,
  sendResolveNotice,
} from './edit-move.js';
import { type EditInput, type EditPlan, planEdit, visibleTopicMessages } from './edit-plan.js';
import { type DeletedFrom, emitDeleteMessageEvents } from './events.js';
import { mentionedUsers, mentionFlags } from './mentions.js';

export type { EditInput, PropagateMode } from './edit-plan.js';

function updateMentionFlags(ctx: AppContext, plan: EditPlan, message: MessageRow): void {
  const rendered = plan.rendered!;
  const users = new Set<number>(flagRowsOf(ctx.db, message.id).map((r) => r.user_id));
  if (message.dm_group_id !== null) {
    for (const id of usersWithMessageAccess(ctx, message)) users.add(id);
  } else {
    for (const id of channelMessageReceivers(ctx.db, message.stream_id!, message.id)) users.add(id);
  }
  const mentioned = mentionedUsers(ctx, rendered);
  const wildcard = new Set(plan.topicWildcardUsers);
  // Zulip recomputes has_alert_word with the mentions (update_user_message_flags).
  const alerted = recipientsAlertedBy(ctx.db, plan.newContent, users);
  for (const userId of users) {
    const before = currentFlags(ctx.db, userId, message);
    const after =
      (before & ~(MENTION_BITS | Flag.has_alert_word)) |
      (alerted.has(userId) ? Flag.has_alert_word : 0) |
      mentionFlags(userId, rendered, mentioned, wildcard);
    if (after !== before) storeUserFlags(ctx.db, userId, message, after);
  }
}

/**
 * update_message: the content fields come with a content edit, the channel's
 * with a channel message, `propagate_mode` and `orig_subject` with a move,
 * `new_stream_id` with a channel move, `subject` and `topic_links` with a
 * topic change (Zulip's do_update_message).
 */
type UpdateMessageEvent = EventBody<
  'update_message',
  string,
  | 'orig_content'
  | 'orig_rendered_content'
  | 'content'
  | 'rendered_content'
  | 'is_me_message'
  | 'stream_name'
  | 'stream_id'
  | 'propagate_mode'
  | 'orig_subject'
  | 'new_stream_id'
  | 'subject'
  | 'topic_links'
>;

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
  const event: Omit<UpdateMessageEvent, 'flags'> = {
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
    // Queues alike in flags and empty_topic_name share one payload (and its JSON).
    payload: memoisePayload(
      (queue) => `${flags.get(queue.userId) ?? 0}|${queue.options.capabilities.empty_topic_name}`,
      (queue) => {
        const shaped: UpdateMessageEvent = {
          ...event,
          flags: flagNames(flags.get(queue.userId) ?? 0),
        };
        if (moved) shaped.orig_subject = topicForQueue(queue, message.topic, emptyName);
        if (plan.topicEdited) shaped.subject = topicForQueue(queue, plan.targetTopic, emptyName);
        return shaped;
      },
    ),
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
  const base = (queue: Parameters<typeof topicForQueue>[0]): DeletedFrom => ({
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
): { detached_uploads: unknown[] } {
  const plan = planEdit(ctx, user, input);
  let detachedUploads: unknown[] = [];
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
      const sender = userById(ctx.db, message.sender_id)!;
      const references = updateAttachmentReferences(
        ctx,
        tx,
        sender,
        message.id,
        rendered.uploadPathIds,
      );
      detachedUploads = references.detached;
      if (references.hasAttachment !== rendered.hasAttachment) {
        setMessageHasAttachment(ctx.db, message.id, references.hasAttachment);
      }
      reindexMessage(ctx.db, message.id, message.topic, rendered.html);
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
        content_html_diff: null, // computed when the history is read
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
      applyMovedInitiationPolicy(ctx, tx, plan, changedIds);
    }

    let resolveNoticeId: number | null = null;
    if (plan.topicEdited && !plan.contentEdited && !plan.streamEdited) {
      if (plan.resolved || plan.unresolved) {
        resolveNoticeId = sendResolveNotice(ctx, tx, user, plan, followers);
      }
    }
    sendMoveNotices(ctx, tx, user, plan, input, changedIds, movedAllVisible, resolveNoticeId);
  });
  return { detached_uploads: detachedUploads };
}
