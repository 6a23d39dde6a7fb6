import type { AppContext, Tx } from '../core/context.js';
import { type StreamRow, subscriptionOf } from '../db/queries/streams.js';
import {
  topicHasOtherMessages,
  userTopicPolicy,
  VisibilityPolicy,
} from '../db/queries/user-topics.js';
import type { UserRow } from '../db/queries/users.js';
import { mergeUserSettings } from '../shared/user-settings.js';
import { setVisibilityPolicy } from './visibility-policy.js';

/**
 * Following or unmuting a topic because you took part in it: the one home of
 * the user settings `automatically_follow_topics_policy` and
 * `automatically_unmute_topics_in_muted_streams_policy` (Zulip's
 * zerver/lib/message.py and apply_automatic_unmute_follow_topics_policy).
 *
 * Which actions count, as in Zulip:
 * - sending a message (send.ts): initiation when it starts the topic, and
 *   always send and participation;
 * - reacting, voting in a poll or changing a to-do list (reactions,
 *   submessages): participation only;
 * - moving a message so that it starts its new topic: initiation, for its
 *   sender (edit-move.ts); editing content counts as nothing.
 */

/** Values of both settings: Zulip's AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*. */
export const AutomaticPolicy = {
  /** Sending, reacting, voting in a poll, editing a to-do list. */
  onParticipation: 1,
  /** Sending a message. */
  onSend: 2,
  /** Sending (or moving) the first message of the topic. */
  onInitiation: 3,
  never: 4,
} as const;

/** The settings as the user chose them (Zulip's defaults: follow on initiation, unmute on send). */
function settingsOf(user: UserRow) {
  const settings = mergeUserSettings(user.settings);
  return {
    follow: settings.automatically_follow_topics_policy,
    unmute: settings.automatically_unmute_topics_in_muted_streams_policy,
  };
}

/** The user's active subscription's mute, or undefined when not subscribed. */
function channelMuted(ctx: AppContext, stream: StreamRow, userId: number): boolean | undefined {
  const sub = subscriptionOf(ctx.db, stream.id, userId);
  return sub?.active === 1 ? sub.is_muted === 1 : undefined;
}

/** Zulip's visibility_policy_for_participation (and _for_send with `onSend`). */
function policyWhen(
  when: number,
  settings: { follow: number; unmute: number },
  muted: boolean,
): number | null {
  if (settings.follow === when) return VisibilityPolicy.followed;
  if (muted && settings.unmute === when) return VisibilityPolicy.unmuted;
  return null;
}

/**
 * The policy a sent channel message gives its sender, or null when it cannot
 * make the topic more visible (Zulip's visibility_policy_for_send_message):
 * never below followed; following on participation or on send wins over
 * unmuting; a topic with a policy cannot be an initiation; otherwise starting
 * a topic follows it when the sender follows topics they start, and only then
 * may unmuting on initiation apply. The caller stores it after the message
 * event, as Zulip's send does, and reports it as automatic_new_visibility_policy.
 */
export function policyForSentMessage(
  ctx: AppContext,
  sender: UserRow,
  stream: StreamRow,
  topic: string,
  messageId: number,
): number | null {
  if (sender.is_bot) return null;
  const settings = settingsOf(sender);
  if (settings.follow === AutomaticPolicy.never && settings.unmute === AutomaticPolicy.never) {
    return null;
  }
  const current = userTopicPolicy(ctx.db, sender.id, stream.id, topic);
  if (current === VisibilityPolicy.followed) return null;
  const muted = channelMuted(ctx, stream, sender.id) === true;
  const onSend = [
    policyWhen(AutomaticPolicy.onParticipation, settings, muted),
    policyWhen(AutomaticPolicy.onSend, settings, muted),
  ];
  if (onSend.includes(VisibilityPolicy.followed)) return VisibilityPolicy.followed;
  let policy: number | null = onSend.includes(VisibilityPolicy.unmuted)
    ? VisibilityPolicy.unmuted
    : null;
  if (current !== VisibilityPolicy.inherit) return policy === current ? null : policy;
  if (topicHasOtherMessages(ctx.db, stream.id, topic, messageId)) return policy;
  if (settings.follow === AutomaticPolicy.onInitiation) return VisibilityPolicy.followed;
  if (muted && settings.unmute === AutomaticPolicy.onInitiation) policy = VisibilityPolicy.unmuted;
  return policy;
}

/**
 * Taking part in a channel topic without sending (a reaction, a poll vote, a
 * to-do change): a subscriber who follows, or in a muted channel unmutes,
 * topics on participation gets that policy; never lowered from followed
 * (Zulip's visibility_policy_for_participation and should_change_visibility_policy).
 */
export function applyParticipationPolicy(
  ctx: AppContext,
  tx: Tx,
  user: UserRow,
  stream: StreamRow,
  topic: string,
): void {
  if (user.is_bot) return;
  const muted = channelMuted(ctx, stream, user.id);
  if (muted === undefined) return;
  const policy = policyWhen(AutomaticPolicy.onParticipation, settingsOf(user), muted);
  if (policy === null) return;
  const current = userTopicPolicy(ctx.db, user.id, stream.id, topic);
  if (current === policy || current === VisibilityPolicy.followed) return;
  setVisibilityPolicy(ctx, tx, user.id, stream.id, topic, policy);
}

/**
 * A moved message that now starts its topic is an initiation for its sender
 * (the caller decides it is first as the sender sees the topic): follow it if
 * they follow topics they start, or else unmute it in a muted channel if they
 * unmute those (Zulip's apply_automatic_unmute_follow_topics_policy).
 */
export function applyInitiationPolicy(
  ctx: AppContext,
  tx: Tx,
  sender: UserRow,
  stream: StreamRow,
  topic: string,
): void {
  if (sender.is_bot) return;
  const settings = settingsOf(sender);
  let policy: number | null = null;
  if (settings.follow === AutomaticPolicy.onInitiation) policy = VisibilityPolicy.followed;
  else if (
    settings.unmute === AutomaticPolicy.onInitiation &&
    channelMuted(ctx, stream, sender.id) === true
  ) {
    policy = VisibilityPolicy.unmuted;
  }
  if (policy === null || policy === userTopicPolicy(ctx.db, sender.id, stream.id, topic)) return;
  setVisibilityPolicy(ctx, tx, sender.id, stream.id, topic, policy);
}

/**
 * Mentioned people who asked for it (automatically_follow_topics_where_mentioned)
 * follow the topic, unless they muted or already follow it; not the sender,
 * not bots, only those who received the message.
 */
export function followWhereMentioned(
  ctx: AppContext,
  tx: Tx,
  mentioned: Iterable<UserRow>,
  stream: StreamRow,
  topic: string,
): void {
  for (const user of mentioned) {
    if (
      user.is_bot ||
      !mergeUserSettings(user.settings).automatically_follow_topics_where_mentioned
    )
      continue;
    const current = userTopicPolicy(ctx.db, user.id, stream.id, topic);
    if (current === VisibilityPolicy.muted || current === VisibilityPolicy.followed) continue;
    setVisibilityPolicy(ctx, tx, user.id, stream.id, topic, VisibilityPolicy.followed);
  }
}
