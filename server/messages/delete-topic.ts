import { accessChannelById } from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { topicMessagesBefore } from '../db/queries/messages.js';
import { streamById } from '../db/queries/streams.js';
import { topicPolicies } from '../db/queries/topic-policies.js';
import { VisibilityPolicy } from '../db/queries/user-topics.js';
import type { UserRow } from '../db/queries/users.js';
import { canAccessMessage, hasReceived } from '../narrow/index.js';
import { loadRealm } from '../shared/realm.js';
import { requireRole } from '../shared/roles.js';
import { normalizeTopic } from '../shared/topics.js';
import { setVisibilityPolicy } from '../topics/index.js';
import { removeMessages } from './delete.js';

/** Lets other requests in between two batches (each batch is one synchronous transaction). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * POST /streams/{stream_id}/delete_topic (administrators). Deletes the
 * messages of the topic that the caller can see, newest first, one
 * transaction per batch (so clients see delete_message events as it goes).
 * Every batch makes progress; once the time budget is spent the answer is
 * `complete: false` and the client repeats the request. When the topic is
 * gone, everyone's preference for it (mute, follow) is reset.
 */
export async function deleteTopic(
  ctx: AppContext,
  actor: UserRow,
  streamId: number,
  topicName: string,
): Promise<{ complete: boolean }> {
  requireRole(actor, 'admin');
  const stream = accessChannelById(ctx, actor, streamId);
  const topic = normalizeTopic(topicName, loadRealm(ctx).settings.empty_topic_display_name);
  const { batchSize, timeBudgetMs } = ctx.config.topicDeletion;
  const started = performance.now();
  // Messages the caller cannot see (protected history) stay; the cursor steps past them.
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const batch = topicMessagesBefore(ctx.db, stream.id, topic, before, batchSize);
    if (batch.length === 0) break;
    before = batch[batch.length - 1]!.id;
    const current = streamById(ctx.db, stream.id);
    const deletable = batch.filter((message) =>
      canAccessMessage(ctx, actor, message, current, { modifying: true }),
    );
    if (deletable.length > 0) ctx.transaction((tx) => removeMessages(ctx, tx, deletable));
    if (batch.length < batchSize) break;
    if (performance.now() - started >= timeBudgetMs) return { complete: false };
    await nextTurn();
  }
  resetTopicPreferences(ctx, stream.id, topic);
  return { complete: true };
}

/**
 * The topic no longer exists, so preferences for it are reset (user_topic
 * events with policy 0). In a channel with protected history, those who
 * still received a message of the topic that the caller could not delete
 * keep theirs.
 */
function resetTopicPreferences(ctx: AppContext, streamId: number, topic: string): void {
  const stream = streamById(ctx.db, streamId);
  if (!stream) return;
  let rows = topicPolicies(ctx.db, streamId, topic);
  if (rows.length === 0) return;
  if (!stream.history_public_to_subscribers) {
    const remaining = topicMessagesBefore(ctx.db, streamId, topic, Number.MAX_SAFE_INTEGER, -1);
    rows = rows.filter((row) => !remaining.some((m) => hasReceived(ctx, row.user_id, m)));
  }
  ctx.transaction((tx) => {
    for (const row of rows) {
      setVisibilityPolicy(ctx, tx, row.user_id, streamId, row.topic_name, VisibilityPolicy.inherit);
    }
  });
}
