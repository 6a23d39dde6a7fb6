import { accessChannelById, accessChannelByName, invalidChannelId } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { streamById, streamByName } from '../db/queries/streams.js';
import {
  mutedTopicsList,
  setUserTopicPolicy,
  userTopicRow,
  VisibilityPolicy,
} from '../db/queries/user-topics.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventQueue } from '../events/queue.js';
import { loadRealm } from '../shared/realm.js';
import { normalizeTopic } from '../shared/topics.js';

/** The same topic rules as sending: equivalences for the empty topic, no control characters. */
function topicFromClient(ctx: AppContext, raw: string): string {
  return normalizeTopic(raw, loadRealm(ctx).settings.empty_topic_display_name);
}

const currentPolicy = (ctx: AppContext, userId: number, streamId: number, topic: string) =>
  userTopicRow(ctx.db, userId, streamId, topic)?.visibility_policy ?? VisibilityPolicy.inherit;

/**
 * Stores a changed policy and tells the user's clients: a user_topic event,
 * and the whole deprecated muted_topics list to queues that asked for that
 * but not for user_topic (Zulip suppresses it where user_topic is handled).
 */
function storePolicy(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
  topic: string,
  policy: number,
): void {
  const emptyName = loadRealm(ctx).settings.empty_topic_display_name;
  ctx.transaction((tx) => {
    const now = Math.floor(ctx.now() / 1000);
    setUserTopicPolicy(ctx.db, { userId: user.id, streamId, topic, policy, now });
    tx.emit({
      type: 'user_topic',
      users: [user.id],
      payload: (queue: EventQueue) => ({
        type: 'user_topic',
        stream_id: streamId,
        topic_name:
          topic === '' && !queue.options.capabilities.empty_topic_name ? emptyName : topic,
        last_updated: now,
        visibility_policy: policy,
      }),
    });
    const muted = mutedTopicsList(ctx.db, user.id, emptyName);
    const mutedNative = mutedTopicsList(ctx.db, user.id, null);
    tx.emit({
      type: 'muted_topics',
      users: [user.id],
      payload: (queue: EventQueue) => {
        const types = queue.options.eventTypes;
        if (types === null || types.has('user_topic')) return null;
        return {
          type: 'muted_topics',
          muted_topics: queue.options.capabilities.empty_topic_name ? mutedNative : muted,
        };
      },
    });
  });
}

/**
 * POST /user_topics. Works whether or not the topic has messages. Removing
 * a preference (0) only needs the channel to exist; setting one needs
 * access to it. Setting the current value again changes nothing and sends
 * no event.
 */
export function updateUserTopic(
  ctx: AppContext,
  user: UserRow,
  input: { streamId: number; topic: string; visibilityPolicy: number },
): Record<string, never> {
  const topic = topicFromClient(ctx, input.topic);
  const policy = input.visibilityPolicy;
  let streamId: number;
  if (policy === VisibilityPolicy.inherit) {
    const stream = streamById(ctx.db, input.streamId);
    if (!stream) throw invalidChannelId();
    streamId = stream.id;
  } else {
    streamId = accessChannelById(ctx, user, input.streamId).id;
  }
  if (currentPolicy(ctx, user.id, streamId, topic) !== policy) {
    storePolicy(ctx, user, streamId, topic, policy);
  }
  return {};
}

/**
 * PATCH /users/me/subscriptions/muted_topics, the deprecated way to mute
 * (op "add") and unmute (op "remove") that the python bindings still offer.
 */
export function updateMutedTopic(
  ctx: AppContext,
  user: UserRow,
  input: { streamId?: number; streamName?: string; topic: string; op: 'add' | 'remove' },
): Record<string, never> {
  if (input.streamId === undefined && input.streamName === undefined) {
    throw badRequest("Please supply 'stream'.");
  }
  if (input.streamId !== undefined && input.streamName !== undefined) {
    throw badRequest("Please choose one: 'stream' or 'stream_id'.");
  }
  const topic = topicFromClient(ctx, input.topic);
  if (input.op === 'add') {
    const stream =
      input.streamName !== undefined
        ? accessChannelByName(ctx, user, input.streamName)
        : accessChannelById(ctx, user, input.streamId!);
    if (currentPolicy(ctx, user.id, stream.id, topic) === VisibilityPolicy.muted) {
      throw badRequest('Topic already muted');
    }
    storePolicy(ctx, user, stream.id, topic, VisibilityPolicy.muted);
    return {};
  }
  const stream =
    input.streamName !== undefined
      ? streamByName(ctx.db, input.streamName.trim())
      : streamById(ctx.db, input.streamId!);
  if (!stream || currentPolicy(ctx, user.id, stream.id, topic) !== VisibilityPolicy.muted) {
    throw badRequest('Topic is not muted');
  }
  storePolicy(ctx, user, stream.id, topic, VisibilityPolicy.inherit);
  return {};
}
