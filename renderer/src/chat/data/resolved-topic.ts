/**
 * Resolved topics: Zulip marks a topic resolved by renaming it with a
 * "✔ " prefix (server/messages/edit-plan.ts recognises the rename, posts
 * the notice and checks `can_resolve_topics_group` instead of the
 * topic-edit rule).
 */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** The prefix and any run of check marks and spaces after it (Zulip strips all of them on unresolve). */
const RESOLVED_PREFIX_RUN = /^✔ [✔ ]*/u;

export const isResolved = (topic: string): boolean => topic.startsWith(RESOLVED_TOPIC_PREFIX);

export const resolvedName = (topic: string): string => `${RESOLVED_TOPIC_PREFIX}${topic}`;

export const unresolvedName = (topic: string): string => topic.replace(RESOLVED_PREFIX_RUN, '');

/** The topic as the sidebar and recipient bar show it: the check mark apart from the name. */
export function resolvedParts(topic: string): { resolved: boolean; name: string } {
  return isResolved(topic)
    ? { resolved: true, name: unresolvedName(topic) }
    : { resolved: false, name: topic };
}

/**
 * `PATCH /messages/{id}` for the resolve toggle, as Zulip's web app sends
 * it: the whole topic moves, and only the new topic gets the notice.
 */
export function toggleResolvedParams(topic: string): Record<string, unknown> {
  return {
    topic: isResolved(topic) ? unresolvedName(topic) : resolvedName(topic),
    propagate_mode: 'change_all',
    send_notification_to_old_thread: false,
    send_notification_to_new_thread: true,
  };
}

/**
 * Whether a topic rename only resolves or unresolves it (the server's
 * edit-plan.ts test): such a rename is not a move, so messages keep their
 * "moved" marker as it was.
 */
export function isResolveToggle(oldTopic: string, newTopic: string): boolean {
  const resolving =
    !isResolved(oldTopic) && isResolved(newTopic) && newTopic === resolvedName(oldTopic);
  const unresolving =
    isResolved(oldTopic) && !isResolved(newTopic) && unresolvedName(oldTopic) === newTopic;
  return resolving || unresolving;
}
