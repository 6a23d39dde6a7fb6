import type { AppContext, Tx } from '../core/context.js';
import { insertMessageEdit } from '../db/queries/message-edits.js';
import {
  lastTopicMessage,
  type MessageRow,
  messageById,
  moveMessage,
  topicKey,
  topicMessages,
} from '../db/queries/messages.js';
import { searchReindexer } from '../db/queries/search-index.js';
import { subscriberIds } from '../db/queries/streams.js';
import { topicPolicies } from '../db/queries/topic-policies.js';
import { userTopicPolicy, VisibilityPolicy } from '../db/queries/user-topics.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { FlagReader, flagRowsOf, forgetUserFlags, storeUserFlags } from '../flags/index.js';
import { silentMention, topicLinkSyntax, topicUrl } from '../markdown/index.js';
import {
  canAccessMessage,
  channelMessageHolders,
  usersWithMessageAccess,
} from '../narrow/index.js';
import { Flag } from '../shared/flags.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { applyInitiationPolicy, setVisibilityPolicy } from '../topics/index.js';
import { notificationBot } from '../users/index.js';
import { removeMessages } from './delete.js';
import {
  type EditInput,
  type EditPlan,
  RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS,
  visibleTopicMessages,
} from './edit-plan.js';
import { sendInternalChannelMessage } from './send.js';

export function messagesToMove(ctx: AppContext, user: UserRow, plan: EditPlan): MessageRow[] {
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
export interface MoveOutcome {
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
export function moveMessages(
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
  const reindex = searchReindexer(ctx.db);
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
    reindex(m.id, plan.targetTopic, body);
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
      content_html_diff: null, // computed when the history is read
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
        ...flagRowsOf(ctx.db, m.id).map((r) => r.user_id),
      ]);
      for (const userId of users) {
        const person = userById(ctx.db, userId);
        const keeps =
          person !== undefined &&
          canAccessMessage(ctx, person, moved, target, { received: holders.has(userId) });
        if (!keeps) {
          if (had.has(userId)) losingAccess.add(userId);
          forgetUserFlags(ctx.db, userId, moved.id);
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
export function migrateTopicPolicies(
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
      setVisibilityPolicy(ctx, tx, userId, origStream.id, plan.message.topic, 0);
    }
    if (plan.streamEdited && losingAccess.has(userId)) continue;
    const wanted = targetHadMessages ? mergedPolicy(orig, current) : orig;
    if (wanted !== current) {
      setVisibilityPolicy(ctx, tx, userId, target.id, plan.targetTopic, wanted);
    }
  }
  return origPolicies;
}

export const sameTopicRow = (plan: EditPlan) =>
  !plan.streamEdited && topicKey(plan.message.topic) === topicKey(plan.targetTopic);

/** Zulip's get_visibility_policy_after_merge: the more visible policy wins. */
export function mergedPolicy(a: number, b: number): number {
  const both = new Set([a, b]);
  if (both.has(VisibilityPolicy.followed)) return VisibilityPolicy.followed;
  if (both.has(VisibilityPolicy.unmuted)) return VisibilityPolicy.unmuted;
  if (both.has(VisibilityPolicy.inherit)) return VisibilityPolicy.inherit;
  return VisibilityPolicy.muted;
}

/**
 * After a partial move, the moved message may start its new topic as its
 * sender sees it (Zulip's is_target_message_first): an initiation for the
 * sender's automatic follow or unmute.
 */
export function applyMovedInitiationPolicy(
  ctx: AppContext,
  tx: Tx,
  plan: EditPlan,
  changedIds: number[],
) {
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
  applyInitiationPolicy(ctx, tx, sender, target, plan.targetTopic);
}

export const RESOLVE_NOTICE = /^@_\*\*[^*]+\|\d+\*\* has marked this topic as (un)?resolved\.$/;

/** Resolve and unresolve notices by Notification Bot; a quick undo deletes the last one instead. */
export function sendResolveNotice(
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
export function sendMoveNotices(
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
