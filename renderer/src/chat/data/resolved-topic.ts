/**
 * Resolved topics in the chat. The naming rule itself is shared with the
 * server (server/shared/resolved-topics.ts), which checks
 * `can_resolve_topics_group` for such a rename and posts the notice.
 */
import {
  isResolvedTopic,
  resolvedTopicName,
  resolveToggleOf,
  unresolvedTopicName,
} from '../../../../server/shared/resolved-topics.js';

export { isResolvedTopic as isResolved, unresolvedTopicName as unresolvedName };

/** The topic as the sidebar and recipient bar show it: the check mark apart from the name. */
export function resolvedParts(topic: string): { resolved: boolean; name: string } {
  return isResolvedTopic(topic)
    ? { resolved: true, name: unresolvedTopicName(topic) }
    : { resolved: false, name: topic };
}

/**
 * `PATCH /messages/{id}` for the resolve toggle, as Zulip's web app sends
 * it: the whole topic moves, and only the new topic gets the notice.
 */
export function toggleResolvedParams(topic: string): Record<string, unknown> {
  return {
    topic: isResolvedTopic(topic) ? unresolvedTopicName(topic) : resolvedTopicName(topic),
    propagate_mode: 'change_all',
    send_notification_to_old_thread: false,
    send_notification_to_new_thread: true,
  };
}

/**
 * Whether a topic rename only resolves or unresolves it: such a rename is
 * not a move, so messages keep their "moved" marker as it was.
 */
export const isResolveToggle = (oldTopic: string, newTopic: string): boolean =>
  resolveToggleOf(oldTopic, newTopic) !== null;
