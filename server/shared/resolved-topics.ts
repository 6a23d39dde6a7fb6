/**
 * Resolved topics: Zulip marks a topic resolved by renaming it with a "✔ "
 * prefix. Pure (no imports) because the browser chat shares it: the server
 * decides with it which rename is a resolve (its own permission and notice,
 * not a move), and the chat shows and sends the same names.
 */

export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** The prefix and any run of check marks and spaces after it: unresolving strips them all. */
const RESOLVED_PREFIX_RUN = /^✔ [✔ ]*/u;

export const isResolvedTopic = (topic: string): boolean => topic.startsWith(RESOLVED_TOPIC_PREFIX);

export const resolvedTopicName = (topic: string): string => `${RESOLVED_TOPIC_PREFIX}${topic}`;

export const unresolvedTopicName = (topic: string): string =>
  topic.replace(RESOLVED_PREFIX_RUN, '');

/**
 * Whether renaming `oldTopic` to `newTopic` (as requested, before any
 * truncation) only resolves or unresolves it.
 */
export function resolveToggleOf(
  oldTopic: string,
  newTopic: string,
): 'resolve' | 'unresolve' | null {
  const wasResolved = isResolvedTopic(oldTopic);
  const isResolved = isResolvedTopic(newTopic);
  if (!wasResolved && isResolved && newTopic === resolvedTopicName(oldTopic)) return 'resolve';
  if (wasResolved && !isResolved && unresolvedTopicName(oldTopic) === newTopic) return 'unresolve';
  return null;
}
