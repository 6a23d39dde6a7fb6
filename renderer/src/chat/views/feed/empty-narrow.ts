import type { ChatState, Narrow } from '../../data/model.js';
import { canonicalOperatorOf, composeTargetFor } from '../../data/narrow.js';

const NO_RESULTS = 'No search results.';
const NOTHING_HERE = 'There are no messages here.';

/** Titles of `is:` views with nothing in them (Zulip's narrow_banner.ts). */
const EMPTY_IS: Record<string, string> = {
  starred: 'You have no starred messages.',
  mentioned: 'This view will show messages where you are mentioned.',
  dm: 'You have no direct messages yet!',
  private: 'You have no direct messages yet!',
  unread: 'You have no unread messages!',
  resolved: 'No topics in your history are marked as resolved.',
  followed: "You aren't following any topics.",
  muted: 'You have no messages in muted topics and channels.',
  alerted: NO_RESULTS,
};

/**
 * What an empty view says, in Zulip's words (web/src/narrow_banner.ts
 * `pick_empty_narrow_banner`): a view of one kind says what it would
 * hold; a view that combines terms (`dm:… is:unread`, `sender:… has:link`)
 * is a search, and says there are no results, not that the conversation is
 * empty.
 */
export function emptyNarrowText(narrow: Narrow, state: ChatState): string {
  // `near` and `with` only say where to open.
  const terms = narrow.filter((t) => !['near', 'with'].includes(canonicalOperatorOf(t.operator)));
  const count = (operator: string) =>
    terms.filter((t) => canonicalOperatorOf(t.operator) === operator).length;
  const first = terms[0];
  if (!first || (terms.length === 1 && canonicalOperatorOf(first.operator) === 'in')) {
    return 'There are no messages in your combined feed.';
  }
  if (terms.length > 1) {
    // A conversation not started yet.
    if (terms.length === 2 && count('channel') === 1 && count('topic') === 1) return NOTHING_HERE;
    return NO_RESULTS;
  }
  const operand = first.operand;
  if (first.negated) return NO_RESULTS;
  switch (canonicalOperatorOf(first.operator)) {
    case 'is':
      return EMPTY_IS[String(operand)] ?? NOTHING_HERE;
    case 'search':
    case 'has':
      return NO_RESULTS;
    case 'dm': {
      const target = composeTargetFor(narrow, state);
      if (target?.kind !== 'direct') return 'One or more of these users do not exist!';
      if (target.userIds.length === 1) {
        const [id] = target.userIds;
        if (id === state.ownUserId) return "You haven't sent yourself any notes yet!";
        const name = state.users.get(id!)?.full_name;
        if (!name) return 'This user does not exist!';
        return `You have no direct messages with ${name} yet.`;
      }
      return 'You have no direct messages with these users yet.';
    }
    case 'sender': {
      const id = typeof operand === 'number' ? operand : Number(operand);
      const name = state.users.get(id)?.full_name;
      return name
        ? `You haven't received any messages sent by ${name} yet.`
        : "This user doesn't exist, or you are not allowed to view any of their messages.";
    }
    default:
      return NOTHING_HERE;
  }
}
