import type { AppContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { messageEdits } from '../db/queries/message-edits.js';
import type { UserRow } from '../db/queries/users.js';
import { accessMessage } from '../narrow/index.js';
import { loadRealm } from '../shared/realm.js';
import { topicForClient } from '../shared/topics.js';
import { highlightHtmlDifferences } from './html-diff.js';

type Snapshot = Record<string, unknown>;

/**
 * GET /messages/{message_id}/history: the original message, then one
 * snapshot per edit, each with the topic and content as they were right
 * after it (Zulip's fill_edit_history_entries, oldest first).
 */
export function getMessageHistory(
  ctx: AppContext,
  user: UserRow,
  messageId: number,
  allowEmptyTopicName: boolean,
): { message_history: Snapshot[] } {
  const realm = loadRealm(ctx);
  const policy = realm.settings.message_edit_history_visibility_policy;
  if (policy === 'none' || !realm.settings.allow_edit_history) {
    throw badRequest('Message edit history is disabled in this organization');
  }
  const { message } = accessMessage(ctx, user, messageId);
  const isChannelMessage = message.stream_id !== null;
  const topicName = (topic: string) =>
    isChannelMessage
      ? topicForClient(topic, realm.settings.empty_topic_display_name, allowEmptyTopicName)
      : '';

  // Walk back from the current state, newest edit first.
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = topicName(message.topic);
  const newestFirst: Snapshot[] = [];
  for (const edit of messageEdits(ctx.db, message.id).reverse()) {
    const entry: Snapshot = {
      content,
      rendered_content: rendered,
      timestamp: edit.timestamp,
      topic,
      user_id: edit.user_id,
    };
    if (edit.prev_topic !== null) {
      topic = topicName(edit.prev_topic);
      entry.prev_topic = topic;
    }
    if (edit.prev_content !== null) {
      const prevRendered = edit.prev_rendered_content ?? '';
      entry.prev_content = edit.prev_content;
      entry.prev_rendered_content = prevRendered;
      // Computed when read, as Zulip does: diffs stored by older versions had other markup.
      entry.content_html_diff = highlightHtmlDifferences(prevRendered, rendered);
      content = edit.prev_content;
      rendered = prevRendered;
    }
    if (edit.prev_stream_id !== null) {
      entry.prev_stream = edit.prev_stream_id;
      entry.stream = edit.stream_id;
    }
    newestFirst.push(entry);
  }
  newestFirst.push({
    content,
    rendered_content: rendered,
    timestamp: message.date_sent,
    topic,
    user_id: message.sender_id,
  });

  // "moves": content-only edits are hidden and moves lose their content fields.
  const visible =
    policy === 'moves'
      ? newestFirst.flatMap((entry) => {
          if (!('prev_content' in entry)) return [entry];
          if (!('prev_topic' in entry) && !('prev_stream' in entry)) return [];
          const {
            prev_content: _c,
            prev_rendered_content: _r,
            content_html_diff: _d,
            ...rest
          } = entry;
          return [rest];
        })
      : newestFirst;
  return { message_history: visible.reverse() };
}
