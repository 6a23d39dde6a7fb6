import { accessChannelById, accessChannelByName, invalidChannelId } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { streamById, streamByName } from '../db/queries/streams.js';
import { userTopicRow, VisibilityPolicy } from '../db/queries/user-topics.js';
import type { UserRow } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';
import { normalizeTopic } from '../shared/topics.js';
import { setVisibilityPolicy } from './visibility-policy.js';

/** The same topic rules as sending: equivalences for the empty topic, no control characters. */
function topicFromClient(ctx: AppContext, raw: string): string {
  return normalizeTopic(raw, loadRealm(ctx).settings.empty_topic_display_name);
}

const currentPolicy = (ctx: AppContext, userId: number, streamId: number, topic: string) =>
  userTopicRow(ctx.db, userId, streamId, topic)?.visibility_policy ?? VisibilityPolicy.inherit;

function storePolicy(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
  topic: string,
  policy: number,
): void {
  ctx.transaction((tx) => setVisibilityPolicy(ctx, tx, user.id, streamId, topic, policy));
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
